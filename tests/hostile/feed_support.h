#pragma once
// The hostile feed tests' tools: feeds published the way a maintainer publishes them
// (publishFeed + the real minisign, tests/feed/feed_fixture.h), optionally edited before
// they are signed (what a hostile or careless publisher can sign), and the real
// stackpilot-cli run with an environment of the test's choosing.

#include "feed/feed_fixture.h"
#include "support/cli_runner.h"

#include <QProcess>
#include <QProcessEnvironment>
#include <functional>

namespace sp::test {

struct HostileFeeds
{
    fs::path dir, served, catalog;

    // A fresh folder under STACKPILOT_HOME named `name`, with a copy of the shipped catalog.
    // False without STACKPILOT_HOME (ctest sets it): the tests never touch a real home.
    bool setUp(const std::string& name)
    {
        const std::string home = qEnvironmentVariable("STACKPILOT_HOME").toStdString();
        if (home.empty())
            return false;
        dir = fs::path(home) / name;
        fs::remove_all(dir);
        served = dir / "served";
        catalog = dir / "catalog";
        fs::create_directories(served);
        fs::create_directories(catalog);
        for (const auto& e : fs::directory_iterator(STACKPILOT_SOURCE_DIR "/profiles/catalog"))
            fs::copy_file(e.path(), catalog / e.path().filename());
        return true;
    }

    // Publishes the catalog as feed `name` version `version` into served/folder and signs
    // it with `key`, after `edit` changed the manifest's text.
    bool publish(const std::string& folder, const std::string& name, std::int64_t version,
                 const KeyPair& key, const std::function<void(std::string&)>& edit = {},
                 const std::string& expires = "2099-01-01T00:00:00Z")
    {
        feed::PublishOptions o;
        o.feed = name;
        o.version = version;
        o.expires = expires;
        fs::remove_all(served / folder);
        if (!feed::publishFeed(catalog, served / folder, o))
            return false;
        if (edit) {
            std::string text = readAll(served / folder / "manifest.json");
            edit(text);
            writeAll(served / folder / "manifest.json", text);
        }
        return key.sign(served / folder / "manifest.json");
    }
};

// Replaces the first `from` in `text` by `to`.
inline void replaceOnce(std::string& text, const std::string& from, const std::string& to)
{
    if (const auto at = text.find(from); at != std::string::npos)
        text.replace(at, from.size(), to);
}

inline QProcessEnvironment cliEnvironment()
{
    return QProcessEnvironment::systemEnvironment();
}

// The real stackpilot-cli, stdin closed (no terminal), killed after `timeoutMs`.
inline CliRun runCli(const QStringList& args, const QProcessEnvironment& env = cliEnvironment(),
                     int timeoutMs = 60000)
{
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(STACKPILOT_BINARY_DIR "/bin/stackpilot-cli"), args);
    p.closeWriteChannel();
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        return {-2, p.readAllStandardOutput().toStdString(), "timed out", false};
    }
    return {p.exitCode(), p.readAllStandardOutput().toStdString(),
            p.readAllStandardError().toStdString(), p.exitStatus() != QProcess::NormalExit};
}

inline QStringList args(std::initializer_list<std::string> list)
{
    QStringList out;
    for (const auto& s : list)
        out << QString::fromStdString(s);
    return out;
}

// Lines of `text` (the CLI's stderr): a refusal is one.
inline long lineCount(const std::string& text)
{
    return static_cast<long>(std::count(text.begin(), text.end(), '\n'));
}

} // namespace sp::test
