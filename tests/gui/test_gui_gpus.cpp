// Issue 31 in the window: the card's GPU chooser (only with more than one GPU), the card
// naming the chosen GPU, and two workloads launched on two GPUs at once, each stopped on
// its own (the card's Stop and the tray's). The PC is the recorded RTX 4090 + RTX 3060
// (tests/gpu/pcs), imported from its nvidia-smi and lspci outputs; the workloads are
// stand-ins (python3 serving HTTP) that print the CUDA devices they were given.

#include "app/gui/widgets/profiles_menu.h"
#include "detectors/import/snapshot_import.h"
#include "gui_fixture.h"
#include "tests/support/loopback.h"

#include <QMenu>

using namespace sp;
using namespace sp::test;
using Phase = gui::AppController::Phase;

namespace {

const char* const kStandIn = R"PY(import http.server, os, socketserver, sys
port = int(sys.argv[1])
print("stand-in sees CUDA_VISIBLE_DEVICES=%s" % os.environ.get("CUDA_VISIBLE_DEVICES"), flush=True)
socketserver.TCPServer.allow_reuse_address = True
with socketserver.TCPServer(("127.0.0.1", port), http.server.SimpleHTTPRequestHandler) as s:
    print("Serving on http://127.0.0.1:%d/" % port, flush=True)
    s.serve_forever()
)PY";

// Two stand-in workloads on a system CUDA runtime that pins the device by PCI order; each
// profile says how much memory it needs, for the shared-card warning.
nlohmann::json gpuCatalog(const std::string& script, int portA, int portB)
{
    using nlohmann::json;
    const json cuda = {{"variable", "CUDA_VISIBLE_DEVICES"},
                       {"api", "cuda"},
                       {"with", {{"CUDA_DEVICE_ORDER", "PCI_BUS_ID"}}},
                       {"why", "CUDA exposes only the listed devices (https://docs.nvidia.com/cuda/"
                               "cuda-programming-guide/05-appendices/environment-variables.html)"}};
    json doc = {{"schema_version", 1},
                {"runtimes",
                 {{{"id", "standin-cuda"},
                   {"kind", "cuda-driver"},
                   {"version", "13.0"},
                   {"system", true},
                   {"os", {"linux"}},
                   {"visible_devices", {cuda}},
                   {"references", {"https://docs.nvidia.com/cuda/"}}}}},
                {"workloads", json::array()},
                {"profiles", json::array()}};
    for (const auto& [w, port] : {std::pair{"standin-a", portA}, std::pair{"standin-b", portB}}) {
        doc["workloads"].push_back({{"id", w},
                                    {"name", std::string("Stand-in ") + w[8]},
                                    {"command", {"python3", script, std::to_string(port)}},
                                    {"url_regex", "Serving on *(\\S+)"},
                                    {"default_port", port},
                                    {"references", {"https://example.org/standin"}}});
        doc["profiles"].push_back(
            {{"id", std::string(w) + "-cuda"},
             {"workload", w},
             {"status", "community"},
             {"match", {{"os", {"linux"}}, {"vendor", "nvidia"}, {"min_vram_mb", 8192}}},
             {"runtimes", {"standin-cuda"}},
             {"references", {"https://example.org/standin"}}});
    }
    return doc;
}

QString consoleText(gui::AppController& app)
{
    QList<int> rows;
    for (int i = 0; i < app.console().rowCount(); ++i)
        rows << i;
    return app.console().text(rows);
}

// Picks the chooser's entry whose text contains `name`, as a user's click does.
bool pickGpu(QComboBox* chooser, const QString& name)
{
    for (int i = 0; i < chooser->count(); ++i)
        if (chooser->itemData(i).toInt() >= 0 && chooser->itemText(i).contains(name)) {
            chooser->setCurrentIndex(i);
            emit chooser->activated(i);
            return true;
        }
    return false;
}

// With GUI_SHOTS=DIR (under Xvfb, for docs/screenshots), the window as the test sees it.
void shot(QWidget& w, const char* name)
{
    const QByteArray dir = qgetenv("GUI_SHOTS");
    if (dir.isEmpty())
        return;
    QTest::qWait(400);
    w.grab().save(QString::fromUtf8(dir) + QLatin1Char('/') + QLatin1String(name));
}

QAction* actionNamed(QMenu* menu, const QString& name)
{
    for (QAction* a : menu->actions())
        if (a->objectName() == name)
            return a;
    return nullptr;
}

} // namespace

class TestGuiGpus : public QObject
{
    Q_OBJECT
private slots:
    void oneGpuShowsNoChooser()
    {
        GuiWorld w;
        TestWindow ui(w.controller());
        QVERIFY(ui.ready());
        QVERIFY(!ui.window->card()->gpuChooser()->isVisibleTo(ui.window.get()));
    }

    void twoWorkloadsOnTwoGpusEachStopped()
    {
        GuiWorld w;
        const fs::path cat = w.root / "gpu-catalog";
        fs::create_directories(cat);
        std::ofstream(w.root / "standin.py") << kStandIn;
        const int portA = freePort(), portB = freePort();
        std::ofstream(cat / "fixture-gpus.json")
            << gpuCatalog((w.root / "standin.py").string(), portA, portB).dump(1);
        const std::string pc = GPU_PCS_DIR "/rtx4090-rtx3060/";
        auto snap = importSnapshotFiles({pc + "nvidia-smi.txt", pc + "lspci.txt"}, {"linux"});
        QVERIFY2(snap, snap ? "" : snap.error().message.c_str());
        QCOMPARE(snap->gpus.size(), std::size_t(2));
        gui::AppController::Options o;
        o.snapshot = *snap;
        o.catalogDirs = {cat};
        TestWindow ui(std::make_unique<gui::AppController>(o));
        QVERIFY(ui.ready());
        gui::AppController& app = *ui.app;
        QStringList notices;
        connect(&app, &gui::AppController::notice, this,
                [&](const QString& text, bool) { notices << text; });

        // The chooser: the default rule first (it picks the 4090), then each card.
        ui.choose(QStringLiteral("standin-a"));
        QComboBox* chooser = ui.window->card()->gpuChooser();
        QVERIFY(chooser->isVisibleTo(ui.window.get()));
        QCOMPARE(chooser->count(), 3);
        QVERIFY2(chooser->itemText(0).contains(QStringLiteral("4090")),
                 qPrintable(chooser->itemText(0)));

        // A on the 4090, chosen by the user: remembered by its bus in settings.json, and
        // the card names it.
        QVERIFY(pickGpu(chooser, QStringLiteral("4090")));
        QVERIFY(waitFor([&] {
            const auto* v = app.plan(QStringLiteral("standin-a"));
            return app.gpuChoiceOf(QStringLiteral("standin-a")) >= 0 && v &&
                   v->headline.contains(QStringLiteral("4090"));
        }));
        QVERIFY(waitFor([&] {
            std::ifstream in(w.home / "config" / "settings.json");
            const std::string s{std::istreambuf_iterator<char>(in), {}};
            return s.find("\"pci_bus\"") != std::string::npos;
        }));
        QVERIFY(ui.window->card()->titleText().contains(QStringLiteral("4090")) ||
                app.currentPlan()->headline.contains(QStringLiteral("4090")));
        ui.primary()->click();
        QVERIFY(waitFor([&] { return app.phase() == Phase::Running && acceptsConnections(portA); },
                        60000));
        // CUDA in PCI order: the 3060 at 01:00.0 is 0, the 4090 is 1.
        QVERIFY(waitFor(
            [&] { return consoleText(app).contains(QStringLiteral("CUDA_VISIBLE_DEVICES=1")); }));

        // B on the 3060, beside it: its card says Launch, not A's Stop.
        ui.choose(QStringLiteral("standin-b"));
        QVERIFY(pickGpu(ui.window->card()->gpuChooser(), QStringLiteral("3060")));
        QVERIFY(waitFor([&] {
            const auto* v = app.plan(QStringLiteral("standin-b"));
            return v && v->headline.contains(QStringLiteral("3060"));
        }));
        QCOMPARE(ui.primaryText(), QStringLiteral("Launch"));
        QVERIFY(ui.primary()->isEnabled());
        ui.primary()->click();
        QVERIFY(
            waitFor([&] { return app.runningWorkloads().size() == 2 && acceptsConnections(portB); },
                    60000));
        QVERIFY(waitFor(
            [&] { return consoleText(app).contains(QStringLiteral("CUDA_VISIBLE_DEVICES=0")); }));
        QVERIFY(acceptsConnections(portA));
        QVERIFY2(std::none_of(notices.begin(), notices.end(),
                              [](const QString& n) { return n.contains(QStringLiteral("share")); }),
                 qPrintable(notices.join(QLatin1Char('\n'))));

        shot(*ui.window, "two-gpus.png");
        // The tray lists both, each with the card it runs on and its own Stop.
        gui::ProfilesMenu* tray = ui.window->trayMenu();
        if (!qEnvironmentVariableIsEmpty("GUI_SHOTS")) {
            tray->popup(ui.window->geometry().center());
            shot(*tray, "two-gpus-tray.png");
            tray->hide();
        }
        QStringList texts;
        for (QAction* a : tray->actions())
            texts << a->text();
        QVERIFY2(texts.contains(QStringLiteral("Running: Stand-in a on NVIDIA GeForce RTX 4090")),
                 qPrintable(texts.join(QLatin1Char('|'))));
        QVERIFY2(texts.contains(QStringLiteral("Running: Stand-in b on NVIDIA GeForce RTX 3060")),
                 qPrintable(texts.join(QLatin1Char('|'))));

        // Stop A (in the background now) from the tray: B serves on.
        QAction* stopA = actionNamed(tray, QStringLiteral("stop:standin-a"));
        QVERIFY(stopA);
        stopA->trigger();
        QVERIFY(waitFor([&] { return !acceptsConnections(portA); }, 20000));
        QVERIFY(waitFor(
            [&] { return app.runningWorkloads() == QStringList{QStringLiteral("standin-b")}; }));
        QVERIFY(acceptsConnections(portB));
        QCOMPARE(app.phase(), Phase::Running);

        // A again, on B's card this time: allowed, with a warning naming what both need.
        ui.choose(QStringLiteral("standin-a"));
        QCOMPARE(ui.primaryText(), QStringLiteral("Launch"));
        QVERIFY(pickGpu(ui.window->card()->gpuChooser(), QStringLiteral("3060")));
        QVERIFY(waitFor([&] {
            return app.plan(QStringLiteral("standin-a"))->headline.contains(QStringLiteral("3060"));
        }));
        // The plan for the new card may still be settling (a busy machine): click the
        // button once it takes a click, as a user would.
        QVERIFY(waitFor([&] {
            return ui.primary()->isEnabled() && ui.primaryText() == QStringLiteral("Launch");
        }));
        ui.primary()->click();
        QVERIFY2(
            waitFor([&] { return app.runningWorkloads().size() == 2 && acceptsConnections(portA); },
                    60000),
            qPrintable(
                QStringLiteral("running: %1; phase %2; button %3; notices:\n%4\nconsole:\n%5")
                    .arg(app.runningWorkloads().join(QLatin1Char(',')))
                    .arg(int(app.phase()))
                    .arg(ui.primaryText())
                    .arg(notices.join(QLatin1Char('\n')), consoleText(app).right(3000))));
        const auto shared = std::find_if(notices.begin(), notices.end(), [](const QString& n) {
            return n.contains(QStringLiteral("already runs on NVIDIA GeForce RTX 3060"));
        });
        QVERIFY2(shared != notices.end(), qPrintable(notices.join(QLatin1Char('\n'))));
        QVERIFY2(shared->contains(QStringLiteral("8.0 GiB")) &&
                     shared->contains(QStringLiteral("12.0 GiB")),
                 qPrintable(*shared));

        // The card's Stop stops the workload it shows (B, in the background), and only it.
        ui.choose(QStringLiteral("standin-b"));
        QCOMPARE(ui.primaryText(), QStringLiteral("Stop"));
        ui.primary()->click();
        QVERIFY(waitFor([&] { return !acceptsConnections(portB); }, 20000));
        QVERIFY(waitFor(
            [&] { return app.runningWorkloads() == QStringList{QStringLiteral("standin-a")}; }));
        QVERIFY(acceptsConnections(portA));
        ui.choose(QStringLiteral("standin-a"));
        QCOMPARE(ui.primaryText(), QStringLiteral("Stop"));
        ui.primary()->click();
        QVERIFY(waitFor([&] { return !acceptsConnections(portA) && app.phase() == Phase::Ready; },
                        20000));
        QVERIFY(app.runningWorkloads().isEmpty());
    }
};

QTEST_MAIN(TestGuiGpus)
#include "test_gui_gpus.moc"
