// The window in Simplified Chinese: every text a user can read, for every workload of
// recorded machines (an AMD card, an NVIDIA card, no GPU), and the failure cards, holds
// no English word except names (products, GPUs, files: core/catalog/user_text.h); every
// user text of the shipped catalog has its Chinese form; Qt's own buttons are
// translated; and a language change in settings applies without a restart.

#include "app/gui/i18n.h"
#include "app/gui/widgets/failure_card.h"
#include "app/gui/widgets/gpu_panel.h"
#include "app/gui/widgets/main_window.h"
#include "app/gui/widgets/profile_card.h"
#include "core/catalog/user_text.h"
#include "core/qt_text.h"
#include "core/settings.h"
#include "visible_text.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>

using namespace sp;
using gui::AppController;
using sp::test::visibleTexts;

namespace {

// Names the window shows beside the catalog's: GPU targets ("gfx1031") and the vendor
// tools StackPilot checks with (the GPU panel's "Checked with:"), and key names.
bool windowName(const std::string& word)
{
    static const QRegularExpression names(
        QStringLiteral("^(gfx[0-9a-f]+|hipinfo|nvml|rocminfo|nvidia-smi|sysfs|dxgi|Ctrl)$"));
    return names.match(qs(word)).hasMatch();
}

// The English words of the texts, each with the text it was found in.
QStringList englishIn(const QStringList& texts)
{
    QStringList out;
    for (const QString& t : texts)
        for (const std::string& w : untranslatedWords(t.toStdString()))
            if (!windowName(w))
                out << QStringLiteral("%1 (in \"%2\")").arg(qs(w), t.left(120));
    out.removeDuplicates();
    return out;
}

// Waits as long as the other window tests do: a full ctest run at -j2 beside the
// benchmarks can hold a replan of every workload for seconds.
template <class Pred> bool settles(Pred done)
{
    return QTest::qWaitFor(done, 20000);
}

struct Window
{
    std::unique_ptr<AppController> app;
    std::unique_ptr<gui::MainWindow> window;

    explicit Window(const QString& fixture)
    {
        AppController::Options o;
        o.hardwareFile =
            toPath(QStringLiteral(STACKPILOT_SOURCE_DIR "/tests/gui/fixtures/") + fixture);
        app = std::make_unique<AppController>(o);
        window = std::make_unique<gui::MainWindow>(app.get());
        window->resize(1180, 780);
        window->show();
        app->start();
    }
    bool ready()
    {
        return QTest::qWaitFor(
            [&] {
                return app->phase() == AppController::Phase::Ready ||
                       !app->detectionError().isEmpty();
            },
            20000);
    }
};

} // namespace

class TestGuiZh : public QObject
{
    Q_OBJECT
    QTemporaryDir m_home;

private slots:
    void initTestCase()
    {
        qputenv("STACKPILOT_HOME", m_home.path().toUtf8());
        // As a user has it: the language in settings.json, read at start (main.cpp).
        Settings s;
        s.language = "zh_CN";
        QVERIFY(s.save(Settings::defaultFile()).ok());
        gui::setLanguage("zh_CN");
    }

    void everyWorkloadOfRecordedMachinesIsChinese_data()
    {
        QTest::addColumn<QString>("fixture");
        QTest::newRow("amd") << QStringLiteral("seed000-windows-rx6750xt.json");
        QTest::newRow("nvidia") << QStringLiteral("windows-rtx5090.json");
        QTest::newRow("no gpu") << QStringLiteral("windows-no-gpu.json");
    }

    void everyWorkloadOfRecordedMachinesIsChinese()
    {
        QFETCH(QString, fixture);
        Window w(fixture);
        QVERIFY(w.ready());
        w.window->ensureBuilt();
        QStringList english;
        int workloads = 0;
        for (const QString& id : w.app->workloads()) {
            w.app->setWorkload(id);
            w.window->card()->setDetailsShown(true); // what gets installed, too
            QTest::qWait(20);
            english << englishIn(visibleTexts(w.window.get()));
            ++workloads;
        }
        english.removeDuplicates();
        QVERIFY(workloads >= 6);
        // Each entry of the chooser says what its workload is for (issue 33, item 10).
        QComboBox* chooser = w.window->workloadChooser();
        for (int i = 0; i < chooser->count(); ++i) {
            const QString about = chooser->itemData(i, Qt::ToolTipRole).toString();
            QVERIFY2(!about.isEmpty(), qPrintable(chooser->itemText(i)));
            english << englishIn({about});
        }
        QVERIFY2(english.isEmpty(), qPrintable(english.join(QLatin1Char('\n'))));
    }

    void theDetectionFailureCardIsChinese()
    {
        Window w(QStringLiteral("missing-machine.json"));
        QVERIFY(w.ready());
        gui::FailureCard* card = w.window->detectionFailureCard();
        QVERIFY(settles([&] { return card->isVisible(); }));
        const QStringList english = englishIn(visibleTexts(w.window.get()));
        QVERIFY2(english.isEmpty(), qPrintable(english.join(QLatin1Char('\n'))));
    }

    void everyCatalogUserTextIsChinese()
    {
        Window w(QStringLiteral("seed000-windows-rx6750xt.json"));
        QVERIFY(w.ready());
        const Catalog& c = *w.app->catalog();
        QStringList texts;
        auto add = [&](const UserText& t) { texts << qs(t.zhCN); };
        for (const auto& p : c.profiles) {
            add(p.ui.route);
            add(p.ui.summary);
            for (const auto& x : p.ui.warnings)
                add(x);
        }
        for (const auto& x : c.workloads) {
            add(x.ui.name);
            add(x.ui.about);
        }
        for (const auto& k : c.knownIssues) {
            add(k.ui.title);
            add(k.ui.fix);
        }
        QVERIFY(texts.size() > 300);
        QVERIFY2(!texts.contains(QString()), "a user text has no Chinese form");
        const QStringList english = englishIn(texts);
        QVERIFY2(english.isEmpty(), qPrintable(english.join(QLatin1Char('\n'))));
    }

    void standardButtonsAreTranslated()
    {
        QDialogButtonBox box(QDialogButtonBox::Save | QDialogButtonBox::Cancel |
                             QDialogButtonBox::Yes | QDialogButtonBox::No);
        QCOMPARE(box.button(QDialogButtonBox::Save)->text(), QStringLiteral("保存"));
        QCOMPARE(box.button(QDialogButtonBox::Cancel)->text(), QStringLiteral("取消"));
        QVERIFY(!box.button(QDialogButtonBox::Yes)->text().contains(QLatin1String("Yes")));
    }

    void aLanguageChangeAppliesAtOnce()
    {
        Window w(QStringLiteral("seed000-windows-rx6750xt.json"));
        QVERIFY(w.ready());
        w.window->ensureBuilt();
        QVERIFY(settles(
            [&] { return w.window->card()->captionText() == QStringLiteral("为您的电脑推荐"); }));
        // As the Settings dialog does it: the file changes, the window follows.
        auto to = [&](const char* language) {
            w.app->updateSettings([language](Settings& s) {
                s.language = language;
                return Expected<void>();
            });
        };
        to("en");
        QVERIFY(settles([&] {
            return w.window->card()->captionText() == QStringLiteral("Recommended for your PC");
        }));
        QVERIFY(settles([&] {
            return w.window->card()->titleText().startsWith(QStringLiteral("SD.Next on your"));
        }));
        to("zh_CN");
        QVERIFY(settles(
            [&] { return w.window->card()->captionText() == QStringLiteral("为您的电脑推荐"); }));
        QVERIFY(settles(
            [&] { return w.window->card()->titleText().contains(QStringLiteral("上运行")); }));
    }

    // Issue 33, item 5: on a PC with no GPU, and after a failed detection, a language
    // change redraws the GPU panel, the failure card and the status bar, and never
    // starts detection again.
    void aLanguageChangeRedrawsEveryPanel_data()
    {
        QTest::addColumn<QString>("fixture");
        QTest::newRow("no gpu") << QStringLiteral("windows-no-gpu.json");
        QTest::newRow("detection failed") << QStringLiteral("missing-machine.json");
    }

    void aLanguageChangeRedrawsEveryPanel()
    {
        QFETCH(QString, fixture);
        Window w(fixture);
        QVERIFY(w.ready());
        w.window->ensureBuilt();
        const bool failed = !w.app->detectionError().isEmpty();
        // Detection can fail before the settings are read: they are read first, as the
        // Settings dialog needs them.
        QVERIFY(settles([&] { return w.app->catalog() != nullptr; }));
        bool detectingAgain = false;
        connect(w.app.get(), &AppController::phaseChanged, this, [&] {
            detectingAgain = detectingAgain || w.app->phase() == AppController::Phase::Detecting;
        });
        static const QRegularExpression cjk(QStringLiteral("[\\x{4e00}-\\x{9fff}]"));
        auto shown = [&] {
            QStringList out{w.window->gpuPanel()->headline(),
                            w.window->statusBar()->currentMessage()};
            if (failed)
                out << w.window->detectionFailureCard()->titleText();
            return out;
        };
        for (const char* language : {"en", "zh_CN"}) {
            w.app->updateSettings([language](Settings& s) {
                s.language = language;
                return Expected<void>();
            });
            const bool chinese = QLatin1String(language) == QLatin1String("zh_CN");
            QVERIFY2(settles([&] {
                         const QStringList now = shown();
                         return std::all_of(now.begin(), now.end(), [&](const QString& t) {
                             return !t.isEmpty() && t.contains(cjk) == chinese;
                         });
                     }),
                     qPrintable(shown().join(QLatin1Char('|'))));
            const QString detecting =
                QCoreApplication::translate("sp::gui::GpuPanel", "Detecting your GPU…");
            QVERIFY2(w.window->gpuPanel()->headline() != detecting, qPrintable(detecting));
        }
        QVERIFY(!detectingAgain);
    }
};

QTEST_MAIN(TestGuiZh)
#include "test_gui_zh.moc"
