// Seed 000's machine as recorded (tests/gui/fixtures/seed000-windows-rx6750xt.json: an
// RX 6750 XT on Windows with HIP SDK 6.1.2 only): the card and the pre-install
// checklist of SD.Next show the real total of the sizes the catalog carries, and name
// every part whose size is not known before it is downloaded; no lower bound ("more
// than", "at least") stands in for the total. The expected figures are computed from
// profiles/catalog/runtimes.json itself, not through the code under test.

#include "app/gui/models/plan_view.h"
#include "app/gui/widgets/profile_card.h"
#include "core/catalog/loader.h"
#include "core/format.h"
#include "core/qt_text.h"
#include "core/select/select.h"
#include "core/snapshot.h"

#include <QApplication>
#include <QTest>
#include <fstream>
#include <nlohmann/json.hpp>

using namespace sp;
using namespace sp::gui;

namespace {

struct Figures
{
    std::uint64_t bytes = 0;
    QStringList unsized; // the parts' labels, as the card names them
};

// What the shipped runtimes.json says about the runtimes `ids`: the sum of every
// artifact's "size", and the runtimes with a download of no size (a git checkout, a
// "size_unknown" file, or packages pip picks).
Figures fromCatalogFile(const Catalog& catalog, const QStringList& ids)
{
    std::ifstream in(STACKPILOT_SOURCE_DIR "/profiles/catalog/runtimes.json");
    const auto file = nlohmann::json::parse(in);
    Figures e;
    for (const QString& id : ids)
        for (const auto& rt : file["runtimes"]) {
            if (rt["id"] != toStd(id) || rt.value("system", false))
                continue;
            const auto artifacts = rt.value("artifacts", nlohmann::json::array());
            bool whole = !artifacts.empty();
            for (const auto& a : artifacts) {
                if (a.contains("size"))
                    e.bytes += a["size"].get<std::uint64_t>();
                else
                    whole = false;
            }
            if (!whole)
                e.unsized << runtimeLabel(catalog, toStd(id));
        }
    return e;
}

} // namespace

class TestCardDownload : public QObject
{
    Q_OBJECT

private slots:
    void seed000ShowsTheRealTotalAndNamesWhatHasNoSize()
    {
        CatalogLoadOptions builtinOnly;
        builtinOnly.userDir = false;
        auto loaded = loadCatalog(builtinOnly);
        QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.error().message.c_str());
        const Catalog& catalog = loaded->catalog;
        auto snap = loadSnapshotFile(STACKPILOT_SOURCE_DIR
                                     "/tests/gui/fixtures/seed000-windows-rx6750xt.json");
        QVERIFY2(snap.ok(), snap.ok() ? "" : snap.error().message.c_str());
        SelectSettings st;
        st.dataDir = "/nonexistent/sp-data";
        st.cacheDir = "/nonexistent/sp-cache";
        const auto plan = makePlan(*snap, catalog, "sdnext", st);
        const PlanView v = buildPlanView(catalog, *snap, "sdnext", plan);
        // Seed 000's fix: HIP SDK 5.7.1 + ZLUDA + the gfx1031 rocBLAS pack, all still to
        // download (the machine has HIP SDK 6.1.2 only).
        QCOMPARE(v.profile, QStringLiteral("sdnext-zluda-hip5.7-rocblas-gfx1031"));
        for (const char* id : {"hip-sdk-5.7.1", "zluda-3.9.5-rocm5", "rocblas-gfx1031-hip5.7.1",
                               "python-3.11.15-windows", "git-2.53.0-windows", "sdnext-src"})
            QVERIFY2(v.toInstall.contains(QString::fromLatin1(id)), id);

        const Figures e = fromCatalogFile(catalog, v.toInstall);
        QVERIFY(e.bytes > 0);
        QCOMPARE(v.downloadBytes, quint64(e.bytes));
        QStringList shown = v.unsizedParts, wanted = e.unsized;
        shown.sort();
        wanted.sort();
        QCOMPARE(shown, wanted);
        QVERIFY(wanted.contains(runtimeLabel(catalog, "sdnext-src"))); // a git checkout

        const QString total = QStringLiteral("about ") + qs(format::bytes(e.bytes));
        ProfileCard card;
        card.setPlan(&v);
        const QString install = card.installText();
        qInfo("card: %s", qPrintable(install));
        QVERIFY2(install.contains(total), qPrintable(install));
        QVERIFY2(!v.checklist.isEmpty() &&
                     v.checklist.front().startsWith(QStringLiteral("Download: ") + total),
                 qPrintable(v.checklist.join(QLatin1Char('|'))));
        for (const QString& text : {install, v.checklist.front()}) {
            for (const QString& part : wanted)
                QVERIFY2(text.contains(part.toHtmlEscaped()) || text.contains(part),
                         qPrintable(part + QStringLiteral(" not named in: ") + text));
            QVERIFY2(text.contains(QStringLiteral("not known before the download")),
                     qPrintable(text));
            for (const char* bound : {"more than", "at least"})
                QVERIFY2(!text.contains(QLatin1String(bound)), qPrintable(text));
        }
        // Each part's row: its own size, or the words for a size nobody gave.
        const QString rows = card.detailsText();
        QVERIFY2(rows.contains(QStringLiteral("size not known before the download")),
                 qPrintable(rows));
    }
};

QTEST_MAIN(TestCardDownload)
#include "test_card_download.moc"
