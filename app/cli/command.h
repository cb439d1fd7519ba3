#pragma once
// One Command per CLI verb. Each verb registers itself from its own file, so adding
// a verb touches one new file and nothing shared.

#include "core/expected.h"
#include "core/qt_text.h"

#include <QCommandLineParser>
#include <QStringList>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace sp::cli {

struct Io
{
    std::ostream& out;
    std::ostream& err;
    bool stdoutIsTerminal = false;
};

// The options several verbs take, each spelled once. A verb lists those it takes in the
// order its --help shows them; Own is where its own options (addOptions) go, last when
// it is not listed.
enum class Option
{
    Json,          // --json
    CatalogDir,    // --catalog-dir DIR (catalog_common.h reads it)
    PrefixRoot,    // --prefix-root DIR (install_support.h)
    InstallSource, // --offline DIR, --accept-changed (install_support.h)
    Machine,       // --hardware FILE, --no-probes, --sysfs-root DIR (machine_options.h)
    Gpu,           // --gpu INDEX|PCI-BUS|NAME: the GPU to plan for (machine_options.h)
    WorkloadArgs,  // [-- ARGS...] after the verb's own argument (workloadArgs, below)
    Own,
};

// What `stackpilot-cli --help` and a verb's own --help say before its own options.
struct Verb
{
    const char* name;
    const char* summary; // one line, for `stackpilot-cli --help`
    std::vector<Option> options;
};

// One verb. A verb's class holds what it does; what it is called and which shared options
// it takes is its Verb, given where it registers (SP_REGISTER_COMMAND, below).
class Command
{
public:
    virtual ~Command() = default;
    QString name() const;
    QString summary() const;
    // Declares the verb's options and positional arguments: the shared ones its Verb
    // names, and its own.
    void configure(QCommandLineParser& parser);
    // Runs after a successful parse. Returns the process exit code (docs/ARCHITECTURE.md,
    // "Contracts": 0 ok, 1 runtime failure, 2 usage, 3 invalid input), with a one-line reason on
    // err.
    virtual int run(const QCommandLineParser& parser, Io& io) = 0;

    // A Class with its Verb: what SP_REGISTER_COMMAND registers.
    template <class Class> static std::unique_ptr<Command> make(Verb verb)
    {
        std::unique_ptr<Command> command = std::make_unique<Class>();
        command->m_verb = std::move(verb);
        return command;
    }

protected:
    // The verb's own options and positional arguments.
    virtual void addOptions(QCommandLineParser& /*parser*/) {}
    // "stackpilot-cli VERB: MESSAGE" on err; returns 2, the usage exit code.
    int usageError(Io& io, const std::string& message) const;
    // The one positional argument; with none or more, nullopt after
    // "stackpilot-cli VERB: expected one WHAT" (exit 2).
    std::optional<std::string> oneArgument(const QCommandLineParser& parser, Io& io,
                                           const std::string& what) const;

private:
    Verb m_verb;
};

// --workload W and --profile P, in the words of the verb that takes them.
QCommandLineOption workloadOption(const QString& description);
QCommandLineOption profileOption(const QString& description);
// The arguments after the verb's own first one (Option::WorkloadArgs), for the workload.
std::vector<std::string> workloadArgs(const QCommandLineParser& parser);

using CommandFactory = std::unique_ptr<Command> (*)();
bool registerCommand(CommandFactory factory);
std::vector<std::unique_ptr<Command>> allCommands();

// The whole CLI, minus process setup: tests call this with string streams.
int runCli(const QStringList& args, Io& io);

using sp::qpath;
using sp::toPath;
using sp::toStd; // core/qt_text.h

// The process exit status for an error (docs/ARCHITECTURE.md, "Contracts": 1 runtime,
// 2 usage, 3 invalid input; a cancel is 1). The core only says what kind of error it was.
int exitCodeFor(const sp::Error& e);

} // namespace sp::cli

// Registers Class (default-constructible) as the verb that the rest of the arguments
// describe: a Verb, its options named bare:
// SP_REGISTER_COMMAND(GcCommand, "gc", "Remove ...", {Json, CatalogDir, PrefixRoot})
#define SP_REGISTER_COMMAND(Class, ...)                                                            \
    namespace {                                                                                    \
    const bool registered_##Class = ::sp::cli::registerCommand([] {                                \
        using enum ::sp::cli::Option;                                                              \
        return ::sp::cli::Command::make<Class>({__VA_ARGS__});                                     \
    });                                                                                            \
    }
