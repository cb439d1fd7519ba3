// stackpilot-cli install PROFILE_OR_RUNTIME_ID: download, verify and unpack a
// runtime (or every runtime of a profile) into its own folder under the prefix root.

#include "app/cli/commands/install_support.h"
#include "core/paths.h"

#include <ostream>

namespace sp::cli {

namespace {

class InstallCommand : public Command
{
public:
    void addOptions(QCommandLineParser& parser) override
    {
        parser.addOption({QStringLiteral("lock-timeout"),
                          QStringLiteral("Wait at most SECONDS for another install of the same "
                                         "runtime (default: wait)."),
                          QStringLiteral("SECONDS")});
        parser.addPositionalArgument(QStringLiteral("PROFILE_OR_RUNTIME_ID"),
                                     QStringLiteral("A profile id or a runtime id."));
    }

    int run(const QCommandLineParser& parser, Io& io) override
    {
        const auto id = oneArgument(parser, io, "PROFILE_OR_RUNTIME_ID");
        if (!id)
            return 2;
        int rc = 0;
        auto loaded = loadCatalogForCli(parser, io, "install", &rc);
        if (!loaded)
            return rc;
        const Catalog* catalog = &loaded->catalog;
        auto runtimes = runtimesFor(*catalog, *id);
        if (!runtimes)
            return fail(io, "install", runtimes.error());

        InstallOptions options;
        options.prefixRoot = prefixRootOf(parser);
        if (!readInstallSourceOptions(parser, io, "install", options))
            return 2;
        if (parser.isSet(QStringLiteral("lock-timeout"))) {
            bool ok = false;
            const double s = parser.value(QStringLiteral("lock-timeout")).toDouble(&ok);
            if (!ok || s < 0) {
                io.err << "stackpilot-cli install: --lock-timeout needs a number of seconds\n";
                return 2;
            }
            options.lockTimeout = std::chrono::milliseconds(static_cast<long long>(s * 1000));
        }
        nlohmann::json report;
        return installRuntimes(*runtimes, std::move(options), "install", io,
                               parser.isSet(QStringLiteral("json")), report);
    }
};

} // namespace

SP_REGISTER_COMMAND(InstallCommand, "install",
                    "Install a profile's runtimes (or one runtime) into isolated folders.",
                    {Json, CatalogDir, PrefixRoot, InstallSource})

} // namespace sp::cli
