// Apps that find their models in folders (issue 30, item 4): an SD.Next-like stand-in
// given the vault's view folder ({model_view}) and a ComfyUI-like one given an
// extra_model_paths file ({model_paths_yaml}) see the same pulled checkpoint, as links to
// the one blob: zero bytes copied. A file the app wrote into the view stays; a link whose
// model left the vault goes.

#include "installers/sha256.h"
#include "support/cli_runner.h"
#include "support/http_test_server.h"
#include "support/model_files.h"
#include "support/text_util.h"

#include <QTemporaryDir>
#include <QTest>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sys/stat.h>

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
    HttpTestServer server;
    std::string checkpoint = tinySafetensors(
        {"model.diffusion_model.input_blocks.0.0.weight",
         "first_stage_model.decoder.conv_in.weight",
         "cond_stage_model.transformer.text_model.embeddings.token_embedding.weight"});

    World()
    {
        qputenv("STACKPILOT_HOME", QByteArray::fromStdString((root / "home").string()));
        qputenv("STACKPILOT_RUN", STACKPILOT_BINARY_DIR "/bin/stackpilot-run");
        server.addBlob("/m/tiny-sd.safetensors", checkpoint);
        if (!server.start())
            qFatal("server: %s", server.error().c_str());
        fs::create_directories(catalog);
        std::ofstream(catalog / "fixture-views.json") << doc().dump(2);
    }

    // The shipped workload's "model": how the real app is handed the vault.
    static json shippedModel(const std::string& id)
    {
        std::ifstream in(STACKPILOT_SOURCE_DIR "/profiles/catalog/workloads.json");
        const json doc = json::parse(in); // kept: the loop reads into it
        for (const json& w : doc["workloads"])
            if (w["id"] == id)
                return w.at("model");
        qFatal("no shipped workload %s", id.c_str());
    }
    json workload(const std::string& id, const std::string& shipped) const
    {
        return {{"id", id},
                {"name", id},
                {"command",
                 {"sh", "-c", "printf '%s\\n' \"$@\" > '" + argsFile(id).string() + "'", "sh"}},
                {"model", shippedModel(shipped)},
                {"references", {"https://example.org/model-view-fixture"}}};
    }
    json doc() const
    {
        auto profile = [](const std::string& w) {
            return json{{"id", w + "-any"},
                        {"workload", w},
                        {"status", "community"},
                        {"match", {{"os", {"linux"}}}},
                        {"references", {"https://example.org/model-view-fixture"}}};
        };
        return {{"schema_version", 1},
                {"workloads", {workload("sdstand", "sdnext"), workload("comfystand", "comfyui")}},
                {"profiles", {profile("sdstand"), profile("comfystand")}},
                {"models",
                 {{{"id", "tiny-sd"},
                   {"kind", "sd15-checkpoint"},
                   // Offered for one app; the view shows every checkpoint of the vault
                   // to each app with a checkpoint folder.
                   {"workloads", {"comfystand"}},
                   {"files",
                    {{{"url", server.url("/m/tiny-sd.safetensors")},
                      {"sha256", Sha256::ofBytes(checkpoint.data(), checkpoint.size())},
                      {"size", checkpoint.size()}}}},
                   {"references", {"https://example.org/model-view-fixture"}}}}}};
    }
    fs::path argsFile(const std::string& w) const { return root / (w + ".args"); }
    CliRun cli(QStringList a) const
    {
        a << QStringLiteral("--catalog-dir") << QString::fromStdString(catalog.string())
          << QStringLiteral("--models-dir") << QString::fromStdString(vault.string());
        return runCliInProcess(a);
    }
    CliRun run(const char* workload) const
    {
        return cli({QStringLiteral("run"), QString::fromLatin1(workload), QStringLiteral("--yes"),
                    QStringLiteral("--no-probes"), QStringLiteral("--no-verify")});
    }
    std::vector<std::string> received(const std::string& w) const { return readLines(argsFile(w)); }
};

ino_t inodeOf(const fs::path& p)
{
    struct stat st
    {};
    return ::stat(p.c_str(), &st) == 0 ? st.st_ino : 0;
}

} // namespace

class TestModelViews : public QObject
{
    Q_OBJECT
private slots:
    void twoAppsSeeOneCheckpointWithNoCopy()
    {
        World w;
        auto pulled = w.cli({QStringLiteral("models"), QStringLiteral("pull"),
                             QStringLiteral("tiny-sd"), QStringLiteral("--json")});
        QVERIFY2(pulled.rc == 0, pulled.err.c_str());
        const fs::path blob = json::parse(pulled.out)["files"][0]["path"].get<std::string>();

        auto sd = w.run("sdstand");
        QVERIFY2(sd.rc == 0, (sd.err + sd.out).c_str());
        const auto sdArgs = w.received("sdstand");
        QCOMPARE(sdArgs.size(), std::size_t(2));
        QCOMPARE(sdArgs[0], std::string("--models-dir"));
        const fs::path sdFile = fs::path(sdArgs[1]) / "Stable-diffusion" / "tiny-sd.safetensors";

        auto comfy = w.run("comfystand");
        QVERIFY2(comfy.rc == 0, (comfy.err + comfy.out).c_str());
        const auto comfyArgs = w.received("comfystand");
        QCOMPARE(comfyArgs.size(), std::size_t(2));
        std::ifstream yaml(comfyArgs[1]);
        const std::string text{std::istreambuf_iterator<char>(yaml), {}};
        const fs::path view = fs::path(comfyArgs[1]).parent_path();
        QVERIFY2(text.find("base_path: '" + view.string() + "'") != std::string::npos &&
                     text.find("  checkpoints: checkpoints\n") != std::string::npos,
                 text.c_str());
        const fs::path comfyFile = view / "checkpoints" / "tiny-sd.safetensors";

        // One blob, three names: the vault's and each app's. Zero bytes copied.
        QVERIFY(inodeOf(blob) != 0);
        QCOMPARE(inodeOf(sdFile), inodeOf(blob));
        QCOMPARE(inodeOf(comfyFile), inodeOf(blob));

        // A file the app saved in its folder stays; the model's link goes with the model.
        std::ofstream(fs::path(sdArgs[1]) / "Stable-diffusion" / "merged-by-the-app.safetensors")
            << "the app's own";
        auto removed =
            w.cli({QStringLiteral("models"), QStringLiteral("remove"), QStringLiteral("tiny-sd")});
        QVERIFY2(removed.rc == 0, removed.err.c_str());
        QVERIFY(w.run("sdstand").rc == 0);
        QVERIFY(!fs::exists(sdFile));
        QVERIFY(
            fs::exists(fs::path(sdArgs[1]) / "Stable-diffusion" / "merged-by-the-app.safetensors"));
    }

    // The card's "No download" (`none`): the view is made, nothing is pulled; without it
    // the run pulls the model the app is offered, after the checklist.
    void noDownloadPullsNothing()
    {
        World w;
        auto none =
            w.cli({QStringLiteral("run"), QStringLiteral("comfystand"), QStringLiteral("--model"),
                   QStringLiteral("none"), QStringLiteral("--yes"), QStringLiteral("--no-probes"),
                   QStringLiteral("--no-verify")});
        QVERIFY2(none.rc == 0, (none.err + none.out).c_str());
        QCOMPARE(w.server.stats("/m/tiny-sd.safetensors").requests, 0);
        QCOMPARE(w.received("comfystand").size(), std::size_t(2));
        auto pulled = w.run("comfystand");
        QVERIFY2(pulled.rc == 0, (pulled.err + pulled.out).c_str());
        QVERIFY(w.server.stats("/m/tiny-sd.safetensors").requests > 0);
        const fs::path view = fs::path(w.received("comfystand")[1]).parent_path();
        QVERIFY(fs::exists(view / "checkpoints" / "tiny-sd.safetensors"));
    }

    void aViewFolderMustBeOnePlainName()
    {
        World w;
        json bad = w.doc();
        bad["workloads"][0]["model"]["view"] = {{"sd15-checkpoint", "../elsewhere"}};
        std::ofstream(w.catalog / "fixture-views.json") << bad.dump(2);
        const auto r = w.run("sdstand");
        QVERIFY(r.rc != 0);
        QVERIFY2(r.err.find("one plain folder name") != std::string::npos, r.err.c_str());
    }
};

QTEST_GUILESS_MAIN(TestModelViews)
#include "test_model_views.moc"
