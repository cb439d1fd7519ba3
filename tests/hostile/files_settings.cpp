// Issue 35, items 14 and 15 (settings): the Settings dialog put back, on OK, every field
// as it was when the dialog opened, so a remedy, a `catalog update --feed` or a CLI edit
// made meanwhile was reverted; and a dangling settings.json symlink was replaced by a
// regular file.

#include "app/gui/widgets/settings_dialog.h"
#include "core/settings.h"
#include "feed/feed_fixture.h"

#include <QCheckBox>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QtTest>
#include <nlohmann/json.hpp>

using namespace sp;
using namespace sp::test;

class HostileSettings : public QObject
{
    Q_OBJECT
    QTemporaryDir m_tmp;

    fs::path dir() const { return fs::path(m_tmp.path().toStdString()); }

private slots:
    void item14_settingsDialogKeepsChangesMadeWhileItWasOpen()
    {
        const fs::path file = dir() / "settings.json";
        writeAll(file, R"({"keep_launches": 20, "open_browser": false})");
        auto opened = Settings::loadFile(file);
        QVERIFY(opened);
        gui::SettingsDialog dialog(*opened);
        // Meanwhile another process edits the file: a remedy, a proxy, a download
        // setting the dialog does not show.
        auto other = Settings::update(file, [](Settings& s) {
            s.proxy = "http://127.0.0.1:3128";
            s.parallelDownloads = 7;
            s.stopGraceMs = 1234;
            s.workloads["sdnext"].profile = "sdnext-zluda";
            return Expected<void>();
        });
        QVERIFY(other);
        // ... and `catalog update --feed` adds a feed (a key the dialog never reads).
        auto doc = nlohmann::json::parse(readAll(file));
        doc["feeds"] = {{{"url", "https://lab.example/feed"}, {"pubkey", "RWQkey"}}};
        writeAll(file, doc.dump(2));

        dialog.keepLaunches()->setValue(11);
        QString error;
        auto change = dialog.changes(&error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY(Settings::update(file, change));

        auto saved = Settings::loadFile(file);
        QVERIFY(saved);
        QCOMPARE(saved->keepLaunches, 11); // the user's edit
        QCOMPARE(saved->proxy.value_or(""), std::string("http://127.0.0.1:3128")); // kept
        QCOMPARE(saved->parallelDownloads, 7);
        QCOMPARE(saved->stopGraceMs, 1234);
        QCOMPARE(saved->workloads.at("sdnext").profile, std::string("sdnext-zluda"));
        QVERIFY(nlohmann::json::parse(readAll(file)).contains("feeds"));
    }

    // Untouched, OK writes nothing the file did not already say.
    void item14_okWithoutEditsChangesNothing()
    {
        const fs::path file = dir() / "plain.json";
        writeAll(file, R"({"keep_launches": 20})");
        auto opened = Settings::loadFile(file);
        QVERIFY(opened);
        gui::SettingsDialog dialog(*opened);
        QVERIFY(Settings::update(file, [](Settings& s) {
            s.keepLaunches = 33;
            return Expected<void>();
        }));
        QVERIFY(Settings::update(file, dialog.changes()));
        QCOMPARE(Settings::loadFile(file)->keepLaunches, 33);
    }

    void item15_danglingSettingsLinkStaysALink()
    {
        fs::create_directories(dir() / "dotfiles");
        const fs::path link = dir() / "linked.json";
        fs::create_symlink(dir() / "dotfiles" / "settings.json", link);
        QVERIFY(Settings::update(link, [](Settings& s) {
            s.keepLaunches = 5;
            return Expected<void>();
        }));
        QVERIFY(fs::is_symlink(link));
        QCOMPARE(Settings::loadFile(dir() / "dotfiles" / "settings.json")->keepLaunches, 5);

        // A link into a folder that does not exist: refused, the link left as it is.
        const fs::path nowhere = dir() / "nowhere.json";
        fs::create_symlink(dir() / "gone" / "settings.json", nowhere);
        auto r = Settings::update(nowhere, [](Settings& s) {
            s.keepLaunches = 6;
            return Expected<void>();
        });
        QVERIFY(!r);
        QVERIFY2(r.error().message.find("link") != std::string::npos, r.error().message.c_str());
        QVERIFY(fs::is_symlink(nowhere));
        QVERIFY(!fs::exists(dir() / "gone"));
    }
};

QTEST_MAIN(HostileSettings)
#include "files_settings.moc"
