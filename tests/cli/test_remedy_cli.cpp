// `stackpilot-cli remedy apply|undo`: the change lands in settings.json, `plan --json`
// shows it, and undo puts settings.json back byte for byte.

#include "core/settings.h"
#include "support/cli_runner.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <sys/stat.h>

namespace {

using nlohmann::json;

const char* kSnapshot = R"({"schema": 1, "os": {"family": "windows", "version": "10.0.19045"},
 "home": {"path": "C:\\Users\\u", "filesystem": "ntfs"},
 "gpus": [{"vendor": "amd", "name": "AMD Radeon RX 6750 XT", "pci_id": "1002:73df",
           "gfx": "gfx1031", "vram_mb": 12288, "integrated": false}],
 "runtimes": [], "probes": []})";

std::string readFile(const std::filesystem::path& p)
{
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

} // namespace

class TestRemedyCli : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_home;
    QString m_snapshot;

    sp::test::CliRun run(QStringList args)
    {
        args << QStringLiteral("--hardware") << m_snapshot;
        return sp::test::runCliInProcess(args);
    }

    json plan()
    {
        auto r = run({QStringLiteral("plan"), QStringLiteral("--workload"),
                      QStringLiteral("sdnext"), QStringLiteral("--json")});
        if (r.rc != 0)
            qFatal("plan failed: %s", r.err.c_str());
        return json::parse(r.out);
    }

    sp::test::CliRun remedy(const char* verb, const char* issue, bool jsonOut = false)
    {
        QStringList args{QStringLiteral("remedy"), QString::fromUtf8(verb),
                         QString::fromUtf8(issue), QStringLiteral("--workload"),
                         QStringLiteral("sdnext")};
        if (jsonOut)
            args << QStringLiteral("--json");
        return run(args);
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_home.isValid());
        qputenv("STACKPILOT_HOME", m_home.path().toUtf8());
        m_snapshot = m_home.filePath(QStringLiteral("snapshot.json"));
        std::ofstream(m_snapshot.toStdString(), std::ios::binary) << kSnapshot;
    }

    void applyThenUndoRoundTrips()
    {
        sp::Settings initial;
        initial.keepLaunches = 7;
        QVERIFY(initial.save(sp::Settings::defaultFile()).ok());
        const std::string before = readFile(sp::Settings::defaultFile());
        const json planBefore = plan();
        QVERIFY(planBefore["repair"].empty());

        auto r = remedy("apply", "zluda-files-quarantined", true);
        QVERIFY2(r.rc == 0, r.err.c_str());
        const json change = json::parse(r.out);
        QCOMPARE(change["action"].get<std::string>(), std::string("repair_runtime"));
        QCOMPARE(change["plan_after"]["repair"].size(), std::size_t(1));
        const json planRepair = plan();
        QVERIFY(planRepair["repair"] == change["plan_after"]["repair"]);

        r = remedy("apply", "rocm-zluda-rocblas-access-violation");
        QVERIFY2(r.rc == 0, r.err.c_str());
        QVERIFY2(r.out.find("profile: ") != std::string::npos, r.out.c_str());
        const json planSwitched = plan();
        QVERIFY(planSwitched["profile"]["id"] != planBefore["profile"]["id"]);
        const auto settings = sp::Settings::load();
        QVERIFY(settings.ok());
        QCOMPARE(settings->workloads.at("sdnext").remedies.size(), std::size_t(2));
        QCOMPARE(settings->keepLaunches, 7);

        r = remedy("apply", "rocm-zluda-rocblas-access-violation");
        QCOMPARE(r.rc, 0);
        QVERIFY2(r.out.find("already applied") != std::string::npos, r.out.c_str());

        r = remedy("undo", "rocm-zluda-rocblas-access-violation");
        QVERIFY2(r.rc == 0, r.err.c_str());
        r = remedy("undo", "zluda-files-quarantined", true);
        QVERIFY2(r.rc == 0, r.err.c_str());
        QVERIFY(json::parse(r.out)["plan_after"]["repair"].empty());
        QCOMPARE(readFile(sp::Settings::defaultFile()), before);
        QCOMPARE(plan().dump(), planBefore.dump());
    }

    // Keys this version does not know, at three depths, and the file's mode survive an
    // apply and an undo; only the remedy's own values change.
    void unknownKeysAndModeSurvive()
    {
        const auto file = sp::Settings::defaultFile();
        const std::string original = R"({
  "my_notes": {"why": "keep me", "list": [1, 2, {"deep": true}]},
  "keep_launches": 9,
  "workloads": {
    "sdnext": {
      "x_extra": "per-workload",
      "env": {"MY_VAR": "1"},
      "remedies": [{"issue": "old-issue", "action": "set_env",
                    "applied_at": "2026-01-02T03:04:05Z",
                    "before": {"env": {"MY_VAR": null}, "x_before": 7},
                    "x_note": "third depth"}]
    },
    "x_future_workload": {"x_only": 1}
  },
  "x_last": null
})";
        std::ofstream(file, std::ios::binary) << original;
        QCOMPARE(::chmod(file.c_str(), 0600), 0);

        auto r = remedy("apply", "zluda-files-quarantined");
        QVERIFY2(r.rc == 0, r.err.c_str());
        json after = json::parse(readFile(file));
        QVERIFY(after["my_notes"] == json::parse(original)["my_notes"]);
        QCOMPARE(after["workloads"]["sdnext"]["x_extra"].get<std::string>(),
                 std::string("per-workload"));
        QCOMPARE(after["workloads"]["sdnext"]["remedies"].size(), std::size_t(2));
        QCOMPARE(after["workloads"]["sdnext"]["remedies"][0]["x_note"].get<std::string>(),
                 std::string("third depth"));
        QCOMPARE(after["workloads"]["sdnext"]["remedies"][0]["before"]["x_before"].get<int>(), 7);
        QCOMPARE(after["workloads"]["x_future_workload"]["x_only"].get<int>(), 1);
        QVERIFY(after.contains("x_last"));
        QVERIFY(!after["workloads"]["sdnext"]["repair"].empty());
        struct stat st
        {};
        QCOMPARE(::stat(file.c_str(), &st), 0);
        QCOMPARE(int(st.st_mode & 07777), 0600);

        r = remedy("undo", "zluda-files-quarantined");
        QVERIFY2(r.rc == 0, r.err.c_str());
        after = json::parse(readFile(file));
        const json want = json::parse(original);
        QVERIFY(after["my_notes"] == want["my_notes"]);
        QVERIFY(after["workloads"]["sdnext"]["x_extra"] == want["workloads"]["sdnext"]["x_extra"]);
        QVERIFY(after["workloads"]["sdnext"]["remedies"] ==
                want["workloads"]["sdnext"]["remedies"]);
        QVERIFY(after["workloads"]["x_future_workload"] == want["workloads"]["x_future_workload"]);
        QVERIFY(after["workloads"]["sdnext"]["repair"].empty());
        QCOMPARE(::stat(file.c_str(), &st), 0);
        QCOMPARE(int(st.st_mode & 07777), 0600);
        // The user's key order is kept: my_notes is still the first key.
        QVERIFY(readFile(file).find("\"my_notes\"") < readFile(file).find("\"keep_launches\""));
        std::filesystem::remove(file);
    }

    // A settings.json its owner made read-only is an error, never replaced; a symlink
    // planted at the old fixed temporary name is not followed.
    void readOnlyFileIsRefused()
    {
        const auto file = sp::Settings::defaultFile();
        std::ofstream(file, std::ios::binary) << "{\"keep_launches\": 5}";
        QCOMPARE(::chmod(file.c_str(), 0444), 0);
        auto r = remedy("apply", "zluda-files-quarantined");
        QCOMPARE(r.rc, 1);
        QVERIFY2(r.err.find("read-only") != std::string::npos, r.err.c_str());
        QCOMPARE(readFile(file), std::string("{\"keep_launches\": 5}"));
        QCOMPARE(::chmod(file.c_str(), 0644), 0);

        const auto victim = file.parent_path() / "victim.txt";
        std::ofstream(victim, std::ios::binary) << "user data";
        auto tmp = file;
        tmp += ".tmp";
        std::filesystem::create_symlink(victim, tmp);
        r = remedy("apply", "zluda-files-quarantined");
        QVERIFY2(r.rc == 0, r.err.c_str());
        QCOMPARE(readFile(victim), std::string("user data"));
        QVERIFY(std::filesystem::is_symlink(tmp));
        std::filesystem::remove(tmp);
        std::filesystem::remove(victim);
        std::filesystem::remove(file);
    }

    // Two `remedy apply` processes of different issues at once, 20 times: both remedies
    // are in settings.json every time (the settings lock serialises read-modify-write).
    void concurrentAppliesKeepBoth()
    {
        const auto file = sp::Settings::defaultFile();
        const QString cli = QStringLiteral(STACKPILOT_BINARY_DIR "/bin/stackpilot-cli");
        for (int round = 0; round < 20; ++round) {
            std::filesystem::remove(file);
            QProcess a, b;
            const QStringList common{QStringLiteral("--workload"), QStringLiteral("sdnext"),
                                     QStringLiteral("--hardware"), m_snapshot};
            a.start(cli, QStringList{QStringLiteral("remedy"), QStringLiteral("apply"),
                                     QStringLiteral("zluda-files-quarantined")} +
                             common);
            b.start(cli, QStringList{QStringLiteral("remedy"), QStringLiteral("apply"),
                                     QStringLiteral("rocm-zluda-rocblas-access-violation")} +
                             common);
            QVERIFY(a.waitForFinished(60000) && b.waitForFinished(60000));
            QVERIFY2(a.exitCode() == 0, a.readAllStandardError().constData());
            QVERIFY2(b.exitCode() == 0, b.readAllStandardError().constData());
            const auto s = sp::Settings::load();
            QVERIFY(s.ok());
            QVERIFY2(s->workloads.at("sdnext").remedies.size() == 2,
                     qPrintable(QStringLiteral("round %1: %2")
                                    .arg(round)
                                    .arg(QString::fromStdString(readFile(file)))));
        }
        std::filesystem::remove(file);
    }

    void errorsExitWithTheirCodes()
    {
        auto r = remedy("undo", "zluda-files-quarantined");
        QCOMPARE(r.rc, 1);
        QVERIFY2(r.err.find("is not applied") != std::string::npos, r.err.c_str());
        r = remedy("apply", "gpu-out-of-memory");
        QCOMPARE(r.rc, 2);
        QVERIFY2(r.err.find("advice only") != std::string::npos, r.err.c_str());
        r = remedy("apply", "no-such-issue");
        QCOMPARE(r.rc, 2);
        r = run({QStringLiteral("remedy"), QStringLiteral("redo"), QStringLiteral("x")});
        QCOMPARE(r.rc, 2);
        // A broken settings.json is invalid input, named with its position.
        std::ofstream(sp::Settings::defaultFile(), std::ios::binary) << "{\"keep_launches\": 0}";
        r = remedy("apply", "zluda-files-quarantined");
        QCOMPARE(r.rc, 3);
        QVERIFY2(r.err.find("settings.json:1:2: \"keep_launches\"") != std::string::npos,
                 r.err.c_str());
        std::filesystem::remove(sp::Settings::defaultFile());
    }
};

QTEST_GUILESS_MAIN(TestRemedyCli)
#include "test_remedy_cli.moc"
