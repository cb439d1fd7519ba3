// Hostile inputs, each a finding of the data-safety review, through the real CLI: deep
// nesting, FIFOs, folders, oversized snapshots and catalogs, terminal escapes in a GPU
// name, a placeholder a plan could not fill. Each gives a one-line error naming the
// file (exit 3), or safe output, and never a hang or a crash.

#include "support/cli_runner.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <fstream>
#include <sys/stat.h>

namespace {

sp::test::CliRun cli(const QStringList& args, int timeoutMs = 20000)
{
    return sp::test::runCliBinary(args, timeoutMs);
}

void write(const QString& file, const std::string& text)
{
    std::ofstream(file.toStdString(), std::ios::binary) << text;
}

QStringList plan(const QString& hardware)
{
    return {QStringLiteral("plan"), QStringLiteral("--workload"), QStringLiteral("sdnext"),
            QStringLiteral("--hardware"), hardware};
}

const std::string kSnapshotHead = "{\"schema\": 1, \"os\": {\"family\": \"linux\"}, \"home\": "
                                  "{\"path\": \"/home/u\", \"filesystem\": \"ext4\"}, ";

// n opening brackets, then n closing ones (built here: moc trips over bracket
// characters inside a class body).
std::string nested(std::size_t n)
{
    return std::string(n, '[') + std::string(n, ']');
}

} // namespace

class TestHostileInputs : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;

    QString path(const char* name) const { return m_dir.filePath(QString::fromLatin1(name)); }

private slots:
    void deepNestingInAnUnknownField()
    {
        write(path("deep.json"), kSnapshotHead + "\"gpus\": [], \"x\": " + nested(70000) + "}");
        const auto r = cli(plan(path("deep.json")));
        QVERIFY(!r.crashed);
        QCOMPARE(r.rc, 3);
        QVERIFY2(r.err.find("deep.json:1:") != std::string::npos &&
                     r.err.find("nesting deeper than") != std::string::npos,
                 r.err.c_str());
    }

    void fifoAndDirectoryAreRefusedAtOnce()
    {
        QCOMPARE(::mkfifo(path("pipe.json").toLocal8Bit().constData(), 0600), 0);
        auto r = cli(plan(path("pipe.json")), 10000);
        QCOMPARE(r.rc, 3); // a hang would be -2
        QVERIFY2(r.err.find("is a FIFO") != std::string::npos, r.err.c_str());
        r = cli(plan(m_dir.path()));
        QCOMPARE(r.rc, 3);
        QVERIFY2(r.err.find("is a directory") != std::string::npos, r.err.c_str());
        r = cli(plan(path("missing.json")));
        QCOMPARE(r.rc, 3);
        r = cli({QStringLiteral("diagnose-log"), path("pipe.json")}, 10000);
        QCOMPARE(r.rc, 3);
    }

    // Found by fuzz_snapshot: a number too large for any type threw out of the reader.
    void hugeNumberIsBadInputNotACrash()
    {
        write(path("num.json"), kSnapshotHead + "\"gpus\": [], \"x\": 1111e1111100000000020}");
        const auto r = cli(plan(path("num.json")));
        QVERIFY(!r.crashed);
        QCOMPARE(r.rc, 3);
        QVERIFY2(r.err.find("num.json") != std::string::npos, r.err.c_str());
    }

    void oversizedSnapshot()
    {
        write(path("big.json"),
              kSnapshotHead + "\"gpus\": [], \"pad\": \"" + std::string(5u << 20, 'x') + "\"}");
        const auto r = cli(plan(path("big.json")));
        QCOMPARE(r.rc, 3);
        QVERIFY2(r.err.find("larger than") != std::string::npos, r.err.c_str());
        QCOMPARE(std::count(r.err.begin(), r.err.end(), '\n'), 1);
    }

    void deepCatalogFile()
    {
        QTemporaryDir cat;
        write(cat.filePath(QStringLiteral("deep.json")),
              "{\"schema_version\": 1, \"comment\": " + nested(5000) + "}");
        const auto r =
            cli({QStringLiteral("profiles"), QStringLiteral("--catalog-dir"), cat.path()});
        QCOMPARE(r.rc, 3);
        QVERIFY2(r.err.find("nesting deeper than") != std::string::npos, r.err.c_str());
    }

    void escapesInAGpuNameNeverReachTheTerminal()
    {
        write(path("esc.json"), kSnapshotHead +
                                    "\"gpus\": [{\"vendor\": \"amd\", \"name\": \"Radeon "
                                    "\\u001b]0;pwned\\u0007\\u001b[31mRX\\u009b2J\", \"gfx\": "
                                    "\"gfx1100\", \"vram_mb\": 24576}]}");
        const auto r = cli(plan(path("esc.json")));
        QCOMPARE(r.rc, 0);
        QVERIFY(r.out.find('\x1b') == std::string::npos);
        QVERIFY(r.out.find('\x07') == std::string::npos);
        QVERIFY(r.out.find("\xc2\x9b") == std::string::npos);
        QVERIFY2(r.out.find("Radeon \\x1b]0;pwned\\x07\\x1b[31mRX\\u009b2J") != std::string::npos,
                 r.out.c_str());
        // JSON output keeps the exact name, escaped by the JSON writer.
        auto args = plan(path("esc.json"));
        args << QStringLiteral("--json");
        QVERIFY(cli(args).out.find('\x1b') == std::string::npos);
    }

    void aPlaceholderThePlanCannotFillIsAnError()
    {
        // autotrain builds bitsandbytes for {gfx}; a GPU of unknown gfx cannot fill it.
        write(path("nogfx.json"),
              kSnapshotHead +
                  "\"gpus\": [{\"vendor\": \"amd\", \"name\": \"Radeon\", \"vram_mb\": 24576}]}");
        const auto r = cli({QStringLiteral("plan"), QStringLiteral("--workload"),
                            QStringLiteral("autotrain-advanced"), QStringLiteral("--profile"),
                            QStringLiteral("autotrain-rocm6.2"), QStringLiteral("--hardware"),
                            path("nogfx.json")});
        QCOMPARE(r.rc, 1);
        QVERIFY2(r.err.find("needs {gfx}") != std::string::npos, r.err.c_str());
        QVERIFY(r.out.find("{gfx}") == std::string::npos);
    }

    void aRuntimeChainIsALoadError()
    {
        QTemporaryDir cat;
        write(cat.filePath(QStringLiteral("chain.json")),
              "{\"schema_version\": 1, \"runtimes\": [\n"
              "  {\"id\": \"a\", \"kind\": \"k\", \"version\": \"1\", \"install_dir\": "
              "\"{runtime:b}/a\", \"artifacts\": []},\n"
              "  {\"id\": \"b\", \"kind\": \"k\", \"version\": \"1\", \"install_dir\": "
              "\"{runtime:a}/b\", \"artifacts\": []}]}");
        const auto r =
            cli({QStringLiteral("profiles"), QStringLiteral("--catalog-dir"), cat.path()});
        QCOMPARE(r.rc, 3);
        QVERIFY2(r.err.find("chain.json:2:") != std::string::npos &&
                     r.err.find("install_dir may not use {runtime:b}") != std::string::npos,
                 r.err.c_str());
    }
};

QTEST_GUILESS_MAIN(TestHostileInputs)
#include "test_hostile_inputs.moc"
