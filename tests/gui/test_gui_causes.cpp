// One failure, one cause, the same words in both front ends: for each fault of the
// loopback server (wrong bytes, 404, refused) and a full disk, the window's install card
// and `stackpilot-cli install` (in-process, on the same world) say the cause in the same
// words, in English and in Simplified Chinese. And a fault inside StackPilot itself (an
// exception on the session's worker) ends in a card, not a button left waiting.

#include "app/common/diag/cause_words.h"
#include "app/common/session/session.h"
#include "app/gui/i18n.h"
#include "app/gui/widgets/failure_card.h"
#include "app/gui/widgets/main_window.h"
#include "app/gui/widgets/profile_card.h"
#include "core/paths.h"
#include "core/qt_text.h"
#include "core/settings.h"
#include "gui_fixture.h"
#include "support/cli_runner.h"

#include <QComboBox>
#include <QPushButton>
#include <sys/mount.h>
#include <unistd.h>

using namespace sp;
using namespace sp::test;
using gui::FailureNotice;
using Phase = gui::AppController::Phase;

namespace {

enum class Fault_
{
    WrongBytes,
    Gone,
    Refused,
    DiskFull
};

// The data folder's runtimes on a 64 KiB tmpfs, for as long as it lives (root only:
// CI runs as root; elsewhere the test says it skipped that case).
struct SmallDisk
{
    fs::path at;
    bool mounted = false;
    explicit SmallDisk(fs::path dir) : at(std::move(dir))
    {
        fs::create_directories(at);
        mounted = ::geteuid() == 0 && ::mount("tmpfs", at.c_str(), "tmpfs", 0, "size=64k") == 0;
    }
    ~SmallDisk()
    {
        if (mounted)
            ::umount(at.c_str());
    }
};

Cause causeOf(Fault_ f)
{
    switch (f) {
    case Fault_::WrongBytes:
        return Cause::Checksum;
    case Fault_::Gone:
        return Cause::NotFound;
    case Fault_::Refused:
        return Cause::Network;
    case Fault_::DiskFull:
        break;
    }
    return Cause::DiskFull;
}

// The window's card for an install that meets `fault`; "" when it did not come up.
QString cardWords(GuiWorld& w, Fault_ fault)
{
    TestWindow ui(w.controller());
    if (!ui.ready())
        return QStringLiteral("(never ready)");
    ui.choose(QStringLiteral("guiwork"));
    if (fault == Fault_::Refused)
        w.server.stop();
    QTest::mouseClick(ui.primary(), Qt::LeftButton);
    gui::FailureCard* card = ui.window->failureCard();
    if (!waitFor([&] { return card->isVisible(); }, 60000))
        return QStringLiteral("(no card; phase %1, asked %2)")
            .arg(int(ui.app->phase()))
            .arg(ui.asked.join(QLatin1Char('|')));
    return card->causeText();
}

// What `stackpilot-cli install` says of the same fault, on the same world.
std::string cliWords(const GuiWorld& w)
{
    const CliRun r = runCliInProcess({QStringLiteral("install"), QStringLiteral("gui-rt-1"),
                                      QStringLiteral("--catalog-dir"), qpath(w.catalogDir)});
    return r.err;
}

} // namespace

class TestGuiCauses : public QObject
{
    Q_OBJECT

private slots:
    void theCardAndTheCliSayTheSameWords_data()
    {
        QTest::addColumn<int>("fault");
        QTest::addColumn<QString>("language");
        for (const char* lang : {"", "zh_CN"}) {
            const QString l = QString::fromLatin1(lang);
            QTest::newRow(qPrintable(QStringLiteral("wrong bytes ") + l))
                << int(Fault_::WrongBytes) << l;
            QTest::newRow(qPrintable(QStringLiteral("404 ") + l)) << int(Fault_::Gone) << l;
            QTest::newRow(qPrintable(QStringLiteral("refused ") + l)) << int(Fault_::Refused) << l;
            QTest::newRow(qPrintable(QStringLiteral("disk full ") + l))
                << int(Fault_::DiskFull) << l;
        }
    }

    void theCardAndTheCliSayTheSameWords()
    {
        QFETCH(int, fault);
        QFETCH(QString, language);
        const auto f = Fault_(fault);
        gui::setLanguage(language.toStdString());
        const QString words = causeWords(causeOf(f));
        const QString english = [&] {
            gui::setLanguage("");
            const QString en = causeWords(causeOf(f));
            gui::setLanguage(language.toStdString());
            return en;
        }();
        QVERIFY(language.isEmpty() ? words == english : words != english);
        GuiWorld w;
        std::unique_ptr<SmallDisk> disk;
        if (f == Fault_::DiskFull) {
            disk = std::make_unique<SmallDisk>(w.runtimeDir("gui-rt-1").parent_path());
            if (!disk->mounted)
                QSKIP("a full disk needs root for its tmpfs (CI runs as root)");
        }
        if (f == Fault_::WrongBytes)
            w.server.setFault("/rt/gui-runtime.tar.gz", Fault::corrupt(1000, -1));
        if (f == Fault_::Gone)
            w.server.setFault("/rt/gui-runtime.tar.gz", Fault::statusFor(404, -1));
        // As a user has it: the language in settings.json, which the window follows.
        Settings settings;
        settings.language = language.toStdString();
        QVERIFY(settings.save(Settings::defaultFile()).ok());
        const QString card = cardWords(w, f);
        QCOMPARE(card, words);
        const QString cli = QString::fromStdString(cliWords(w));
        QVERIFY2(cli.contains(words), qPrintable(cli));
        if (f == Fault_::WrongBytes) {
            QVERIFY(english.contains(QStringLiteral("the file is not the one expected")));
            QVERIFY(!english.contains(QStringLiteral("internet")) &&
                    !english.contains(QStringLiteral("connection")));
        }
        if (f == Fault_::Gone)
            QVERIFY(english.contains(QStringLiteral("no longer at this address")));
        QVERIFY(!fs::exists(w.runtimeDir("gui-rt-1") / "bin"));
        gui::setLanguage("");
    }

    // An exception on the session's worker: the window shows a card with Retry, and its
    // button is not left waiting.
    void aFaultOnTheWorkerShowsACard()
    {
        GuiWorld w;
        TestWindow ui(w.controller());
        QVERIFY(ui.ready());
        ui.choose(QStringLiteral("guiwork"));
        ui.app->session()->call([]() -> int { throw std::runtime_error("injected"); }, [](int) {});
        gui::FailureCard* card = ui.window->failureCard();
        QVERIFY(waitFor([&] { return card->isVisible(); }));
        QCOMPARE(card->causeText(), causeWords(Cause::Internal));
        QVERIFY(card->button(FailureNotice::Action::Retry));
        QVERIFY(waitFor([&] { return ui.app->phase() == Phase::Ready; }));
        QVERIFY(ui.primary()->isEnabled());
    }
};

QTEST_MAIN(TestGuiCauses)
#include "test_gui_causes.moc"
