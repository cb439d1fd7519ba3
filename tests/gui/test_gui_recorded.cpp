// A recorded PC (--hardware) in the window: its plans are made with exactly the inputs
// `stackpilot-cli plan` uses (this machine's smoke-test records of that card included),
// and nothing of this PC is written or shown: switching the profile, applying a remedy,
// pressing Install and quitting leave every file of StackPilot's as it was.

#include "app/gui/widgets/main_window.h"
#include "core/evidence/evidence.h"
#include "core/paths.h"
#include "core/qt_text.h"
#include "core/select/select.h"
#include "gui_fixture.h"
#include "installers/install_journal.h"

#include <QProcess>
#include <QPushButton>
#include <fstream>
#include <map>
#include <sstream>

using namespace sp;
using namespace sp::test;
using gui::AppController;
using Phase = AppController::Phase;

namespace {

// Every file under `dir`, with its bytes.
std::map<std::string, std::string> filesUnder(const fs::path& dir)
{
    std::map<std::string, std::string> out;
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(dir, ec); it != fs::end(it); ++it) {
        if (!it->is_regular_file())
            continue;
        std::ifstream in(it->path(), std::ios::binary);
        std::ostringstream bytes;
        bytes << in.rdbuf();
        out[it->path().string()] = bytes.str();
    }
    return out;
}

std::unique_ptr<AppController> recorded(const fs::path& snapshot,
                                        std::vector<fs::path> catalogDirs = {})
{
    AppController::Options o;
    o.hardwareFile = snapshot;
    o.catalogDirs = std::move(catalogDirs);
    return std::make_unique<AppController>(o);
}

// `stackpilot-cli plan --hardware F --workload W --json`'s profile.
QString cliProfile(const fs::path& snapshot, const QString& workload)
{
    QProcess p;
    p.start(QStringLiteral(STACKPILOT_BINARY_DIR "/bin/stackpilot-cli"),
            {QStringLiteral("plan"), QStringLiteral("--hardware"), qpath(snapshot),
             QStringLiteral("--workload"), workload, QStringLiteral("--json")});
    if (!p.waitForFinished(60000) || p.exitCode() != 0)
        return QStringLiteral("<plan failed: %1>").arg(QString::fromUtf8(p.readAllStandardError()));
    const auto j = nlohmann::json::parse(p.readAllStandardOutput().toStdString());
    const auto it = j.find("profile"); // {"id", "status"}; null when no profile fits
    return it != j.end() && it->is_object() ? QString::fromStdString(it->value("id", std::string()))
                                            : QString();
}

} // namespace

class TestGuiRecorded : public QObject
{
    Q_OBJECT
private slots:
    void aRecordedPcIsReadOnly()
    {
        GuiWorld w;
        const fs::path snap = w.root / "recorded.json";
        std::ofstream(snap) << toJson(GuiWorld::snapshot()).dump(2);
        // This PC's state: its own choice, an interrupted install, a smoke-test record.
        QVERIFY(Settings::update(Settings::defaultFile(), [](Settings& s) {
                    s.workloads["guiwork"].profile = "gui-a";
                    return Expected<void>();
                }).ok());
        QVERIFY(
            writePendingInstall(pendingInstallFile(paths::dataDir()),
                                PendingInstall{"guiwork", "gui-a", {"gui-rt-1"}, "2026-11-01", {}})
                .ok());
        EvidenceRecord r;
        r.at = "2026-11-01T00:00:00Z";
        r.workload = "guiwork";
        r.profile = "gui-b";
        r.machine = fingerprintOf(GuiWorld::snapshot(), 0);
        QVERIFY(EvidenceStore(EvidenceStore::defaultFile()).add(r).ok());
        const auto before = filesUnder(w.home);
        QVERIFY(before.size() >= 3);

        {
            auto app = recorded(snap, {w.catalogDir});
            gui::MainWindow window(app.get());
            window.setConfirm([](const QString&, const QString&) { return true; });
            window.show();
            app->start();
            QVERIFY(waitFor([&] { return app->phase() == Phase::Ready; }));
            app->setWorkload(QStringLiteral("guiwork"));
            QVERIFY(waitFor([&] { return app->currentPlan() != nullptr; }));
            // Nothing of this PC: no interrupted install, not its choice.
            QVERIFY(!app->pendingInstall());
            QVERIFY(app->primaryText() != QStringLiteral("Resume install"));
            QVERIFY(!app->profileForced(QStringLiteral("guiwork")));
            // Switch the profile, apply a remedy, press Install: in the window only.
            app->chooseProfile(QStringLiteral("guiwork"), QStringLiteral("gui-b"), false);
            QVERIFY(
                waitFor([&] { return app->currentPlan()->profile == QStringLiteral("gui-b"); }));
            app->applyRemedy(QStringLiteral("gui-fixture-crash"));
            QTest::qWait(200);
            QVERIFY(!window.card()->primaryButton()->isEnabled());
            app->launch();
            app->primary();
            QTest::qWait(500);
            QCOMPARE(app->phase(), Phase::Ready);
            QVERIFY(!app->pendingInstall());
        } // quit
        QTest::qWait(200);
        const auto after = filesUnder(w.home);
        QCOMPARE(after.size(), before.size());
        for (const auto& [file, bytes] : before) {
            QVERIFY2(after.count(file), file.c_str());
            QVERIFY2(after.at(file) == bytes, file.c_str());
        }
        QVERIFY(!fs::exists(w.runtimeDir("gui-rt-1")));
    }

    // For three recorded PCs whose first-ranked profile failed its smoke test here, the
    // window and `plan --json` choose the same profile for every workload.
    void theWindowAndPlanChooseTheSameStack_data()
    {
        QTest::addColumn<QString>("fixture");
        QTest::newRow("amd") << QStringLiteral("seed000-windows-rx6750xt.json");
        QTest::newRow("nvidia") << QStringLiteral("windows-rtx5090.json");
        QTest::newRow("linux 7900 xtx") << QStringLiteral("(the fixture machine)");
    }

    void theWindowAndPlanChooseTheSameStack()
    {
        QFETCH(QString, fixture);
        GuiWorld w; // a home of its own
        fs::path snap =
            toPath(QStringLiteral(STACKPILOT_SOURCE_DIR "/tests/gui/fixtures/") + fixture);
        if (fixture.startsWith(QLatin1Char('('))) {
            snap = w.root / "linux-7900xtx.json";
            std::ofstream(snap) << toJson(GuiWorld::snapshot()).dump(2);
        }
        auto loaded = loadSnapshotFile(snap);
        QVERIFY(loaded.ok());
        auto app = recorded(snap);
        app->start();
        QVERIFY(waitFor([&] { return app->phase() == Phase::Ready; }, 30000));
        // The first-ranked profile of every workload fails its smoke test on this card.
        const EvidenceStore store(EvidenceStore::defaultFile());
        std::map<QString, QString> first;
        for (const QString& id : app->workloads()) {
            first[id] = cliProfile(snap, id);
            QVERIFY2(!first[id].startsWith(QLatin1Char('<')), qPrintable(first[id]));
            if (first[id].isEmpty())
                continue;
            EvidenceRecord r;
            r.at = "2026-11-28T00:00:00Z";
            r.workload = id.toStdString();
            r.profile = first[id].toStdString();
            r.passed = false;
            r.reason = "the fixture's smoke test failed";
            r.machine = fingerprintOf(*loaded, chooseGpu(*loaded));
            QVERIFY(store.add(r).ok());
        }
        // A new window, as after a restart, plans with them.
        app = recorded(snap);
        app->start();
        QVERIFY(waitFor([&] { return app->phase() == Phase::Ready; }, 30000));
        int moved = 0;
        for (const QString& id : app->workloads()) {
            const QString cli = cliProfile(snap, id);
            QVERIFY(app->plan(id));
            QCOMPARE(app->plan(id)->profile, cli);
            moved += cli != first[id] ? 1 : 0;
        }
        qInfo("%s: %d of %lld workloads moved off the profile that failed", qPrintable(fixture),
              moved, qlonglong(app->workloads().size()));
        QVERIFY(moved >= 1); // the records were used, by both
    }
};

QTEST_MAIN(TestGuiRecorded)
#include "test_gui_recorded.moc"
