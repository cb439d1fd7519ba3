// `stackpilot-cli remedy apply|undo`: the change lands in settings.json, `plan --json`
// shows it, and undo puts settings.json back byte for byte.

#include "core/settings.h"
#include "support/cli_runner.h"

#include <QTemporaryDir>
#include <QTest>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

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
