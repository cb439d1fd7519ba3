// Issue 8 (first hostile pass), the hostile-input findings, through the CLI: deep
// nesting, FIFOs, folders, a missing file, oversized snapshots and catalogs, a
// backtracking signature, terminal escapes in a GPU name, a placeholder a plan could not
// fill. Each gives a one-line error naming the file (exit 3), or safe output, and never a
// hang or a crash. Where the finding was a crash or a hang, the real stackpilot-cli runs
// (cliProcess: a crash is reported, a hang is killed at its time); the others run in
// process. (Moved here from tests/cli/test_hostile_inputs.cpp.)

#include "support/cli_runner.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <filesystem>
#include <fstream>
#include <sys/stat.h>

namespace {

sp::test::CliRun cli(const QStringList& args)
{
    return sp::test::runCliInProcess(args);
}

// The real process, for the findings that were a crash or a hang.
sp::test::CliRun cliProcess(const QStringList& args, int timeoutMs = 20000)
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

class Pass1Inputs : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;

    QString path(const char* name) const { return m_dir.filePath(QString::fromLatin1(name)); }

private slots:
    // A home of its own, also when run outside ctest: the CLI writes its log there.
    void initTestCase()
    {
        qputenv("STACKPILOT_HOME", m_dir.filePath(QStringLiteral("home")).toLocal8Bit());
        if (qEnvironmentVariableIsEmpty("STACKPILOT_DATA_DIR"))
            qputenv("STACKPILOT_DATA_DIR", STACKPILOT_BINARY_DIR "/share/stackpilot");
    }

    // 70,000 levels of nested arrays in an unknown field crashed `plan` (a recursive copy).
    void pass1_deepNestingIsRefusedNotACrash()
    {
        write(path("deep.json"), kSnapshotHead + "\"gpus\": [], \"x\": " + nested(70000) + "}");
        const auto r = cliProcess(plan(path("deep.json"))); // the finding was a SIGSEGV
        QVERIFY(!r.crashed);
        QCOMPARE(r.rc, 3);
        QVERIFY2(r.err.find("deep.json:1:") != std::string::npos &&
                     r.err.find("nesting deeper than") != std::string::npos,
                 r.err.c_str());
        // The same in a catalog file.
        QTemporaryDir cat;
        write(cat.filePath(QStringLiteral("deep.json")),
              "{\"schema_version\": 1, \"comment\": " + nested(5000) + "}");
        const auto c = cliProcess(
            {QStringLiteral("profiles"), QStringLiteral("--catalog-dir"), cat.path()}); // a crash
        QCOMPARE(c.rc, 3);
        QVERIFY2(c.err.find("nesting deeper than") != std::string::npos, c.err.c_str());
    }

    // A FIFO given as --hardware hung; a directory was reported as a JSON syntax error.
    void pass1_fifoOrFolderAsHardwareIsRefusedAtOnce()
    {
        QCOMPARE(::mkfifo(path("pipe.json").toLocal8Bit().constData(), 0600), 0);
        auto r = cliProcess(plan(path("pipe.json")), 10000); // the finding was a hang
        QCOMPARE(r.rc, 3);                                   // a hang would be -2
        QVERIFY2(r.err.find("is a FIFO") != std::string::npos, r.err.c_str());
        r = cli(plan(m_dir.path()));
        QCOMPARE(r.rc, 3);
        QVERIFY2(r.err.find("is a directory") != std::string::npos, r.err.c_str());
    }

    // `diagnose-log` exited 1 on a missing file where `plan` exited 3.
    void pass1_diagnoseLogMissingFileExits3()
    {
        const QString pipe = path("log-pipe");
        QCOMPARE(::mkfifo(pipe.toLocal8Bit().constData(), 0600), 0);
        for (const QString& input : {path("missing.log"), pipe, m_dir.path()}) {
            // The real process: the FIFO among the inputs would hang a reader.
            const auto r = cliProcess({QStringLiteral("diagnose-log"), input}, 10000);
            QVERIFY2(r.rc == 3,
                     qPrintable(input + QStringLiteral(": ") + QString::fromStdString(r.err)));
            QVERIFY2(r.err.find(input.toStdString()) != std::string::npos, r.err.c_str());
        }
        QCOMPARE(cli(plan(path("missing.json"))).rc, 3);
    }

    // Found by fuzz_snapshot while pass 1 was fixed: a number too large for any type threw
    // out of the reader.
    void pass1_hugeNumberIsBadInputNotACrash()
    {
        write(path("num.json"), kSnapshotHead + "\"gpus\": [], \"x\": 1111e1111100000000020}");
        const auto r = cliProcess(plan(path("num.json"))); // the finding was an uncaught exception
        QVERIFY(!r.crashed);
        QCOMPARE(r.rc, 3);
        QVERIFY2(r.err.find("num.json") != std::string::npos, r.err.c_str());
    }

    // Input size was unbounded (a 200 MB snapshot took 2.7 GB; 100,000 profiles took
    // 25 s): a snapshot over 4 MB, a catalog file over 64 MB and more than 100,000
    // entries of a kind are each refused with one line. (The speed is bench_catalog's.)
    void pass1_inputSizeIsBounded()
    {
        write(path("big.json"),
              kSnapshotHead + "\"gpus\": [], \"pad\": \"" + std::string(5u << 20, 'x') + "\"}");
        const auto r = cli(plan(path("big.json")));
        QCOMPARE(r.rc, 3);
        QVERIFY2(r.err.find("larger than") != std::string::npos, r.err.c_str());
        QCOMPARE(std::count(r.err.begin(), r.err.end(), '\n'), 1);

        QTemporaryDir big; // sparse: refused by its size, before a byte is read
        write(big.filePath(QStringLiteral("big.json")), "{");
        std::filesystem::resize_file(big.filePath(QStringLiteral("big.json")).toStdString(),
                                     65u << 20);
        auto c = cli({QStringLiteral("profiles"), QStringLiteral("--catalog-dir"), big.path()});
        QCOMPARE(c.rc, 3);
        QVERIFY2(c.err.find("big.json: ") != std::string::npos &&
                     c.err.find("is larger than a catalog may be") != std::string::npos,
                 c.err.c_str());

        QTemporaryDir many;
        std::string entries;
        for (int i = 0; i <= 100000; ++i)
            entries += std::string(i ? "," : "") + "{\"name\":\"V" + std::to_string(i) +
                       "\",\"subdir\":\"s\",\"why\":\"w\"}";
        write(many.filePath(QStringLiteral("many.json")),
              "{\"schema_version\": 1, \"cache_variables\": [" + entries + "]}");
        c = cli({QStringLiteral("profiles"), QStringLiteral("--catalog-dir"), many.path()});
        QCOMPARE(c.rc, 3);
        QVERIFY2(c.err.find("at most 100000 are allowed") != std::string::npos, c.err.c_str());
        QCOMPARE(std::count(c.err.begin(), c.err.end(), '\n'), 1);
    }

    // The signature (a+)+$ in a catalog file hung `diagnose-log` forever (std::regex
    // backtracks). Over 2,000 lines of 60 a's both classic backtracking patterns finish,
    // and still match where they should.
    void pass1_backtrackingSignatureFinishes()
    {
        QTemporaryDir cat;
        write(cat.filePath(QStringLiteral("evil.json")),
              "{\"schema_version\": 1, \"known_issues\": ["
              "{\"id\": \"evil-nested\", \"title\": \"t\", \"signatures\": [\"(a+)+$\"], "
              "\"remedy\": {\"text\": \"r\"}, \"references\": [\"https://example.org/e\"]},"
              "{\"id\": \"evil-star\", \"title\": \"t\", \"signatures\": [\"(a*)*b\"], "
              "\"remedy\": {\"text\": \"r\"}, \"references\": [\"https://example.org/e\"]}]}");
        std::string log;
        for (int i = 0; i < 2000; ++i)
            log += std::string(60, 'a') + "!\n";
        write(path("evil.log"), log);
        QElapsedTimer t;
        t.start();
        // The real process: the finding was a hang, which it is killed for (rc -2).
        auto r =
            cliProcess({QStringLiteral("diagnose-log"), path("evil.log"), QStringLiteral("--json"),
                        QStringLiteral("--catalog-dir"), cat.path()});
        qInfo("2,000 lines of 60 a's: %lld ms", t.elapsed());
        QVERIFY2(r.rc != -2, "diagnose-log hung on a backtracking signature");
        QVERIFY2(r.out.find("evil-") == std::string::npos, r.out.c_str());
        write(path("evil.log"), log + std::string(60, 'a') + "\n" + std::string(60, 'a') + "b\n");
        r = cliProcess({QStringLiteral("diagnose-log"), path("evil.log"), QStringLiteral("--json"),
                        QStringLiteral("--catalog-dir"), cat.path()}); // a hang, as above
        QVERIFY2(r.out.find("evil-nested") != std::string::npos &&
                     r.out.find("evil-star") != std::string::npos,
                 r.out.c_str());
    }

    // Terminal escape sequences in a GPU name reached the terminal raw.
    void pass1_escapesInAGpuNameNeverReachTheTerminal()
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

    // `plan` printed unexpanded {runtime:…} placeholders and exited 0: a placeholder
    // the machine cannot fill fails the plan, and a {runtime:} chain is a load error.
    void pass1_unexpandedPlaceholderIsAnError()
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

        QTemporaryDir cat;
        write(cat.filePath(QStringLiteral("chain.json")),
              "{\"schema_version\": 1, \"runtimes\": [\n"
              "  {\"id\": \"a\", \"kind\": \"k\", \"version\": \"1\", \"install_dir\": "
              "\"{runtime:b}/a\", \"artifacts\": []},\n"
              "  {\"id\": \"b\", \"kind\": \"k\", \"version\": \"1\", \"install_dir\": "
              "\"{runtime:a}/b\", \"artifacts\": []}]}");
        const auto c =
            cli({QStringLiteral("profiles"), QStringLiteral("--catalog-dir"), cat.path()});
        QCOMPARE(c.rc, 3);
        QVERIFY2(c.err.find("chain.json:2:") != std::string::npos &&
                     c.err.find("install_dir may not use {runtime:b}") != std::string::npos,
                 c.err.c_str());
    }
};

QTEST_GUILESS_MAIN(Pass1Inputs)
#include "pass1_inputs.moc"
