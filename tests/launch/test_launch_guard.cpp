// The launcher's guards, with the real stackpilot-cli, the real helper and the
// stand-in workload: one launch per profile at a time (the second is refused before
// any setup step and told who holds the profile).

#include "launch_fixture.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QTest>

using namespace sp;
using namespace sp::test;

namespace {

QString cliPath()
{
    return QStringLiteral(STACKPILOT_BINARY_DIR "/bin/stackpilot-cli");
}

std::vector<std::string> cliArgs(const StandinWorld& w, const std::string& profile, bool json)
{
    std::vector<std::string> a = {"launch",        profile,
                                  "--hardware",    w.snapshot.string(),
                                  "--catalog-dir", w.catalogDir.string()};
    if (json)
        a.push_back("--json");
    return a;
}

QStringList toQt(const std::vector<std::string>& v)
{
    QStringList out;
    for (const auto& s : v)
        out << QString::fromStdString(s);
    return out;
}

void useHome(const StandinWorld& w)
{
    qputenv("STACKPILOT_HOME", QByteArray::fromStdString((w.root / "home").string()));
}

int lineCount(const fs::path& p)
{
    std::ifstream in(p);
    int n = 0;
    for (std::string line; std::getline(in, line);)
        ++n;
    return n;
}

bool waitFor(const std::function<bool()>& done, int ms)
{
    QElapsedTimer t;
    t.start();
    while (!done()) {
        if (t.elapsed() > ms)
            return false;
        QThread::msleep(20);
    }
    return true;
}

} // namespace

class TestLaunchGuard : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { qputenv("STACKPILOT_RUN", STACKPILOT_BINARY_DIR "/bin/stackpilot-run"); }

    void aSecondLaunchOfAProfileIsRefusedBeforeItsSteps()
    {
        StandinWorld w;
        useHome(w);
        const std::string steps = w.stepsFile().string();
        w.write(50, {{"sh", "-c", "echo ran >> '" + steps + "'; sleep 3"}});
        QProcess first;
        first.start(cliPath(), toQt(cliArgs(w, "standin-exit-early", true)));
        QVERIFY(first.waitForStarted());
        QVERIFY2(waitFor([&] { return lineCount(steps) == 1; }, 10000), "the step never ran");
        QProcess second;
        QElapsedTimer t;
        t.start();
        second.start(cliPath(), toQt(cliArgs(w, "standin-exit-early", true)));
        QVERIFY(second.waitForFinished(10000));
        const qint64 refusedMs = t.elapsed();
        const QByteArray err = second.readAllStandardError();
        const QByteArray out = second.readAllStandardOutput();
        QCOMPARE(second.exitCode(), 1);
        const QByteArray expected = "profile standin-exit-early is already running (process " +
                                    QByteArray::number(first.processId()) + ")";
        QVERIFY2(err.contains(expected), err.constData());
        QVERIFY2(!out.contains("\"event\":\"step\""), out.constData());
        QVERIFY(first.waitForFinished(30000));
        QCOMPARE(lineCount(steps), 1); // the steps ran once
        qInfo("second launch refused in %lld ms while the first ran its step", refusedMs);
    }
};

QTEST_GUILESS_MAIN(TestLaunchGuard)
#include "test_launch_guard.moc"
