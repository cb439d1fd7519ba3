// Issue 33, item 2: "Why this stack?" on seed 000's recorded PC (an RX 6750 XT on Windows)
// says in a user's words what the stack is, why it comes before each other stack, what it
// changes on the PC and what cannot be checked; no id, variable or option is in that
// text, in English or Chinese. They are under "Details for experts", folded until asked
// for, with secrets masked. A stack the user chose by name does not call the recommended
// one "less confirmed".

#include "app/gui/i18n.h"
#include "app/gui/models/plain_words.h"
#include "app/gui/models/plan_view.h"
#include "app/gui/widgets/plan_dialogs.h"
#include "core/catalog/loader.h"
#include "core/catalog/user_text.h"
#include "core/qt_text.h"
#include "core/select/select.h"
#include "core/snapshot.h"

#include <QDate>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QTest>
#include <QToolButton>

using namespace sp;
using namespace sp::gui;

namespace {

struct Seed000
{
    LoadedCatalog loaded;
    HardwareSnapshot snap;

    Seed000()
    {
        CatalogLoadOptions builtinOnly;
        builtinOnly.userDir = false;
        auto c = loadCatalog(builtinOnly);
        if (!c.ok())
            qFatal("catalog: %s", c.error().message.c_str());
        loaded = std::move(*c);
        auto s = loadSnapshotFile(STACKPILOT_SOURCE_DIR
                                  "/tests/gui/fixtures/seed000-windows-rx6750xt.json");
        if (!s.ok())
            qFatal("snapshot: %s", s.error().message.c_str());
        snap = std::move(*s);
    }
    PlanView view(const std::string& forced = {}) const
    {
        SelectSettings st;
        st.dataDir = "C:\\Users\\u\\AppData\\Local\\StackPilot";
        st.cacheDir = "C:\\Users\\u\\AppData\\Local\\StackPilot\\cache";
        st.profile = forced;
        return buildPlanView(loaded.catalog, snap, "sdnext",
                             makePlan(snap, loaded.catalog, "sdnext", st));
    }
};

// The code words of a plan that a user's text must not hold: ids, variables, options.
QStringList codeWordsIn(const QString& text, const PlanView& v)
{
    QStringList found;
    auto check = [&](const QString& word) {
        if (!word.isEmpty() && text.contains(word))
            found << word;
    };
    check(v.profile);
    for (const RuntimeRow& r : v.runtimes)
        check(r.id);
    for (const AlternativeRow& a : v.alternatives)
        check(a.profile);
    for (const auto& [name, value] : v.plan->env)
        if (name.find('_') != std::string::npos) // "ZLUDA" is also the product's name
            check(qs(name));
    for (const auto& arg : v.plan->args)
        check(qs(arg));
    return found;
}

} // namespace

class TestGuiWhy : public QObject
{
    Q_OBJECT
    Seed000 m_seed;

private slots:
    void initTestCase() { gui::setLanguage("en"); }

    void plainWordsAndAFoldForExperts()
    {
        const PlanView v = m_seed.view();
        QCOMPARE(v.profile, QStringLiteral("sdnext-zluda-hip5.7-rocblas-gfx1031"));
        DetailsDialog d(v);
        d.show();
        const QString text = d.text();
        qInfo("%s", qPrintable(text));
        for (const char* heading :
             {"What it is", "Why it comes before the other stacks", "What it changes on this PC",
              "What cannot be checked before it runs"})
            QVERIFY2(text.contains(QLatin1String(heading)), heading);
        QVERIFY2(codeWordsIn(text, v).isEmpty(), qPrintable(codeWordsIn(text, v).join(u' ')));
        // Each other stack that could run or that a known problem rules out, by name.
        for (const AlternativeRow& a : v.alternatives)
            QVERIFY2(text.contains(a.title + (a.rejected ? QStringLiteral(" cannot be used here")
                                                         : QStringLiteral(":"))),
                     qPrintable(a.title));
        QVERIFY(text.contains(QStringLiteral("No published checksum for")) &&
                text.contains(QStringLiteral("ZLUDA 3.9.5")));
        QVERIFY(text.contains(QStringLiteral("administrator rights")));
        QVERIFY(text.contains(QStringLiteral("No public guide names the download address")));
        // The fold: closed, then open with the ids, the variables and the command.
        QVERIFY(!d.expertView()->isVisible());
        d.expertToggle()->click();
        QVERIFY(d.expertView()->isVisible());
        const QString expert = d.expert();
        for (const QString& word : {v.profile, QStringLiteral("zluda-3.9.5-rocm5"),
                                    QStringLiteral("HIP_VISIBLE_DEVICES=0"),
                                    QStringLiteral("webui.bat --use-zluda --medvram")})
            QVERIFY2(expert.contains(word), qPrintable(word));
    }

    void secretsAreMaskedUnderTheFold()
    {
        PlanView v = m_seed.view();
        v.plan->env["HF_TOKEN"] = "hf_abcdefghijklmnopqrstu9876";
        DetailsDialog d(v);
        QVERIFY(d.expert().contains(QStringLiteral("HF_TOKEN=") +
                                    maskedSecret(QStringLiteral("hf_abcdefghijklmnopqrstu9876"))));
        QVERIFY(!d.expert().contains(QStringLiteral("hf_abcdefghijklmnop")));
    }

    void chineseHasNoEnglishButNames()
    {
        gui::setLanguage("zh_CN");
        const PlanView v = m_seed.view();
        DetailsDialog d(v);
        const QString text = d.text();
        gui::setLanguage("en");
        QStringList english;
        static const QRegularExpression gfx(QStringLiteral("^gfx[0-9a-f]+$"));
        // Addresses and folders are names, whatever the language.
        static const QRegularExpression names(QStringLiteral("https?://\\S+|[A-Z]:\\\\\\S+"));
        QString words = text;
        words.remove(names);
        for (const std::string& w : untranslatedWords(words.toStdString()))
            if (!gfx.match(qs(w)).hasMatch())
                english << qs(w);
        english.removeDuplicates();
        QVERIFY2(english.isEmpty(), qPrintable(english.join(u' ') + u'\n' + text));
        QVERIFY(codeWordsIn(text, v).isEmpty());
        QVERIFY(text.contains(QStringLiteral("软件栈")));
    }

    // Issue 34: what users' PCs reported, from the catalog's ledger proof, on the card
    // and in "Why this stack?"; and that none did.
    void otherPcsResultsAreShown()
    {
        const PlanView none = m_seed.view();
        QCOMPARE(none.othersEvidence,
                 QStringLiteral("No results from other PCs with this stack yet."));
        const std::string threeDaysAgo =
            QDate::currentDate().addDays(-3).toString(Qt::ISODate).toStdString() + "T12:00:00Z";
        ProfileProof proof;
        proof.passedInstalls = 20;
        proof.failedInstalls = 1;
        proof.installs = 21;
        proof.windowDays = 180;
        proof.firstSeen = "2026-10-01T00:00:00Z";
        proof.lastSeen = threeDaysAgo;
        const auto withProof = [](const ProfileProof& p) {
            auto seed = std::make_unique<Seed000>();
            for (Profile& prof : seed->loaded.catalog.profiles)
                if (prof.id == "sdnext-zluda-hip5.7-rocblas-gfx1031")
                    prof.proof = p;
            return seed->view();
        };
        // A proof from before the ledger counted per GPU family: the stack's counts.
        const PlanView v = withProof(proof);
        QCOMPARE(v.othersEvidence,
                 QStringLiteral("Passed on 20 PCs with this stack, 1 failed (last: 3 days ago)."));
        DetailsDialog d(v);
        QVERIFY(d.text().contains(v.othersEvidence));
        // Counts for other families only: none for this card, said as such.
        proof.byGpu = {GpuFamilyProof{"gfx1100", 20, 1, 21, threeDaysAgo}};
        QCOMPARE(withProof(proof).othersEvidence,
                 QStringLiteral("No results from PCs with a graphics card like yours yet; it "
                                "passed on 20 PCs with other cards."));
        // The RX 6750 XT's family (gfx1031): its own counts.
        proof.byGpu.push_back(GpuFamilyProof{"gfx1031", 7, 0, 7, threeDaysAgo});
        QCOMPARE(withProof(proof).othersEvidence,
                 QStringLiteral("Passed on 7 PCs with a graphics card like yours, 0 failed (last: "
                                "3 days ago)."));
    }

    void theRecommendedStackIsNotBelowAChosenOne()
    {
        const PlanView v = m_seed.view("sdnext-zluda-hip6.2-rocblas-gfx1031");
        QCOMPARE(v.profile, QStringLiteral("sdnext-zluda-hip6.2-rocblas-gfx1031"));
        const auto best = std::find_if(v.alternatives.begin(), v.alternatives.end(), [](auto& a) {
            return a.profile == QStringLiteral("sdnext-zluda-hip5.7-rocblas-gfx1031");
        });
        QVERIFY(best != v.alternatives.end());
        QCOMPARE(best->plainReason, rankPhrase("chosen"));
        QVERIFY(!best->plainReason.contains(QStringLiteral("Fewer people")));
    }
};

QTEST_MAIN(TestGuiWhy)
#include "test_gui_why.moc"
