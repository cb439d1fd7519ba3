#pragma once
// A world for the window's tests and screenshots: a loopback HTTP server serving one
// runtime archive, a fixture catalog whose workload is the stand-in UI built by the
// launch tests (it prints a URL on 0.0.0.0 and a failure line a fixture known issue
// matches), a Linux snapshot, and a private STACKPILOT_HOME.
//
// Profiles of workload "guiwork":
//   gui-a   tested: the stand-in prints the fixture failure line → known issue
//           gui-fixture-crash, whose remedy switches to gui-b;
//   gui-b   community: the stand-in runs without the failure line;
//   gui-c   community, but its runtime is PyTorch 2.9.0, which known issue
//           gui-fixture-broken-v2 rejects (the runtimes are fixtures: an archive
//           with a file in it, labelled as PyTorch builds so the window reads well).

#include "app/gui/controllers/app_controller.h"
#include "app/gui/widgets/main_window.h"
#include "app/gui/widgets/mnemonics.h"
#include "app/gui/widgets/profile_card.h"
#include "archive_builder.h"
#include "http_test_server.h"
#include "installers/sha256.h"

#include <QComboBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>

namespace sp::test {

namespace fs = std::filesystem;

// Written as JSON text: nested initializer lists are ambiguous in nlohmann::json.
inline const char* kKnownIssues = R"([
  {"id": "gui-fixture-crash", "title": "The fixture kernel failed",
   "applies": {"os": ["linux"]}, "signatures": ["fixture kernel failed"],
   "remedy": {"action": "switch_profile", "profile": "gui-b",
              "text": "Use the other fixture profile."},
   "references": ["https://example.org/gui-fixture-issue"]},
  {"id": "gui-fixture-broken-v2", "title": "The fixture PyTorch 2.9 build is broken",
   "applies": {"runtimes": [{"kind": "torch-wheels", "version": ">=2.9 <2.10"}]},
   "rejects_profiles": true, "signatures": ["fixture runtime two broke"],
   "remedy": {"action": "info", "text": "Use the 2.8 build."},
   "references": ["https://example.org/gui-fixture-v2"]}
])";

inline const char* kFailureLine = STACKPILOT_SOURCE_DIR "/tests/gui/fixtures/failure.log:1";

class GuiWorld
{
public:
    QTemporaryDir tmp;
    fs::path root = fs::path(tmp.path().toStdString());
    fs::path catalogDir = root / "catalog";
    fs::path home = root / "home";
    fs::path work = root / "work";
    HttpTestServer server;
    std::string archive;

    // `archiveBytes` of incompressible data, so progress is visible.
    explicit GuiWorld(std::size_t archiveBytes = 4 << 20)
    {
        qputenv("STACKPILOT_HOME", QByteArray::fromStdString(home.string()));
        qputenv("STACKPILOT_RUN", STACKPILOT_BINARY_DIR "/bin/stackpilot-run");
        fs::create_directories(work);
        // No "share this result?" dialog in a test that does not answer it (issue 34);
        // the tests of sharing ask for it (shareResults("ask")).
        shareResults("never");
        archive =
            buildArchive({TestEntry::file("gui-runtime/bin/tool.bin", mixedBytes(archiveBytes, 7)),
                          TestEntry::file("gui-runtime/README", "fixture runtime\n")},
                         "tar.gz");
        server.addBlob("/rt/gui-runtime.tar.gz", archive);
        if (!server.start())
            qFatal("test server: %s", server.error().c_str());
        writeCatalog();
    }

    // settings.json's share_results in this world's home.
    void shareResults(const char* mode) const
    {
        auto set = Settings::update(Settings::defaultFile(), [mode](Settings& st) {
            st.shareResults = mode;
            return Expected<void>();
        });
        if (!set)
            qFatal("settings: %s", set.error().message.c_str());
    }

    std::string runtimeJson(const std::string& id, const std::string& version) const
    {
        return nlohmann::json{{"id", id},
                              {"kind", "torch-wheels"},
                              {"version", version},
                              {"os", {"linux"}},
                              {"artifacts",
                               {{{"url", server.url("/rt/gui-runtime.tar.gz")},
                                 {"sha256", Sha256::ofBytes(archive.data(), archive.size())},
                                 {"size", archive.size()},
                                 {"format", "tar.gz"},
                                 {"strip_components", 1}}}},
                              {"references", {"https://example.org/gui-fixture"}}}
            .dump();
    }

    void writeCatalog()
    {
        using nlohmann::json;
        fs::create_directories(catalogDir);
        auto profile = [](const char* id, const char* status, const char* rt, json args) {
            const std::string route = std::string("Fixture route ") + char(std::toupper(id[4]));
            return json{{"id", id},
                        {"ui", {{"route", {{"en", route}, {"zh_CN", route}}}}},
                        {"workload", "guiwork"},
                        {"status", status},
                        {"runtimes", {rt}},
                        {"match", {{"os", {"linux"}}}},
                        {"args", args},
                        {"references", {"https://example.org/gui-fixture"}},
                        {"notes", std::string("Fixture profile ") + id + "."}};
        };
        const json doc = {
            {"schema_version", 1},
            {"runtimes",
             {json::parse(runtimeJson("gui-rt-1", "2.8.0")),
              json::parse(runtimeJson("gui-rt-2", "2.9.0"))}},
            {"workloads",
             {{{"id", "guiwork"},
               {"name", "Stand-in UI"},
               {"command",
                {STANDIN_WORKLOAD, "--env-out", (work / "env.bin").string(), "--pids-out",
                 (work / "pids").string(), "--cache-var", "TORCH_HOME", "--child-ms", "60000",
                 "--chatty", "8"}},
               {"cwd", work.string()},
               {"references", {"https://example.org/gui-fixture"}}}}},
            {"profiles",
             {profile("gui-a", "tested", "gui-rt-1", {"--mode", "serve", "--quote", kFailureLine}),
              profile("gui-b", "community", "gui-rt-1", {"--mode", "serve"}),
              profile("gui-c", "community", "gui-rt-2", {"--mode", "serve"})}},
            {"known_issues", json::parse(kKnownIssues)}};
        std::ofstream(catalogDir / "gui.json") << doc.dump(2);
    }

    static HardwareSnapshot snapshot()
    {
        HardwareSnapshot s;
        s.os.family = "linux";
        s.home.path = "/home/u";
        s.home.filesystem = "ext4";
        GpuInfo g;
        g.vendor = Vendor::Amd;
        g.name = "AMD Radeon RX 7900 XTX";
        g.pciId = "1002:744c";
        g.gfx = "gfx1100";
        g.vramMb = 24576;
        g.integrated = false;
        g.driverVersion = "6.8.0";
        g.sources = {"kfd", "drm"};
        s.gpus.push_back(g);
        ProbeResult p;
        p.name = "rocminfo";
        p.status = ProbeStatus::Ok;
        p.detail = "1 agent: gfx1100";
        s.probes.push_back(p);
        return s;
    }

    std::unique_ptr<gui::AppController> controller() const
    {
        gui::AppController::Options o;
        o.snapshot = snapshot();
        o.catalogDirs = {catalogDir.string()};
        return std::make_unique<gui::AppController>(o);
    }

    // A second workload: crash-a ranks first and dies by SIGSEGV once it has served its
    // URL; crash-b serves until stopped.
    void addCrashWorkload() const
    {
        using nlohmann::json;
        auto profile = [](const char* id, const char* status, json args) {
            return json{{"id", id},
                        {"workload", "crashwork"},
                        {"status", status},
                        {"runtimes", {"gui-rt-1"}},
                        {"match", {{"os", {"linux"}}}},
                        {"args", args},
                        {"references", {"https://example.org/gui-fixture"}}};
        };
        const json doc = {{"schema_version", 1},
                          {"workloads",
                           {{{"id", "crashwork"},
                             {"name", "Crashing UI"},
                             {"command",
                              {STANDIN_WORKLOAD, "--pids-out", (work / "crash-pids").string(),
                               "--child-ms", "300"}},
                             {"cwd", work.string()},
                             {"references", {"https://example.org/gui-fixture"}}}}},
                          {"profiles",
                           {profile("crash-a", "tested", {"--mode", "crash"}),
                            profile("crash-b", "community", {"--mode", "serve"})}}};
        std::ofstream(catalogDir / "crash.json") << doc.dump(2);
    }

    // A stand-in for stackpilot-cli: `detect` fails until the file `ok` exists, then
    // prints the fixture's snapshot.
    QString failingDetector() const
    {
        const fs::path snap = root / "snap.json";
        std::ofstream(snap) << toJson(snapshot()).dump();
        const fs::path script = root / "fake-cli";
        std::ofstream(script) << "#!/bin/sh\n"
                              << "if [ -e '" << (root / "ok").string() << "' ]; then cat '"
                              << snap.string() << "'; exit 0; fi\n"
                              << "echo 'detect: /sys/class/drm: Input/output error' >&2\nexit 1\n";
        fs::permissions(script, fs::perms::owner_all);
        return QString::fromStdString(script.string());
    }

    fs::path runtimeDir(const std::string& id) const { return home / "data" / "runtimes" / id; }
};

// Waits until `done()` holds, processing events; false on timeout.
template <class Pred> bool waitFor(Pred done, int ms = 20000);

// A shown window over a started controller, as a user has it. What the window asks
// (the checklist before an install, a confirmation) is recorded in `asked` and answered
// yes; a test may replace the answer with MainWindow::setConfirm.
struct TestWindow
{
    std::unique_ptr<gui::AppController> app;
    std::unique_ptr<gui::MainWindow> window;
    QStringList asked;
    QStringList shareQuestions;

    explicit TestWindow(std::unique_ptr<gui::AppController> controller) : app(std::move(controller))
    {
        window = std::make_unique<gui::MainWindow>(app.get());
        window->setConfirm([this](const QString&, const QString& text) {
            asked << text;
            return true;
        });
        // "Share this result?" (issue 34) is answered, never left open over the test.
        window->setShareAsk([this](const QString& question, const QString&) {
            shareQuestions << question;
            return gui::ShareAnswer::NotNow;
        });
        window->resize(1180, 780);
        window->show();
        app->start();
    }
    ~TestWindow()
    {
        window.reset();
        app.reset();
    }
    bool ready()
    {
        return waitFor([&] { return app->phase() == gui::AppController::Phase::Ready; });
    }
    void choose(const QString& workload)
    {
        QComboBox* c = window->workloadChooser();
        const int i = c->findData(workload);
        QVERIFY(i >= 0);
        c->setCurrentIndex(i);
        emit c->activated(i);
        QCOMPARE(app->workload(), workload);
    }
    QPushButton* primary() { return window->card()->primaryButton(); }
    // Its text as read, without the Alt+letter mark ("&Launch" is "Launch").
    QString primaryText() { return gui::withoutMnemonic(primary()->text()); }
};
template <class Pred> bool waitFor(Pred done, int ms)
{
    return QTest::qWaitFor(done, ms);
}

} // namespace sp::test
