// stackpilot-cli uninstall ID: remove a runtime's folder and receipt. The folder is
// renamed to a trash folder first, so a crash never leaves a half-deleted runtime
// that still looks installed.

#include "app/cli/commands/install_support.h"
#include "core/paths.h"
#include "installers/install_lock.h"
#include "installers/prefix_store.h"

#include <ostream>

namespace sp::cli {

namespace {

class UninstallCommand : public Command
{
public:
    QString name() const override { return QStringLiteral("uninstall"); }
    QString summary() const override { return QStringLiteral("Remove an installed runtime."); }

    void configure(QCommandLineParser& parser) override
    {
        addJsonOption(parser);
        addPrefixRootOption(parser);
        parser.addPositionalArgument(QStringLiteral("ID"), QStringLiteral("The runtime id."));
    }

    int run(const QCommandLineParser& parser, Io& io) override
    {
        const QStringList args = parser.positionalArguments();
        if (args.size() != 1) {
            io.err << "stackpilot-cli uninstall: expected one runtime ID\n";
            return 2;
        }
        const std::string id = toStd(args[0]);
        if (auto r = PrefixStore::checkId(id); !r)
            return fail(io, "uninstall", r.error());
        PrefixStore store(prefixRootOf(parser));
        std::error_code ec;
        if (!std::filesystem::is_directory(store.root(), ec))
            return fail(io, "uninstall",
                        Error::runtime("runtime '" + id + "' is not installed in " +
                                       paths::toUtf8(store.root())));
        // Refuse before taking a lock or cleaning anything.
        if (auto r = store.checkOwnership(id); !r)
            return fail(io, "uninstall", r.error());
        if (auto r = store.ensureRoot(); !r)
            return fail(io, "uninstall", r.error());
        auto lock = InstallLock::acquire(store.root(), id, std::chrono::seconds(30),
                                         [&](const std::string& m) { io.err << m << "\n"; });
        if (!lock)
            return fail(io, "uninstall", lock.error());
        store.recover(id);
        if (auto r = store.remove(id); !r)
            return fail(io, "uninstall", r.error());
        if (parser.isSet(QStringLiteral("json")))
            io.out << nlohmann::json{{"id", id}, {"removed", true}}.dump(2) << "\n";
        else
            io.out << id << ": removed from " << paths::toUtf8(store.root()) << "\n";
        return 0;
    }
};

} // namespace

SP_REGISTER_COMMAND(UninstallCommand)

} // namespace sp::cli
