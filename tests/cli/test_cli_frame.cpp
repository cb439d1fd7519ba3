#include "app/cli/command.h"
#include "stackpilot_version.h"
#include "support/cli_runner.h"

#include <QProcess>
#include <QTest>
#include <sstream>

using namespace sp::cli;

namespace {

sp::test::CliRun runInProcess(const QStringList& args)
{
    return sp::test::runCliInProcess(args);
}

} // namespace

class TestCliFrame : public QObject
{
    Q_OBJECT
private slots:
    void version()
    {
        auto r = runInProcess({QStringLiteral("--version")});
        QCOMPARE(r.rc, 0);
        QCOMPARE(r.out, std::string("stackpilot-cli " STACKPILOT_VERSION "\n"));
    }

    void helpListsEveryRegisteredVerb()
    {
        auto r = runInProcess({QStringLiteral("--help")});
        QCOMPARE(r.rc, 0);
        const auto cmds = allCommands();
        QVERIFY(!cmds.empty());
        for (const auto& c : cmds)
            QVERIFY2(r.out.find("  " + toStd(c->name()) + " ") != std::string::npos,
                     toStd(c->name()).c_str());
    }

    void everyVerbHasHelp()
    {
        for (const auto& c : allCommands()) {
            auto r = runInProcess({c->name(), QStringLiteral("--help")});
            QCOMPARE(r.rc, 0);
            QVERIFY2(r.out.find("--json") != std::string::npos,
                     ("verb without --json: " + toStd(c->name())).c_str());
        }
    }

    void usageErrorsExitTwo()
    {
        auto none = runInProcess({});
        QCOMPARE(none.rc, 2);
        QVERIFY(none.err.find("Usage:") != std::string::npos);

        auto unknown = runInProcess({QStringLiteral("frobnicate")});
        QCOMPARE(unknown.rc, 2);
        QCOMPARE(unknown.err,
                 std::string(
                     "stackpilot-cli: unknown command 'frobnicate' (run stackpilot-cli --help)\n"));

        for (const auto& c : allCommands()) {
            auto r = runInProcess({c->name(), QStringLiteral("--no-such-option")});
            QCOMPARE(r.rc, 2);
            QVERIFY(r.err.find("--no-such-option") != std::string::npos ||
                    r.err.find("no-such-option") != std::string::npos);
        }
    }

    void realBinaryStarts()
    {
        QProcess p;
        p.start(QStringLiteral(STACKPILOT_BINARY_DIR "/bin/stackpilot-cli"),
                {QStringLiteral("--version")});
        QVERIFY(p.waitForFinished(10000));
        QCOMPARE(p.exitCode(), 0);
        QCOMPARE(p.readAllStandardOutput(), QByteArray("stackpilot-cli " STACKPILOT_VERSION "\n"));
    }
};

QTEST_GUILESS_MAIN(TestCliFrame)
#include "test_cli_frame.moc"
