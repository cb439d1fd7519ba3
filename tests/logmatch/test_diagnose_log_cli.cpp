#include "app/cli/command.h"
#include "support/cli_runner.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

using namespace sp::cli;
namespace fs = std::filesystem;

namespace {

const QString kLogs = QStringLiteral(STACKPILOT_SOURCE_DIR "/tests/logmatch/logs/");

sp::test::CliRun cli(QStringList args)
{
    args.prepend(QStringLiteral("diagnose-log"));
    return sp::test::runCliInProcess(args);
}

void writeFile(const QString& path, const std::string& text)
{
    std::ofstream(fs::path(path.toStdString()), std::ios::binary) << text;
}

} // namespace

class TestDiagnoseLogCli : public QObject
{
    Q_OBJECT
private slots:
    void jsonShapeAndContent()
    {
        auto r = cli({kLogs + QStringLiteral("fail-windows-install-problems.log"),
                      QStringLiteral("--json")});
        QVERIFY2(r.rc == 0, r.err.c_str());
        const auto j = nlohmann::json::parse(r.out);
        QVERIFY(j.is_object() && j.size() == 1 && j["matches"].is_array());
        const std::set<std::string> keys = {"known_issue", "line", "excerpt", "remedy"};
        std::vector<std::pair<std::string, int>> got;
        for (const auto& m : j["matches"]) {
            std::set<std::string> have;
            for (const auto& [k, v] : m.items())
                have.insert(k);
            QVERIFY(have == keys);
            QVERIFY(m["line"].is_number_integer() && m["excerpt"].is_string() &&
                    m["remedy"].is_string() && !m["remedy"].get<std::string>().empty());
            got.emplace_back(m["known_issue"].get<std::string>(), m["line"].get<int>());
        }
        const std::vector<std::pair<std::string, int>> want = {
            {"hip-sdk-missing", 4}, {"unsuitable-install-path", 6}, {"ms-store-python-nvrtc", 10}};
        QVERIFY(got == want);
    }

    // No known issue: the failure is explained, in words, in JSON and as a report.
    void unknownFailureExplained()
    {
        const QString log =
            QStringLiteral(STACKPILOT_SOURCE_DIR "/tests/logmatch/corpus-2026/"
                                                 "unknown/unknown-rocm-4382-rocminfo-hsa-out-of-"
                                                 "resources.log");
        auto text = cli({log});
        QVERIFY2(text.rc == 0, text.err.c_str());
        QVERIFY(text.out.find("Not a known problem yet") != std::string::npos);
        QVERIFY(text.out.find("line 4: Call returned HSA_STATUS_ERROR_OUT_OF_RESOURCES") !=
                std::string::npos);
        QVERIFY(text.out.find("HSA runtime") != std::string::npos);
        QVERIFY(text.out.find("Report this failure") != std::string::npos);
        auto json = cli({log, QStringLiteral("--json")});
        QVERIFY2(json.rc == 0, json.err.c_str());
        const auto j = nlohmann::json::parse(json.out);
        QVERIFY(j["matches"].empty());
        QCOMPARE(j["unknown"]["line"].get<int>(), 4);
        QCOMPARE(j["unknown"]["component"].get<std::string>(), std::string("hsa-runtime"));
        QVERIFY(!j["unknown"]["search_text"].get<std::string>().empty());
        auto report = cli({log, QStringLiteral("--report")});
        QVERIFY2(report.rc == 0, report.err.c_str());
        QVERIFY(report.out.find("HSA_STATUS_ERROR_OUT_OF_RESOURCES") != std::string::npos);
        // A log with a known issue has no unknown failure to report.
        auto known = cli({kLogs + QStringLiteral("fail-windows-install-problems.log"),
                          QStringLiteral("--report")});
        QCOMPARE(known.rc, 1);
        QVERIFY(cli({log, QStringLiteral("--os"), QStringLiteral("macos")}).rc != 0);
    }

    void humanReport()
    {
        auto r = cli({kLogs + QStringLiteral("fail-llamafile-hipblas-status-unknown.log")});
        QCOMPARE(r.rc, 0);
        QVERIFY(r.out.find("[hipblas-status-unknown]") != std::string::npos);
        QVERIFY(r.out.find("line 39 (and 1 more line)") != std::string::npos);
        QVERIFY(r.out.find("fix: Run llamafile with --recompile --tinyblas") != std::string::npos);
    }

    void cleanLogIsNotAnError()
    {
        auto r = cli({kLogs + QStringLiteral("clean-ollama-cpu-by-choice.log")});
        QCOMPARE(r.rc, 0);
        QVERIFY(r.out.find("No known issue found") != std::string::npos);
        auto j =
            cli({kLogs + QStringLiteral("clean-comfyui-nvidia.log"), QStringLiteral("--json")});
        QCOMPARE(j.rc, 0);
        // Nothing known, and nothing that looks like a failure to explain.
        QVERIFY(nlohmann::json::parse(j.out) ==
                nlohmann::json::parse("{\"matches\": [], \"unknown\": null}"));
    }

    void errors()
    {
        auto missing = cli({kLogs + QStringLiteral("no-such.log")});
        QCOMPARE(missing.rc, 3); // as plan --hardware: a missing input file is exit 3
        QVERIFY(missing.err.find("no-such.log") != std::string::npos);
        QCOMPARE(std::count(missing.err.begin(), missing.err.end(), '\n'), 1);
        QCOMPARE(cli({}).rc, 2);
        QCOMPARE(cli({QStringLiteral("a.log"), QStringLiteral("b.log")}).rc, 2);
    }

    void extraCatalogDir()
    {
        QTemporaryDir dir;
        writeFile(dir.filePath(QStringLiteral("mine.json")),
                  "{\"schema_version\": 1, \"known_issues\": [{\"id\": \"my-widget-crash\", "
                  "\"title\": \"Widget crash\", \"signatures\": [\"widget [0-9]+ exploded\"], "
                  "\"remedy\": {\"action\": \"info\", \"text\": \"Stop exploding widgets.\"}}]}");
        writeFile(dir.filePath(QStringLiteral("a.log")), "start\nwidget 42 exploded\r\n");
        auto r = cli({dir.filePath(QStringLiteral("a.log")), QStringLiteral("--json"),
                      QStringLiteral("--catalog-dir"), dir.path()});
        QVERIFY2(r.rc == 0, r.err.c_str());
        const auto j = nlohmann::json::parse(r.out);
        QCOMPARE(j["matches"].size(), std::size_t(1));
        QCOMPARE(j["matches"][0]["known_issue"].get<std::string>(), std::string("my-widget-crash"));
        QCOMPARE(j["matches"][0]["line"].get<int>(), 2);
        QCOMPARE(j["matches"][0]["excerpt"].get<std::string>(), std::string("widget 42 exploded"));

        QTemporaryDir bad;
        writeFile(bad.filePath(QStringLiteral("bad.json")),
                  "{\"schema_version\": 1, \"known_issues\": [{\"id\": \"bad\", \"title\": \"t\", "
                  "\"signatures\": [\"(unclosed\"], \"remedy\": {\"action\": \"info\", \"text\": "
                  "\"x\"}}]}");
        auto b = cli(
            {dir.filePath(QStringLiteral("a.log")), QStringLiteral("--catalog-dir"), bad.path()});
        QCOMPARE(b.rc, 3);
        QVERIFY(b.err.find("bad.json") != std::string::npos);
    }

    // The real binary, as a user runs it.
    void binary()
    {
        QProcess p;
        p.start(QStringLiteral(STACKPILOT_BINARY_DIR "/bin/stackpilot-cli"),
                {QStringLiteral("diagnose-log"),
                 kLogs + QStringLiteral("fail-sdnext-zluda-rocblas-crash.log"),
                 QStringLiteral("--json")});
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitCode(), 0);
        const auto j = nlohmann::json::parse(p.readAllStandardOutput().toStdString());
        QCOMPARE(j["matches"].size(), std::size_t(1));
        QCOMPARE(j["matches"][0]["known_issue"].get<std::string>(),
                 std::string("rocm-zluda-rocblas-access-violation"));
        QCOMPARE(j["matches"][0]["line"].get<int>(), 40);
    }
};

QTEST_GUILESS_MAIN(TestDiagnoseLogCli)
#include "test_diagnose_log_cli.moc"
