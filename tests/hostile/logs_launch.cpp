// Issue 35, items 2, 8 and 15 (the log parts), each as the attack, with the real
// stackpilot-cli, the real containment helper and real processes:
//  - a workload prints private keys (whole, cut after BEGIN, and a body whose BEGIN was
//    cut off) and a 2-character API key: no line of them reaches the launch log or the
//    bundle (the log filter worked one line at a time, and a value under 4 characters
//    was not redacted by value);
//  - Ctrl-C with stdout and stderr into one pipe nobody reads: the launcher ends (it
//    stayed blocked writing its last stderr line);
//  - a workload that kills its containment helper is reported in a sentence;
//  - BEL and the 8-bit CSI (U+009B) do not reach the log raw;
//  - a 50 MB line into a file is written, not reported as "not being read".

#include "logs_support.h"

#include <QElapsedTimer>
#include <QTest>
#include <algorithm>
#include <sstream>

using namespace sp;
using namespace sp::test;

namespace {

// Key lines whose every piece the checks look for; base64 alphabet only.
const std::vector<std::string> kOrphanBody = {"T3JwaGFuQm9keUxpbmVPbmVCZWZvcmVBbkVORA",
                                              "OrphanBodyLineTwoQmVmb3JlQW5FTkRXaG9zZQ=="};
const std::vector<std::string> kFullBody = {"MIIEowIBAAKCAQEAu1SU1LfVFullKeyLineOne0",
                                            "FullKeyLineTwoQ29ZnRK3sUd9j3PvT0mXv8fLu",
                                            "FullKeyLineThreeJ7Xk2Pq1Zs4Tg6Hc8Vb0Nm3"};
const std::vector<std::string> kCutBody = {"b3BlbnNzaC1rZXktdjEAAAAABCutKeyLineOne",
                                           "CutKeyLineTwoAAAAtzc2gtZWQyNTUxOQAAACB"};

std::string keyScript()
{
    std::string s;
    const auto echo = [&](const std::string& line, bool err = false) {
        s += "echo '" + line + "'" + (err ? " >&2" : "") + "\n";
    };
    for (const auto& l : kOrphanBody) // the BEGIN was cut off before the log began
        echo(l);
    echo("-----END PRIVATE KEY-----");
    echo("before the key");
    echo("-----BEGIN RSA PRIVATE KEY-----");
    for (const auto& l : kFullBody)
        echo(l);
    echo("-----END RSA PRIVATE KEY-----");
    echo("between the keys");
    echo("-----BEGIN OPENSSH PRIVATE KEY-----");
    echo(kCutBody[0]);
    echo(kCutBody[1], true);               // the other stream, as a logger may write it
    s += "echo \"api key $MY_API_KEY\"\n"; // and no END: the key was cut
    return s;
}

// Which of the key's lines, or the short key as a word, `text` still holds.
std::string survivors(const std::string& text)
{
    std::string found;
    for (const auto* body : {&kOrphanBody, &kFullBody, &kCutBody})
        for (const auto& l : *body)
            if (text.find(l.substr(0, 16)) != std::string::npos)
                found += " " + l;
    for (const char* marker : {"-----END", "-----BEGIN", "api key k9"})
        if (text.find(marker) != std::string::npos)
            found += std::string(" ") + marker;
    return found;
}

} // namespace

class HostileLogsLaunch : public QObject
{
    Q_OBJECT

private slots:
    void item2_privateKeysAndAShortKeyLeaveNoLineInTheLogOrTheBundle()
    {
        StandinWorld w;
        w.write(50, {{"sh", "-c", keyScript()}});
        const std::map<QString, QString> env = {
            {QStringLiteral("MY_API_KEY"), QStringLiteral("k9")}};
        const CliResult launched = runCli(w, launchArgs(w, "standin-exit-early"), env);
        QVERIFY2(launched.out.contains("api key k9"), "the workload's lines reach the terminal");
        const auto logs = launchLogs(w, "standin-exit-early");
        QCOMPARE(logs.size(), std::size_t(1));
        const std::string log = readFile(logs.front());
        QVERIFY2(survivors(log).empty(), (survivors(log) + "\n" + log).c_str());
        for (const char* kept : {"before the key", "between the keys", "api key <redacted:"})
            QVERIFY2(log.find(kept) != std::string::npos, log.c_str());

        const fs::path zip = w.root / "bundle.zip";
        const CliResult exported =
            runCli(w,
                   {QStringLiteral("diag"), QStringLiteral("export"), QStringLiteral("-o"),
                    QString::fromStdString(zip.string()), QStringLiteral("--hardware"),
                    QString::fromStdString(w.snapshot.string())},
                   env);
        QVERIFY2(exported.rc == 0, exported.err.constData());
        const auto entries = unzipAll(readFile(zip));
        bool shippedTheLog = false;
        for (const auto& [name, bytes] : entries) {
            QVERIFY2(survivors(bytes).empty(), (name + ":" + survivors(bytes)).c_str());
            shippedTheLog = shippedTheLog || (name.rfind("launches/standin-exit-early/", 0) == 0 &&
                                              bytes.find("between the keys") != std::string::npos);
        }
        QVERIFY2(shippedTheLog, "the bundle holds the launch log");
    }

    void item8_ctrlCWithStdoutAndStderrIntoABlockedPipeEndsTheLauncher()
    {
        StandinWorld w;
        w.write(60000);
        int pipeFds[2];
        QVERIFY(::pipe(pipeFds) == 0); // nobody reads pipeFds[0]
        QStringList args = launchArgs(w, "standin-serve");
        args << QStringLiteral("--") << QStringLiteral("--chatty") << QStringLiteral("20000");
        SpawnedCli cli(w, args, pipeFds[1]);
        ::close(pipeFds[1]);
        QVERIFY(cli.pid > 0);
        // 20,000 lines fill the pipe long before the stand-in writes its PIDs.
        QVERIFY2(w.waitForPids(15000), "the launcher stopped reading the workload");
        const std::vector<long> pids = w.pids();
        QElapsedTimer t;
        t.start();
        ::kill(cli.pid, SIGINT);
        QVERIFY2(allGone(pids, 5000), "the workload tree outlived Ctrl-C");
        const bool ended = cli.endsWithin(5000);
        const qint64 ms = t.elapsed();
        ::close(pipeFds[0]);
        QVERIFY2(ended, "the launcher stayed blocked on its stderr after the tree stopped");
        qInfo("launcher ended %lld ms after Ctrl-C with both streams into a blocked pipe", ms);
    }

    void item15_aKilledContainmentHelperIsReportedInASentence()
    {
        StandinWorld w;
        w.write(50);
        addHostileWorkload(
            w, {"/bin/sh", "-c", "sleep 0.2; kill -9 $(cut -d' ' -f4 /proc/$PPID/stat); sleep 30"});
        const CliResult r = runCli(w, launchArgs(w, "hostile-run"));
        QVERIFY2(r.out.contains(
                     "==> The workload was stopped: its containment helper (stackpilot-run) was "
                     "killed"),
                 r.out.constData());
        QVERIFY2(!r.out.contains("The workload the"), r.out.constData());
    }

    void item15_bellAndTheEightBitCsiDoNotReachTheLogRaw()
    {
        StandinWorld w;
        w.write(50,
                {{"sh", "-c", "printf 'ring\\007bell, \\302\\2331;31mred\\302\\2330m, done\\n'"}});
        runCli(w, launchArgs(w, "standin-exit-early"));
        const auto logs = launchLogs(w, "standin-exit-early");
        QCOMPARE(logs.size(), std::size_t(1));
        const std::string log = readFile(logs.front());
        QVERIFY2(log.find("ring\\x07bell, red, done") != std::string::npos, log.c_str());
        QVERIFY(log.find('\a') == std::string::npos);
        QVERIFY(log.find("\xc2\x9b") == std::string::npos);
    }

    void item15_aFiftyMegabyteLineIntoAFileIsWrittenNotCalledUnread()
    {
        StandinWorld w;
        w.write(50, {{"sh", "-c", "head -c 50000000 /dev/zero | tr '\\000' a; echo"}});
        const fs::path outFile = w.root / "out.txt";
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("STACKPILOT_HOME"), QString::fromStdString(homeOf(w).string()));
        env.insert(QStringLiteral("STACKPILOT_RUN"),
                   QStringLiteral(STACKPILOT_BINARY_DIR "/bin/stackpilot-run"));
        p.setProcessEnvironment(env);
        p.setStandardOutputFile(QString::fromStdString(outFile.string()));
        p.start(cliPath(), launchArgs(w, "standin-exit-early"));
        QVERIFY(p.waitForFinished(240000));
        const std::string out = readFile(outFile);
        const std::size_t note = out.find("[stackpilot");
        QVERIFY2(note == std::string::npos,
                 note == std::string::npos ? "" : out.substr(note, 200).c_str());
        // The line comes as pieces of 1 MiB (the splitter's cut), each a line of 'a's.
        std::size_t as = 0;
        std::istringstream lines(out);
        for (std::string line; std::getline(lines, line);)
            if (!line.empty() && line.find_first_not_of('a') == std::string::npos)
                as += line.size();
        QCOMPARE(as, std::size_t{50000000});
    }
};

QTEST_GUILESS_MAIN(HostileLogsLaunch)
#include "logs_launch.moc"
