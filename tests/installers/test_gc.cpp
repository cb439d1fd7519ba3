// Garbage collection in its home (installers/gc): the --partial-days parser refuses
// what could overflow, the injected clock decides what is old, only the fetcher's own
// partial names go, runtimes in use and system runtimes stay, and a dry run lists
// exactly what a real run removes.

#include "core/clock.h"
#include "core/ownership.h"
#include "installers/gc.h"
#include "installers/receipt.h"

#include <QTemporaryDir>
#include <QTest>
#include <fstream>

namespace fs = std::filesystem;

namespace {

// An installed runtime as the installer leaves it: owned folder plus receipt.
void installFake(const sp::PrefixStore& store, const std::string& id)
{
    QVERIFY(store.ensureRoot().ok());
    QVERIFY(sp::ownership::createOwned(store.runtimeDir(id), "test").ok());
    sp::Receipt r;
    r.id = id;
    QVERIFY(r.save(store.receiptFile(id)).ok());
}

} // namespace

class TestGc : public QObject
{
    Q_OBJECT
private slots:
    void partialDaysIsValidatedWithoutOverflow()
    {
        QCOMPARE(sp::parsePartialDays("14")->count(), 14 * 24);
        QCOMPARE(sp::parsePartialDays("0")->count(), 0);
        QCOMPARE(sp::parsePartialDays("3650")->count(), 3650 * 24);
        for (const char* bad :
             {"-1", "3651", "100000", "inf", "nan", "1e308", "1.5", "", " 3", "x"}) {
            const auto r = sp::parsePartialDays(bad);
            QVERIFY2(!r.ok(), bad);
            QCOMPARE(r.error().code, sp::ErrorCode::Usage);
        }
    }

    void clockDecidesWhatIsOld()
    {
        QTemporaryDir tmp;
        const fs::path partial = fs::path(tmp.path().toStdString()) / "partial";
        fs::create_directories(partial);
        const std::string ours = std::string(64, 'c') + ".part";
        std::ofstream(partial / ours) << "x";
        std::ofstream(partial / "notes.part") << "the user's"; // not a name the fetcher makes
        const auto written = fs::last_write_time(partial / ours);
        const auto now = std::chrono::time_point_cast<sp::Clock::time_point::duration>(
            std::chrono::file_clock::to_sys(written));
        sp::FixedClock clock(now + std::chrono::hours(24 * 13));
        sp::GcOptions o;
        o.partialDir = partial;
        o.clock = &clock;
        const sp::PrefixStore store(fs::path(tmp.path().toStdString()) / "none");
        QVERIFY(sp::collectGarbage(store, o).partialsRemoved.empty()); // 13 days: kept
        clock.set(now + std::chrono::hours(24 * 15));
        o.dryRun = true;
        QCOMPARE(sp::collectGarbage(store, o).partialsRemoved.size(), std::size_t(1));
        QVERIFY(fs::exists(partial / ours)); // a dry run removes nothing
        o.dryRun = false;
        QCOMPARE(sp::collectGarbage(store, o).partialsRemoved.size(), std::size_t(1));
        QVERIFY(!fs::exists(partial / ours));
        QVERIFY(fs::exists(partial / "notes.part"));
    }

    void unusedRuntimesGoUsedAndSystemOnesStay()
    {
        QTemporaryDir tmp;
        const sp::PrefixStore store(fs::path(tmp.path().toStdString()) / "root");
        for (const char* id : {"used", "unused", "sys"})
            installFake(store, id);
        sp::GcOptions o;
        o.usedRuntimes = {"used"};
        o.systemRuntimes = {"sys"};
        o.dryRun = true;
        const auto dry = sp::collectGarbage(store, o);
        QCOMPARE(dry.removed, std::vector<std::string>{"unused"});
        QVERIFY(store.isInstalled("unused"));
        o.dryRun = false;
        const auto real = sp::collectGarbage(store, o);
        QCOMPARE(real.removed, dry.removed);
        QCOMPARE(real.kept, (std::vector<std::string>{"sys", "used"}));
        QVERIFY(!store.isInstalled("unused") && store.isInstalled("used"));
        QVERIFY(sp::toJson(real)["removed"][0] == "unused");
    }
};

QTEST_GUILESS_MAIN(TestGc)
#include "test_gc.moc"
