#pragma once
// One Command per CLI verb. Each verb registers itself from its own file, so adding
// a verb touches one new file and nothing shared.

#include "core/expected.h"
#include "core/qt_text.h"

#include <QCommandLineParser>
#include <QStringList>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

namespace sp::cli {

struct Io
{
    std::ostream& out;
    std::ostream& err;
    bool stdoutIsTerminal = false;
};

class Command
{
public:
    virtual ~Command() = default;
    virtual QString name() const = 0;
    virtual QString summary() const = 0; // one line, for `stackpilot-cli --help`
    // Declares the verb's options and positional arguments.
    virtual void configure(QCommandLineParser& parser) = 0;
    // Runs after a successful parse. Returns the process exit code (docs/ARCHITECTURE.md,
    // "Contracts": 0 ok, 1 runtime failure, 2 usage, 3 invalid input), with a one-line reason on
    // err.
    virtual int run(const QCommandLineParser& parser, Io& io) = 0;
};

using CommandFactory = std::unique_ptr<Command> (*)();
bool registerCommand(CommandFactory factory);
std::vector<std::unique_ptr<Command>> allCommands();

// The whole CLI, minus process setup: tests call this with string streams.
int runCli(const QStringList& args, Io& io);

// Shared option helpers, so every verb spells them the same way.
void addJsonOption(QCommandLineParser& p);
void addCatalogDirOption(QCommandLineParser& p);
using sp::qpath;
using sp::toPath;
using sp::toStd; // core/qt_text.h

// The process exit status for an error (docs/ARCHITECTURE.md, "Contracts": 1 runtime,
// 2 usage, 3 invalid input; a cancel is 1). The core only says what kind of error it was.
int exitCodeFor(const sp::Error& e);

} // namespace sp::cli

#define SP_REGISTER_COMMAND(Class)                                                                 \
    namespace {                                                                                    \
    const bool registered_##Class = ::sp::cli::registerCommand(                                    \
        []() -> std::unique_ptr<::sp::cli::Command> { return std::make_unique<Class>(); });        \
    }
