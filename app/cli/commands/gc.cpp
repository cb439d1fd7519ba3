// stackpilot-cli gc: remove installed runtimes that no profile of the catalog uses,
// and the leftovers of interrupted installs (staging and trash folders).

#include "app/cli/commands/install_support.h"
#include "core/paths.h"
#include "installers/install_lock.h"
#include "installers/prefix_store.h"

#include <ostream>
#include <set>

namespace sp::cli {

namespace {

class GcCommand : public Command
{
public:
    QString name() const override { return QStringLiteral("gc"); }
    QString summary() const override
    {
        return QStringLiteral(
            "Remove runtimes no profile uses and leftovers of interrupted installs.");
    }

    void configure(QCommandLineParser& parser) override
    {
        addJsonOption(parser);
        addCatalogDirOption(parser);
        addPrefixRootOption(parser);
        parser.addOption(
            {QStringLiteral("dry-run"), QStringLiteral("Only say what would be removed.")});
    }

    int run(const QCommandLineParser& parser, Io& io) override
    {
        std::vector<std::string> warnings;
        auto catalog = loadCatalogFor(parser, warnings);
        if (!catalog)
            return fail(io, "gc", catalog.error());
        std::set<std::string> used;
        for (const auto& p : catalog->profiles)
            used.insert(p.runtimes.begin(), p.runtimes.end());

        PrefixStore store(prefixRootOf(parser));
        const bool dry = parser.isSet(QStringLiteral("dry-run"));
        const bool json = parser.isSet(QStringLiteral("json"));
        nlohmann::json report = {{"prefix_root", paths::toUtf8(store.root())},
                                 {"removed", nlohmann::json::array()},
                                 {"kept", nlohmann::json::array()},
                                 {"cleaned", nlohmann::json::array()},
                                 {"dry_run", dry}};
        if (!dry)
            for (const auto& line : store.recoverAll())
                report["cleaned"].push_back(line);
        int rc = 0;
        for (const auto& id : store.installedIds()) {
            if (used.count(id)) {
                report["kept"].push_back(id);
                continue;
            }
            if (!dry) {
                auto lock = InstallLock::tryAcquire(store.root(), id);
                if (!lock) {
                    io.err << "stackpilot-cli gc: " << id << " is being installed; skipped\n";
                    continue;
                }
                if (auto r = store.remove(id); !r) {
                    io.err << "stackpilot-cli gc: " << r.error().message << "\n";
                    rc = 1;
                    continue;
                }
            }
            report["removed"].push_back(id);
        }
        if (json) {
            io.out << report.dump(2) << "\n";
            return rc;
        }
        for (const auto& l : report["cleaned"])
            io.out << l.get<std::string>() << "\n";
        for (const auto& id : report["removed"])
            io.out << (dry ? "would remove " : "removed ") << id.get<std::string>() << "\n";
        io.out << report["kept"].size() << " runtime(s) in use kept\n";
        return rc;
    }
};

} // namespace

SP_REGISTER_COMMAND(GcCommand)

} // namespace sp::cli
