// stackpilot-cli verify [ID]: re-hash an installed runtime (or all of them, or a
// profile's) against its receipt and name every missing or modified file.

#include "app/cli/commands/install_support.h"
#include "core/paths.h"
#include "installers/prefix_store.h"

#include <ostream>

namespace sp::cli {

namespace {

class VerifyCommand : public Command
{
public:
    void addOptions(QCommandLineParser& parser) override
    {
        parser.addPositionalArgument(QStringLiteral("[ID]"),
                                     QStringLiteral("A runtime or profile id (default: every "
                                                    "installed runtime)."));
    }

    int run(const QCommandLineParser& parser, Io& io) override
    {
        const QStringList args = parser.positionalArguments();
        if (args.size() > 1)
            return usageError(io, "expected at most one ID");
        PrefixStore store(prefixRootOf(parser));
        std::vector<std::string> ids;
        if (args.isEmpty()) {
            ids = store.installedIds();
        } else {
            const std::string id = toStd(args[0]);
            if (store.isInstalled(id) || PrefixStore::checkId(id).ok() == false) {
                ids.push_back(id);
            } else {
                // Not an installed runtime: maybe a profile of the catalog.
                int rc = 0;
                auto loaded = loadCatalogForCli(parser, io, "verify", &rc);
                const Profile* profile = loaded ? loaded->catalog.profile(id) : nullptr;
                if (profile)
                    ids = profile->runtimes;
                else
                    ids.push_back(id);
            }
        }
        const bool json = parser.isSet(QStringLiteral("json"));
        nlohmann::json report = {{"prefix_root", paths::toUtf8(store.root())},
                                 {"runtimes", nlohmann::json::array()}};
        bool allOk = true;
        for (const auto& id : ids) {
            auto receipt = store.receipt(id);
            if (!receipt) {
                allOk = false;
                report["runtimes"].push_back({{"id", id},
                                              {"ok", false},
                                              {"installed", false},
                                              {"problems", nlohmann::json::array()}});
                if (!json)
                    io.out << id << ": not installed\n";
                continue;
            }
            const auto problems = verifyTree(store.runtimeDir(id), *receipt);
            nlohmann::json list = nlohmann::json::array();
            for (const auto& p : problems)
                list.push_back({{"path", p.path}, {"issue", p.issue}, {"detail", p.detail}});
            report["runtimes"].push_back({{"id", id},
                                          {"ok", problems.empty()},
                                          {"installed", true},
                                          {"files", receipt->files.size()},
                                          {"problems", list}});
            allOk = allOk && problems.empty();
            if (json)
                continue;
            if (problems.empty()) {
                io.out << id << ": ok (" << receipt->files.size() << " entries)\n";
            } else {
                io.out << id << ": " << problems.size() << " problem(s)\n";
                for (const auto& p : problems)
                    io.out << "  " << p.issue << ": " << p.path
                           << (p.detail.empty() ? "" : " (" + p.detail + ")") << "\n";
            }
        }
        if (json)
            io.out << report.dump(2) << "\n";
        else if (ids.empty())
            io.out << "no runtimes installed in " << paths::toUtf8(store.root()) << "\n";
        if (!allOk)
            io.err << "stackpilot-cli verify: damaged or missing runtimes (run `stackpilot-cli "
                      "repair ID`)\n";
        return allOk ? 0 : 1;
    }
};

} // namespace

SP_REGISTER_COMMAND(VerifyCommand, "verify",
                    "Check installed runtimes against their receipts (exit 1 on damage).",
                    {Json, CatalogDir, PrefixRoot})

} // namespace sp::cli
