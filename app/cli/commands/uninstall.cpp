// stackpilot-cli uninstall ID: remove a runtime's folder and receipt. The folder is
// renamed to a trash folder first, so a crash never leaves a half-deleted runtime
// that still looks installed. A profile id removes the profile's own venv and step
// receipt; its runtimes stay, since other profiles may share them.

#include "installers/uninstall.h"

#include "app/cli/commands/install_support.h"
#include "core/format.h"
#include "core/launch/profile_env.h"
#include "core/paths.h"
#include "installers/prefix_store.h"

#include <ostream>
#include <sstream>

namespace sp::cli {

namespace {

// A catalog that does not load only means the id is taken as a runtime's.
bool isProfile(const QCommandLineParser& parser, const std::string& id)
{
    std::ostringstream quiet;
    Io silent{quiet, quiet, false};
    int rc = 0;
    const auto loaded = loadCatalogForCli(parser, silent, "uninstall", &rc);
    return loaded && loaded->catalog.profile(id) && !loaded->catalog.runtime(id);
}

int uninstallProfile(const std::string& id, bool json, Io& io)
{
    auto reset = resetProfileState(paths::dataDir(), id);
    if (!reset)
        return fail(io, "uninstall", reset.error());
    const std::string venv = paths::toUtf8(venvDir(paths::dataDir(), id));
    if (json) {
        io.out << nlohmann::json{{"id", id},
                                 {"venv_removed", reset->venvRemoved},
                                 {"steps_receipt_removed", reset->receiptRemoved}}
                      .dump(2)
               << "\n";
        return 0;
    }
    io.out << id << ": " << (reset->venvRemoved ? "removed its venv " + venv : "no venv to remove")
           << "; its setup steps run again at the next launch. Its runtimes stay installed "
              "(other profiles may use them): uninstall RUNTIME removes one.\n";
    return 0;
}

class UninstallCommand : public Command
{
public:
    void addOptions(QCommandLineParser& parser) override
    {
        parser.addPositionalArgument(QStringLiteral("ID"),
                                     QStringLiteral("A runtime id, or a profile id."));
    }

    int run(const QCommandLineParser& parser, Io& io) override
    {
        const auto arg = oneArgument(parser, io, "runtime ID");
        if (!arg)
            return 2;
        const std::string& id = *arg;
        if (auto r = PrefixStore::checkId(id); !r)
            return fail(io, "uninstall", r.error());
        if (isProfile(parser, id))
            return uninstallProfile(id, parser.isSet(QStringLiteral("json")), io);
        PrefixStore store(prefixRootOf(parser));
        const std::uint64_t bytes = treeBytes(store.runtimeDir(id));
        if (auto r = removeRuntime(store, id, [&](const std::string& m) { io.err << m << "\n"; });
            !r)
            return fail(io, "uninstall", r.error());
        if (parser.isSet(QStringLiteral("json")))
            io.out << nlohmann::json{{"id", id}, {"removed", true}, {"bytes_freed", bytes}}.dump(2)
                   << "\n";
        else
            io.out << id << ": removed from " << paths::toUtf8(store.root()) << ", "
                   << format::bytes(bytes) << " freed\n";
        return 0;
    }
};

} // namespace

SP_REGISTER_COMMAND(UninstallCommand, "uninstall",
                    "Remove an installed runtime, or a profile's venv.",
                    {Json, CatalogDir, PrefixRoot})

} // namespace sp::cli
