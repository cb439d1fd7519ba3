// `run WORKLOAD --model ID|FILE`: a model pulled into the vault, or the user's own file,
// reaches a stand-in LLM workload as the arguments its catalog entry declares (-m with
// the file, -c with the context that fits, -ngl); a model that names nothing, or a
// workload that takes none, is refused before anything starts.

#include "installers/sha256.h"
#include "support/cli_runner.h"
#include "support/http_test_server.h"
#include "support/model_files.h"
#include "tests/support/text_util.h"

#include <QTemporaryDir>
#include <QTest>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

using namespace sp;
using namespace sp::test;
using nlohmann::json;

namespace fs = std::filesystem;

namespace {

struct World
{
    QTemporaryDir tmp;
    fs::path root = fs::path(tmp.path().toStdString());
    fs::path catalog = root / "catalog";
    fs::path vault = root / "vault";
    fs::path argsFile = root / "args.txt";
    HttpTestServer server;
    std::string gguf = tinyLlamaGguf();

    World()
    {
        qputenv("STACKPILOT_HOME", QByteArray::fromStdString((root / "home").string()));
        qputenv("STACKPILOT_RUN", STACKPILOT_BINARY_DIR "/bin/stackpilot-run");
        server.addBlob("/m/tiny.gguf", gguf);
        if (!server.start())
            qFatal("server: %s", server.error().c_str());
        fs::create_directories(catalog);
        auto workload = [&](const char* id, bool takesModel) {
            json w = {{"id", id},
                      {"name", id},
                      {"command",
                       {"sh", "-c", "printf '%s\\n' \"$@\" > '" + argsFile.string() + "'", "sh"}},
                      {"references", {"https://example.org/model-run-fixture"}}};
            if (takesModel)
                w["model"] = {
                    {"kinds", {"gguf"}},
                    {"args",
                     {"-m", "{model}", "-c", "{model_context}", "-ngl", "{model_gpu_layers}"}}};
            return w;
        };
        auto profile = [](const char* id, const char* forWorkload) {
            return json{{"id", id},
                        {"workload", forWorkload},
                        {"status", "community"},
                        {"match", {{"os", {"linux"}}}},
                        {"references", {"https://example.org/model-run-fixture"}}};
        };
        const json doc = {
            {"schema_version", 1},
            {"workloads", {workload("llmstand", true), workload("plainstand", false)}},
            {"profiles",
             {profile("llmstand-any", "llmstand"), profile("plainstand-any", "plainstand")}},
            {"models",
             {{{"id", "tiny"},
               {"kind", "gguf"},
               {"workloads", {"llmstand"}},
               {"files",
                {{{"url", server.url("/m/tiny.gguf")},
                  {"sha256", Sha256::ofBytes(gguf.data(), gguf.size())},
                  {"size", gguf.size()}}}},
               {"references", {"https://example.org/model-run-fixture"}}},
              {{"id", "gated"},
               {"kind", "gguf"},
               {"workloads", {"llmstand"}},
               {"license",
                {{"id", "fixture-license"},
                 {"url", "https://example.org/gated-license"},
                 {"accept_required", true}}},
               {"files",
                {{{"url", server.url("/m/gated.gguf")},
                  {"sha256", Sha256::ofBytes(gguf.data(), gguf.size())},
                  {"size", gguf.size()}}}},
               {"references", {"https://example.org/model-run-fixture"}}}}}};
        server.addBlob("/m/gated.gguf", gguf);
        server.setFault("/m/gated.gguf", Fault::statusFor(403, -1));
        std::ofstream(catalog / "fixture.json") << doc.dump(2);
    }
    CliRun cli(QStringList a) const
    {
        a << QStringLiteral("--catalog-dir") << QString::fromStdString(catalog.string())
          << QStringLiteral("--models-dir") << QString::fromStdString(vault.string());
        return runCliInProcess(a);
    }
    CliRun run(const char* workload, const std::string& model) const
    {
        return cli({QStringLiteral("run"), QString::fromLatin1(workload), QStringLiteral("--yes"),
                    QStringLiteral("--no-probes"), QStringLiteral("--no-verify"),
                    QStringLiteral("--model"), QString::fromStdString(model)});
    }
    std::vector<std::string> received() const { return readLines(argsFile); }
};

} // namespace

class TestModelRun : public QObject
{
    Q_OBJECT
private slots:
    void aPulledModelReachesTheWorkload()
    {
        World w;
        auto pulled = w.cli({QStringLiteral("models"), QStringLiteral("pull"),
                             QStringLiteral("tiny"), QStringLiteral("--json")});
        QVERIFY2(pulled.rc == 0, pulled.err.c_str());
        const std::string blob = json::parse(pulled.out)["files"][0]["path"];
        const auto r = w.run("llmstand", "tiny");
        QVERIFY2(r.rc == 0, (r.err + r.out).c_str());
        // The tiny model was trained for 4096 tokens; with no GPU known, every layer.
        QCOMPARE(w.received(), (std::vector<std::string>{"-m", blob, "-c", "4096", "-ngl", "999"}));
    }

    // One click: a model not in the vault yet is pulled after the checklist (which counts
    // it), then handed to the workload.
    void aModelNotPulledYetIsPulledByTheRun()
    {
        World w;
        const auto r = w.run("llmstand", "tiny");
        QVERIFY2(r.rc == 0, (r.err + r.out).c_str());
        QVERIFY2(r.err.find("tiny: fetching tiny.gguf") != std::string::npos, r.err.c_str());
        const auto got = w.received();
        QCOMPARE(got.size(), std::size_t(6));
        QCOMPARE(fs::path(got[1]).parent_path(), w.vault / "blobs");
        std::ifstream in(got[1], std::ios::binary);
        const std::string bytes{std::istreambuf_iterator<char>(in), {}};
        QVERIFY(bytes == w.gguf);
    }

    // `plan` names the model a run would use, and its fit once the file is there.
    void planNamesTheModelAndItsFit()
    {
        World w;
        auto plan = [&](bool asJson) {
            QStringList a{
                QStringLiteral("plan"),          QStringLiteral("--workload"),
                QStringLiteral("llmstand"),      QStringLiteral("--no-probes"),
                QStringLiteral("--catalog-dir"), QString::fromStdString(w.catalog.string())};
            if (asJson)
                a << QStringLiteral("--json");
            return runCliInProcess(a);
        };
        auto before = plan(true);
        QVERIFY2(before.rc == 0, before.err.c_str());
        const json b = json::parse(before.out)["model"];
        QCOMPARE(b["id"].get<std::string>(), std::string("tiny"));
        QCOMPARE(b["in_vault"].get<bool>(), false);
        QVERIFY(plan(false).out.find("Model: tiny (928 B), pulled at the first run") !=
                std::string::npos);
        auto pulled = runCliInProcess({QStringLiteral("models"), QStringLiteral("pull"),
                                       QStringLiteral("tiny"), QStringLiteral("--catalog-dir"),
                                       QString::fromStdString(w.catalog.string())});
        QVERIFY2(pulled.rc == 0, pulled.err.c_str());
        const json a = json::parse(plan(true).out)["model"];
        QCOMPARE(a["in_vault"].get<bool>(), true);
        // Read from the file itself: its context on this machine's card (or none).
        QVERIFY2(a["why"].get<std::string>().find("context") != std::string::npos,
                 a.dump().c_str());
    }

    // A gated model refused (403): one line that names where its license is accepted.
    void aGatedModelNamesItsLicensePage()
    {
        World w;
        const auto r = w.run("llmstand", "gated");
        QVERIFY(r.rc != 0);
        QVERIFY2(r.err.find("gated is gated: accept its license at "
                            "https://example.org/gated-license, then give StackPilot a Hugging "
                            "Face token") != std::string::npos,
                 r.err.c_str());
        QVERIFY(!fs::exists(w.argsFile));
    }

    void theUsersOwnFileReachesTheWorkload()
    {
        World w;
        const fs::path mine = w.root / "mine.gguf";
        std::ofstream(mine, std::ios::binary) << w.gguf;
        const auto r = w.run("llmstand", mine.string());
        QVERIFY2(r.rc == 0, (r.err + r.out).c_str());
        QCOMPARE(w.received().at(1), mine.string());
        QVERIFY(!fs::exists(w.vault)); // the user's file is used where it is
    }

    void badModelsStartNothing_data()
    {
        QTest::addColumn<QString>("workload");
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("says");
        QTest::newRow("nothing") << "llmstand"
                                 << "nope"
                                 << "neither a model of the catalog";
        QTest::newRow("no slot") << "plainstand"
                                 << "tiny"
                                 << "takes no model";
    }
    void badModelsStartNothing()
    {
        QFETCH(QString, workload);
        QFETCH(QString, model);
        QFETCH(QString, says);
        World w;
        const auto r = w.run(workload.toLatin1().constData(), model.toStdString());
        QCOMPARE(r.rc, 2);
        QVERIFY2(r.err.find(says.toStdString()) != std::string::npos, r.err.c_str());
        QVERIFY(!fs::exists(w.argsFile));
    }

    void aFileThatIsNotAGgufIsRefused()
    {
        World w;
        const fs::path junk = w.root / "junk.gguf";
        std::ofstream(junk) << "not a model";
        const auto r = w.run("llmstand", junk.string());
        QCOMPARE(r.rc, 3);
        QVERIFY2(r.err.find("runs GGUF models") != std::string::npos, r.err.c_str());
        QVERIFY(!fs::exists(w.argsFile));
    }
};

QTEST_GUILESS_MAIN(TestModelRun)
#include "test_model_run.moc"
