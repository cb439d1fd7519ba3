// Issue 30 in the window: an LLM workload's card has a model chooser (the largest model
// that fits the card first, one too large said so); one click pulls the chosen model
// after the checklist, which names it, and launches the workload with it; the Models view
// pulls with progress, pauses, resumes from what arrived and removes only what StackPilot
// downloaded. Real parts: a loopback server, GGUF files made by the test, the vault, and a
// stand-in workload (sh) that writes the arguments it was given.

#include "app/gui/widgets/models_dialog.h"
#include "gui_fixture.h"
#include "installers/sha256.h"
#include "tests/support/model_files.h"
#include "tests/support/text_util.h"

#include <QTableWidget>

using namespace sp;
using namespace sp::test;
using Phase = gui::AppController::Phase;

namespace {

struct LlmWorld
{
    GuiWorld w;
    fs::path catalog = w.root / "llm-catalog";
    fs::path argsFile = w.root / "args.txt";
    HttpTestServer server;
    std::string tiny = tinyLlamaGguf();
    // 32 MiB of tensor data: a pull long enough to see, stall and pause.
    std::string mid = GgufBuilder()
                          .text("general.architecture", "llama")
                          .u64("llama.context_length", 4096)
                          .u64("llama.block_count", 2)
                          .tensor("big.weight", {8u << 20})
                          .build();

    LlmWorld()
    {
        server.addBlob("/m/tiny.gguf", tiny);
        server.addBlob("/m/mid.gguf", mid);
        if (!server.start())
            qFatal("server: %s", server.error().c_str());
        fs::create_directories(catalog);
        std::ofstream(catalog / "fixture-llm.json") << catalogJson().dump(1);
    }

    nlohmann::json model(const char* id, const char* name, const std::string& bytes, int vram,
                         const std::string& path) const
    {
        return {{"id", id},
                {"ui", {{"name", {{"en", name}, {"zh_CN", name}}}}},
                {"kind", "gguf"},
                {"workloads", {"llmstand"}},
                {"quant", "Q4_K_M"},
                {"min_vram_mb", vram},
                {"files",
                 {{{"url", server.url(path)},
                   {"sha256", Sha256::ofBytes(bytes.data(), bytes.size())},
                   {"size", bytes.size()}}}},
                {"references", {"https://example.org/llm-fixture"}}};
    }

    nlohmann::json catalogJson() const
    {
        using nlohmann::json;
        const std::string huge(16, 'x'); // never pulled: its size is what the catalog says
        json hugeModel = model("huge", "Huge Test", huge, 999999, "/m/huge.gguf");
        hugeModel["files"][0]["size"] = std::uint64_t(100) << 30;
        return {{"schema_version", 1},
                {"workloads",
                 {{{"id", "llmstand"},
                   {"name", "LLM stand-in"},
                   {"command",
                    {"sh", "-c", "printf '%s\\n' \"$@\" > '" + argsFile.string() + "'", "sh"}},
                   {"model",
                    {{"kinds", {"gguf"}},
                     {"args",
                      {"-m", "{model}", "-c", "{model_context}", "-ngl", "{model_gpu_layers}"}}}},
                   {"references", {"https://example.org/llm-fixture"}}}}},
                {"profiles",
                 {{{"id", "llmstand-any"},
                   {"workload", "llmstand"},
                   {"status", "community"},
                   {"match", {{"os", {"linux"}}}},
                   {"references", {"https://example.org/llm-fixture"}}}}},
                {"models",
                 {model("tiny", "Tiny Test", tiny, 512, "/m/tiny.gguf"),
                  model("mid", "Mid Test", mid, 1024, "/m/mid.gguf"), hugeModel}}};
    }

    std::vector<std::string> received() const { return readLines(argsFile); }
};

QString cell(gui::ModelsDialog& d, const QString& id, int column)
{
    const int row = d.rowOf(id);
    return row < 0 || !d.table()->item(row, column) ? QString()
                                                    : d.table()->item(row, column)->text();
}

void shot(QWidget& w, const char* name)
{
    const QByteArray dir = qgetenv("GUI_SHOTS");
    if (!dir.isEmpty())
        w.grab().save(QString::fromUtf8(dir) + QLatin1Char('/') + QLatin1String(name));
}

} // namespace

class TestGuiLlm : public QObject
{
    Q_OBJECT
private slots:
    void chooseAModelPullItAndLaunchWithIt()
    {
        LlmWorld l;
        gui::AppController::Options o;
        o.snapshot = GuiWorld::snapshot(); // an RX 7900 XTX, 24 GiB
        o.catalogDirs = {l.catalog};
        TestWindow ui(std::make_unique<gui::AppController>(o));
        QVERIFY(ui.ready());
        ui.choose(QStringLiteral("llmstand"));

        // The chooser: smallest first; the largest that fits is chosen; the huge one says
        // it does not fit.
        QComboBox* chooser = ui.window->card()->modelChooser();
        QVERIFY(chooser->isVisibleTo(ui.window.get()));
        QCOMPARE(chooser->count(), 3);
        QCOMPARE(chooser->currentData().toString(), QStringLiteral("mid"));
        QVERIFY2(chooser->itemText(2).contains(QStringLiteral("too large for this card")),
                 qPrintable(chooser->itemText(2)));
        QVERIFY(!chooser->itemText(0).contains(QStringLiteral("too large")));

        // Choose the tiny one: remembered in settings.json.
        chooser->setCurrentIndex(0);
        emit chooser->activated(0);
        QVERIFY(waitFor([&] {
            return ui.app->modelFor(QStringLiteral("llmstand")) == QStringLiteral("tiny");
        }));
        QVERIFY(
            waitFor([&] { return chooser->currentData().toString() == QStringLiteral("tiny"); }));
        shot(*ui.window, "model-chooser.png");

        // One click: the checklist names the model and its size, then the run pulls it and
        // launches the workload with it.
        ui.primary()->click();
        // The stand-in's shell makes the file before it writes the arguments: wait for them
        // (a fresh-clone CI read the file empty once).
        QVERIFY(waitFor([&] { return l.received().size() >= 6; }, 30000));
        QVERIFY2(ui.asked.size() == 1 && ui.asked[0].contains(QStringLiteral("Model: Tiny Test")),
                 qPrintable(ui.asked.join(QLatin1Char('\n'))));
        const auto args = l.received();
        QCOMPARE(args.size(), std::size_t(6));
        QCOMPARE(args[0], std::string("-m"));
        QCOMPARE(fs::path(args[1]).parent_path(), l.w.home / "data" / "models" / "blobs");
        std::ifstream in(args[1], std::ios::binary);
        QVERIFY(std::string(std::istreambuf_iterator<char>(in), {}) == l.tiny);
        QVERIFY(waitFor([&] { return ui.app->phase() == Phase::Ready; }, 20000));

        // The Models view: tiny is downloaded; mid pulls with progress, pauses at the
        // stall, and resumes with what is missing.
        gui::ModelsDialog* models = ui.window->openModels();
        QVERIFY(waitFor([&] {
            return cell(*models, QStringLiteral("tiny"), 4) == QStringLiteral("Downloaded");
        }));
        QVERIFY2(models->summaryText().startsWith(QStringLiteral("1 model(s) in the vault")),
                 qPrintable(models->summaryText()));
        const std::uint64_t stallAt = 12u << 20;
        l.server.setFault("/m/mid.gguf", Fault::stallAfter(stallAt, std::chrono::seconds(20)));
        l.server.resetStats();
        models->table()->selectRow(models->rowOf(QStringLiteral("mid")));
        QVERIFY(models->downloadButton()->isEnabled());
        models->downloadButton()->click();
        QVERIFY2(waitFor([&] {
                     return cell(*models, QStringLiteral("mid"), 4)
                         .startsWith(QStringLiteral("Downloading… 3"));
                 }),
                 qPrintable(cell(*models, QStringLiteral("mid"), 4)));
        shot(*models, "models-view.png");
        QCOMPARE(gui::withoutMnemonic(models->downloadButton()->text()),
                 QStringLiteral("Download"));
        QVERIFY(!models->downloadButton()->isEnabled()); // one pull at a time
        QVERIFY(models->pauseButton()->isEnabled());
        models->pauseButton()->click();
        QVERIFY(waitFor(
            [&] {
                return cell(*models, QStringLiteral("mid"), 4).startsWith(QStringLiteral("Paused"));
            },
            20000));
        QCOMPARE(gui::withoutMnemonic(models->downloadButton()->text()), QStringLiteral("Resume"));
        const std::uint64_t first = l.server.stats("/m/mid.gguf").bodyBytes;
        l.server.clearFaults();
        l.server.resetStats();
        models->downloadButton()->click();
        QVERIFY(waitFor(
            [&] { return cell(*models, QStringLiteral("mid"), 4) == QStringLiteral("Downloaded"); },
            30000));
        // Resumed: the second request sent what the first did not, not the whole file.
        const std::uint64_t second = l.server.stats("/m/mid.gguf").bodyBytes;
        QVERIFY2(second <= (l.mid.size() - first) * 11 / 10,
                 qPrintable(QStringLiteral("first %1, second %2 of %3")
                                .arg(first)
                                .arg(second)
                                .arg(l.mid.size())));

        // Remove: only the vault's own copy goes.
        models->table()->selectRow(models->rowOf(QStringLiteral("mid")));
        QVERIFY(models->removeButton()->isEnabled());
        models->removeButton()->click();
        QVERIFY(waitFor([&] {
            return cell(*models, QStringLiteral("mid"), 4) == QStringLiteral("Not downloaded");
        }));
        QVERIFY(fs::exists(args[1])); // tiny stays
        models->close();
    }
};

QTEST_MAIN(TestGuiLlm)
#include "test_gui_llm.moc"
