#include "app/cli/command.h"
#include "core/app_log.h"
#include "core/settings.h"
#include "stackpilot_version.h"

#include <algorithm>
#include <ostream>

namespace sp::cli {

namespace {

std::vector<CommandFactory>& factories()
{
    static std::vector<CommandFactory> list;
    return list;
}

void printUsage(std::ostream& out)
{
    out << "Usage: stackpilot-cli <command> [options]\n"
           "       stackpilot-cli --version | --help\n\n"
           "StackPilot detects your GPU, picks a software stack known to work on it,\n"
           "installs it into isolated folders and explains every choice.\n\n"
           "Commands:\n";
    auto cmds = allCommands();
    std::sort(cmds.begin(), cmds.end(),
              [](const auto& a, const auto& b) { return a->name() < b->name(); });
    for (const auto& c : cmds) {
        std::string n = toStd(c->name());
        n.resize(std::max<std::size_t>(n.size(), 14), ' ');
        out << "  " << n << "  " << toStd(c->summary()) << "\n";
    }
    out << "\nRun `stackpilot-cli <command> --help` for a command's options.\n"
           "Environment: STACKPILOT_HOME=DIR keeps all config, data, cache and logs under DIR.\n";
}

// The options several verbs share, spelled here once (command.h, Option); the helpers
// named there read them.
void addSharedOption(QCommandLineParser& p, Option o)
{
    switch (o) {
    case Option::Json:
        p.addOption({QStringLiteral("json"), QStringLiteral("Print machine-readable JSON.")});
        return;
    case Option::CatalogDir:
        p.addOption({QStringLiteral("catalog-dir"),
                     QStringLiteral("Read extra catalog files from DIR (repeatable)."),
                     QStringLiteral("DIR")});
        return;
    case Option::PrefixRoot:
        p.addOption({QStringLiteral("prefix-root"),
                     QStringLiteral("Keep installed runtimes under DIR (default <data>/runtimes)."),
                     QStringLiteral("DIR")});
        return;
    case Option::InstallSource:
        p.addOption({QStringLiteral("offline"),
                     QStringLiteral("Take artifacts from DIR; never use the network."),
                     QStringLiteral("DIR")});
        p.addOption({QStringLiteral("accept-changed"),
                     QStringLiteral("Accept a download the catalog does not pin whose bytes "
                                    "changed since it was first installed here, and pin the new "
                                    "ones.")});
        return;
    case Option::Machine:
        p.addOption({QStringLiteral("hardware"),
                     QStringLiteral("Plan for the snapshot in FILE (from detect --json)."),
                     QStringLiteral("FILE")});
        p.addOption({QStringLiteral("no-probes"),
                     QStringLiteral("Detect without the vendor probes (faster, less exact).")});
        p.addOption({QStringLiteral("sysfs-root"),
                     QStringLiteral("Detect from DIR instead of /sys."), QStringLiteral("DIR")});
        return;
    case Option::Gpu:
        p.addOption({QStringLiteral("gpu"),
                     QStringLiteral("Plan for this GPU: its index in the snapshot, its PCI bus "
                                    "address (0000:03:00.0) or its name."),
                     QStringLiteral("GPU")});
        return;
    case Option::WorkloadArgs:
        p.addPositionalArgument(QStringLiteral("args"),
                                QStringLiteral("Extra workload arguments, after --."),
                                QStringLiteral("[-- ARGS...]"));
        return;
    case Option::Own:
        return;
    }
}

// One line per verb run in StackPilot's own log: the verb and its exit code, never its
// arguments (they may hold paths or tokens).
int logRun(const Command& cmd, int rc)
{
    sp::applog::write("cli", toStd(cmd.name()) + " exit " + std::to_string(rc));
    return rc;
}

} // namespace

bool registerCommand(CommandFactory factory)
{
    factories().push_back(factory);
    return true;
}

std::vector<std::unique_ptr<Command>> allCommands()
{
    std::vector<std::unique_ptr<Command>> out;
    for (auto f : factories())
        out.push_back(f());
    return out;
}

int exitCodeFor(const sp::Error& e)
{
    return e.code == sp::ErrorCode::Cancelled ? 1 : static_cast<int>(e.code);
}

QString Command::name() const
{
    return QString::fromUtf8(m_verb.name);
}

QString Command::summary() const
{
    return QString::fromUtf8(m_verb.summary);
}

void Command::configure(QCommandLineParser& parser)
{
    for (const Option o : m_verb.options) {
        if (o == Option::Own)
            addOptions(parser);
        else
            addSharedOption(parser, o);
    }
    if (std::find(m_verb.options.begin(), m_verb.options.end(), Option::Own) ==
        m_verb.options.end())
        addOptions(parser);
}

QCommandLineOption workloadOption(const QString& description)
{
    return {QStringLiteral("workload"), description, QStringLiteral("W")};
}

QCommandLineOption profileOption(const QString& description)
{
    return {QStringLiteral("profile"), description, QStringLiteral("P")};
}

std::vector<std::string> workloadArgs(const QCommandLineParser& parser)
{
    std::vector<std::string> args;
    const QStringList pos = parser.positionalArguments();
    for (qsizetype i = 1; i < pos.size(); ++i)
        args.push_back(toStd(pos[i]));
    return args;
}

int Command::usageError(Io& io, const std::string& message) const
{
    io.err << "stackpilot-cli " << m_verb.name << ": " << message << "\n";
    return 2;
}

std::optional<std::string> Command::oneArgument(const QCommandLineParser& parser, Io& io,
                                                const std::string& what) const
{
    const QStringList args = parser.positionalArguments();
    if (args.size() == 1)
        return toStd(args.front());
    usageError(io, "expected one " + what);
    return std::nullopt;
}

int runCli(const QStringList& args, Io& io)
{
    // args[0] is the program name, as in argv.
    if (args.size() < 2 || args[1] == QStringLiteral("--help") || args[1] == QStringLiteral("-h") ||
        args[1] == QStringLiteral("help")) {
        if (args.size() >= 3 && args[1] == QStringLiteral("help"))
            return runCli({args[0], args[2], QStringLiteral("--help")}, io);
        printUsage(args.size() < 2 ? io.err : io.out);
        return args.size() < 2 ? 2 : 0;
    }
    if (args[1] == QStringLiteral("--version") || args[1] == QStringLiteral("-V")) {
        io.out << "stackpilot-cli " << STACKPILOT_VERSION << "\n";
        return 0;
    }

    for (auto& cmd : allCommands()) {
        if (cmd->name() != args[1])
            continue;
        QCommandLineParser parser;
        parser.setApplicationDescription(cmd->summary());
        parser.setOptionsAfterPositionalArgumentsMode(QCommandLineParser::ParseAsOptions);
        const QCommandLineOption help({QStringLiteral("h"), QStringLiteral("help")},
                                      QStringLiteral("Show this help."));
        parser.addOption(help);
        cmd->configure(parser);
        QStringList rest = args.mid(1);
        rest[0] = QStringLiteral("stackpilot-cli ") + cmd->name();
        if (!parser.parse(rest)) {
            io.err << "stackpilot-cli " << toStd(cmd->name()) << ": " << toStd(parser.errorText())
                   << "\n";
            logRun(*cmd, 2);
            return 2;
        }
        if (parser.isSet(help)) {
            // Qt names the executable's path in the usage line; users type the verb.
            std::string text = toStd(parser.helpText());
            if (text.rfind("Usage: ", 0) == 0) {
                const auto end = text.find(" [options]");
                if (end != std::string::npos)
                    text = "Usage: stackpilot-cli " + toStd(cmd->name()) + text.substr(end);
            }
            io.out << text;
            return 0;
        }
        // The user's install and cache folders apply to every verb; a settings file
        // that does not load is reported by the verbs that read it.
        const auto settings = Settings::load();
        (settings ? *settings : Settings{}).applyFolders();
        return logRun(*cmd, cmd->run(parser, io));
    }
    io.err << "stackpilot-cli: unknown command '" << toStd(args[1])
           << "' (run stackpilot-cli --help)\n";
    return 2;
}

} // namespace sp::cli
