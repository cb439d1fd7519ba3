// `stackpilot-cli doctor` in process, on a snapshot file: findings printed with their
// fixes and a count, JSON on --json, exit 0 with findings and 1 when it cannot run.

#include "support/cli_runner.h"

#include <QTest>
#include <nlohmann/json.hpp>

namespace {

const QString kSnapshot =
    QStringLiteral(STACKPILOT_SOURCE_DIR "/tests/doctor/fixtures/linux-nfs-home.json");

} // namespace

class TestDoctorCli : public QObject
{
    Q_OBJECT

private slots:
    void reportsFindingsWithFixes()
    {
        const auto r = sp::test::runCliInProcess(
            {QStringLiteral("doctor"), QStringLiteral("--hardware"), kSnapshot});
        QVERIFY2(r.rc == 0, r.err.c_str());
        QVERIFY2(r.out.find("info: the home folder /home/u is on a network filesystem (nfs4)") !=
                     std::string::npos,
                 r.out.c_str());
        QVERIFY(r.out.find("\n  fix: ") != std::string::npos);
        // The last line counts them.
        const auto last = r.out.substr(r.out.rfind('\n', r.out.size() - 2) + 1);
        QVERIFY2(last.find(" finding") != std::string::npos, last.c_str());
    }
    void json()
    {
        const auto r =
            sp::test::runCliInProcess({QStringLiteral("doctor"), QStringLiteral("--hardware"),
                                       kSnapshot, QStringLiteral("--json")});
        QCOMPARE(r.rc, 0);
        const auto j = nlohmann::json::parse(r.out);
        bool network = false;
        for (const auto& f : j.at("findings")) {
            QVERIFY(f.contains("severity") && f.contains("text") && f.contains("fix"));
            network = network || f.at("id") == "network-home";
        }
        QVERIFY(network);
    }
    void cannotRun()
    {
        auto r = sp::test::runCliInProcess(
            {QStringLiteral("doctor"), QStringLiteral("--hardware"),
             QStringLiteral(STACKPILOT_SOURCE_DIR "/tests/doctor/fixtures/missing.json")});
        QCOMPARE(r.rc, 1);
        QVERIFY(!r.err.empty());
        r = sp::test::runCliInProcess({QStringLiteral("doctor"), QStringLiteral("--hardware"),
                                       kSnapshot, QStringLiteral("--workload"),
                                       QStringLiteral("no-such-workload")});
        QCOMPARE(r.rc, 1);
        QVERIFY(r.err.find("stackpilot-cli doctor:") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestDoctorCli)
#include "test_doctor_cli.moc"
