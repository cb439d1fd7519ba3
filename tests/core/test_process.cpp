// The process runner and exit-status decoding in core, with real child processes:
// exit codes, signals decoded to words, deadlines, programs that do not start, and the
// device-masking variables kept from children.

#include "core/process/exit_status.h"
#include "core/process/process_runner.h"

#include <QTest>

class TestProcess : public QObject
{
    Q_OBJECT

    static sp::ProcessOutcome sh(const char* script, int timeoutMs = 10000,
                                 QProcessEnvironment env = QProcessEnvironment::systemEnvironment())
    {
        return sp::runProcess(QStringLiteral("/bin/sh"),
                              {QStringLiteral("-c"), QString::fromLatin1(script)}, timeoutMs, env);
    }

private slots:
    void decoding()
    {
        QCOMPARE(sp::describeSignal(11), std::string("SIGSEGV (11)"));
        QCOMPARE(sp::describeSignal(9), std::string("SIGKILL (9)"));
        QCOMPARE(sp::describeSignal(64), std::string("signal (64)"));
        QVERIFY(sp::isNtStatusError(0xC0000005u));
        QVERIFY(!sp::isNtStatusError(3));
        QCOMPARE(sp::describeNtStatus(0xC0000005u), std::string("0xC0000005 access violation"));
        QCOMPARE(sp::describeNtStatus(0xC0000409u),
                 std::string("0xC0000409 stack buffer overrun (fail fast)"));
        QCOMPARE(sp::describeNtStatus(0xC0000135u), std::string("0xC0000135 a DLL was not found"));
        QCOMPARE(sp::describeNtStatus(0xC0001234u), std::string("0xC0001234"));
    }

    void outcomes()
    {
        auto o = sh("echo out; echo err >&2; exit 3");
        QCOMPARE(int(o.kind), int(sp::ProcessOutcome::Finished));
        QCOMPARE(o.exitCode, 3);
        QCOMPARE(o.stdoutText, std::string("out\n"));
        QCOMPARE(o.stderrText, std::string("err\n"));
        o = sh("kill -SEGV $$");
        QCOMPARE(int(o.kind), int(sp::ProcessOutcome::Crashed));
        QCOMPARE(o.why, std::string("SIGSEGV (11)"));
        o = sh("sleep 5", 300);
        QCOMPARE(int(o.kind), int(sp::ProcessOutcome::TimedOut));
        QVERIFY(o.elapsedMs < 4000);
        o = sp::runProcess(QStringLiteral("/no/such/program"), {}, 2000,
                           QProcessEnvironment::systemEnvironment());
        QCOMPARE(int(o.kind), int(sp::ProcessOutcome::NotStarted));
    }

    void deviceMaskingVariablesAreKeptFromChildren()
    {
        QProcessEnvironment env;
        env.insert(QStringLiteral("HIP_VISIBLE_DEVICES"), QStringLiteral(""));
        env.insert(QStringLiteral("HSA_OVERRIDE_GFX_VERSION_1"), QStringLiteral("10.3.0"));
        env.insert(QStringLiteral("KEEP_ME"), QStringLiteral("yes"));
        env.insert(QStringLiteral("PATH"), QStringLiteral("/usr/bin:/bin"));
        const auto o = sh("echo ${HIP_VISIBLE_DEVICES-unset} ${HSA_OVERRIDE_GFX_VERSION_1-unset} "
                          "$KEEP_ME",
                          10000, sp::withoutDeviceMasking(env));
        QCOMPARE(o.stdoutText, std::string("unset unset yes\n"));
    }
};

QTEST_GUILESS_MAIN(TestProcess)
#include "test_process.moc"
