// stackpilot-cli gc: remove installed runtimes that no profile of the catalog uses,
// the leftovers of interrupted installs (staging and trash folders), and partial
// downloads nobody resumed for --partial-days days (they are kept otherwise, so an
// interrupted install resumes where it stopped).

#include "app/cli/commands/install_support.h"
#include "core/paths.h"
#include "installers/install_lock.h"
#include "installers/prefix_store.h"

#include <chrono>
#include <filesystem>
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
        parser.addOption(
            {QStringLiteral("partial-days"),
             QStringLiteral("Remove partial downloads untouched for DAYS days (default 14)."),
             QStringLiteral("DAYS"), QStringLiteral("14")});
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
        bool daysOk = false;
        const double days = parser.value(QStringLiteral("partial-days")).toDouble(&daysOk);
        if (!daysOk || days < 0) {
            io.err << "stackpilot-cli gc: --partial-days needs a number of days\n";
            return 2;
        }
        report["partials_removed"] = nlohmann::json::array();
        {
            namespace fs = std::filesystem;
            const auto limit = fs::file_time_type::clock::now() -
                               std::chrono::duration_cast<fs::file_time_type::duration>(
                                   std::chrono::duration<double>(days * 86400.0));
            std::error_code ec;
            for (const auto& e :
                 fs::directory_iterator(paths::cacheDir() / "downloads" / "partial", ec)) {
                if (e.path().extension() != ".part" || !e.is_regular_file(ec) ||
                    e.last_write_time(ec) > limit)
                    continue;
                if (!dry)
                    fs::remove(e.path(), ec);
                report["partials_removed"].push_back(paths::toUtf8(e.path().filename()));
            }
        }
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
        for (const auto& f : report["partials_removed"])
            io.out << (dry ? "would remove partial download " : "removed partial download ")
                   << f.get<std::string>() << "\n";
        io.out << report["kept"].size() << " runtime(s) in use kept\n";
        return rc;
    }
};

} // namespace

SP_REGISTER_COMMAND(GcCommand)

} // namespace sp::cli
