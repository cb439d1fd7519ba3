// The window's models, without a widget: ANSI colours to spans, the bounded console
// (batches, the line limit, severities, a known issue's line, search, copy), the GPU
// table's chosen row, the environment table and the plan view built from the real
// catalog for seed 000's machine.

#include "app/gui/controllers/install_progress.h"
#include "app/gui/models/ansi.h"
#include "app/gui/models/console_model.h"
#include "app/gui/models/environment_model.h"
#include "app/gui/models/gpu_table_model.h"
#include "app/gui/models/plan_view.h"
#include "app/gui/widgets/gpu_panel.h"
#include "app/gui/widgets/install_panel.h"
#include "core/catalog/loader.h"
#include "core/select/select.h"

#include <QTest>

using namespace sp;
using namespace sp::gui;

namespace {

GpuInfo gpu(const char* name, const char* gfx, int vram, bool integrated)
{
    GpuInfo g;
    g.vendor = Vendor::Amd;
    g.name = name;
    g.gfx = gfx;
    g.vramMb = vram;
    g.integrated = integrated;
    return g;
}

QVector<ConsoleModel::Incoming> lines(int from, int n)
{
    QVector<ConsoleModel::Incoming> out;
    for (int i = from; i < from + n; ++i)
        out.push_back({QStringLiteral("line %1").arg(i), false});
    return out;
}

} // namespace

class TestGuiModels : public QObject
{
    Q_OBJECT
private slots:
    void ansiColoursBecomeSpans()
    {
        const AnsiLine l =
            parseAnsi(QStringLiteral("\x1b[32mINFO\x1b[0m  ok \x1b[1;31mERR\x1b[0m"));
        QCOMPARE(l.text, QStringLiteral("INFO  ok ERR"));
        QCOMPARE(l.spans.size(), 2);
        QCOMPARE(l.spans[0].start, 0);
        QCOMPARE(l.spans[0].length, 4);
        QCOMPARE(l.spans[0].colour, 2);
        QCOMPARE(l.spans[1].start, 9);
        QCOMPARE(l.spans[1].colour, 1);
        QVERIFY(l.spans[1].bold);
        // 256 colours, 24-bit colours, titles (OSC) and cursor moves.
        const AnsiLine x = parseAnsi(
            QStringLiteral("\x1b]0;title\x07\x1b[38;5;9ma\x1b[38;2;1;2;3mb\x1b[2Kc\x1b[m"));
        QCOMPARE(x.text, QStringLiteral("abc"));
        QCOMPARE(x.spans[0].colour, 9);
        QCOMPARE(x.spans[1].colour, 0x1000000 | 0x010203);
        QCOMPARE(parseAnsi(QStringLiteral("plain")).spans.size(), 0);
        QCOMPARE(parseAnsi(QStringLiteral("cut \x1b[3")).text, QStringLiteral("cut "));
    }

    void consoleIsBoundedAndNumbersLinesAsTheLog()
    {
        ConsoleModel m(100);
        m.append(lines(1, 60));
        m.append(lines(61, 60));
        QCOMPARE(m.rowCount(), 100);
        QCOMPARE(m.totalLines(), qint64(120));
        QCOMPARE(m.droppedLines(), qint64(20));
        QCOMPARE(m.lineAt(0).number(), qint64(21));
        QCOMPARE(m.lineAt(0).text(), QStringLiteral("line 21"));
        // A batch larger than the limit keeps only its tail, still numbered from the log.
        m.append(lines(121, 500));
        QCOMPARE(m.rowCount(), 100);
        QCOMPARE(m.lineAt(99).number(), qint64(620));
        QCOMPARE(m.lineAt(99).text(), QStringLiteral("line 620"));
        m.markIssue(600);
        QCOMPARE(m.lineAt(79).severity(), ConsoleLine::Issue);
        m.markIssue(5); // long gone: nothing to mark
        QCOMPARE(m.countOf(ConsoleLine::Issue), 1);
        QCOMPARE(m.find(QStringLiteral("LINE 530"), -1), 9);
        QCOMPARE(m.find(QStringLiteral("line 530"), 9), 9); // wraps around to itself
        QCOMPARE(m.find(QStringLiteral("no such"), 0), -1);
        QCOMPARE(m.text({0, 1}), QStringLiteral("line 521\nline 522"));
        // Lines the window never converted (a flood) still count for the numbering.
        m.append(lines(1621, 10), 1000);
        QCOMPARE(m.totalLines(), qint64(1630));
        QCOMPARE(m.lineAt(99).number(), qint64(1630));
        QCOMPARE(m.lineAt(99).text(), QStringLiteral("line 1630"));
        // A long line is there whole in its tooltip; a short one needs none.
        const QString oom = QStringLiteral("torch.OutOfMemoryError: HIP out of memory. ") +
                            QString(200, QLatin1Char('x'));
        m.append({{oom, true}});
        QCOMPARE(m.data(m.index(99), Qt::ToolTipRole).toString(), oom);
        QVERIFY(!m.data(m.index(98), Qt::ToolTipRole).isValid());
    }

    void severities()
    {
        QCOMPARE(ConsoleModel::classify(QStringLiteral("RuntimeError: HIP error")),
                 ConsoleLine::Error);
        QCOMPARE(ConsoleModel::classify(QStringLiteral("Traceback (most recent call last):")),
                 ConsoleLine::Error);
        QCOMPARE(ConsoleModel::classify(QStringLiteral("WARNING xformers missing")),
                 ConsoleLine::Warning);
        QCOMPARE(ConsoleModel::classify(QStringLiteral("Model loaded in 4.2 s")),
                 ConsoleLine::Normal);
        QCOMPARE(ConsoleModel::classify(QStringLiteral("errors=0 terrorist")), ConsoleLine::Normal);
    }

    // Issue 33, item 6: StackPilot's own lines (install and setup steps) sit among the
    // workload's without a number, so a known issue's "line N" still finds its line.
    void consoleNotesAreNotNumbered()
    {
        ConsoleModel m(100);
        m.append({{QStringLiteral("Installing ZLUDA 3.9.5 (1 of 2)"), false, true}});
        m.append(lines(1, 3));
        m.append({{QStringLiteral("Setup step 1 of 1: done"), false, true}});
        m.append(lines(4, 2));
        QCOMPARE(m.rowCount(), 7);
        QCOMPARE(m.totalLines(), qint64(5));
        QCOMPARE(m.droppedLines(), qint64(0));
        QCOMPARE(m.countOf(ConsoleLine::Note), 2);
        QCOMPARE(m.lineAt(0).number(), qint64(0));
        m.markIssue(4);
        QCOMPARE(m.lineAt(5).severity(), ConsoleLine::Issue);
        QCOMPARE(m.lineAt(5).text(), QStringLiteral("line 4"));
        m.markIssue(0); // a note is never a known issue's line
        QCOMPARE(m.countOf(ConsoleLine::Note), 2);
        m.append(lines(6, 99)); // the notes scroll away with the oldest lines
        QCOMPARE(m.rowCount(), 100);
        QCOMPARE(m.countOf(ConsoleLine::Note), 0);
        QCOMPARE(m.droppedLines(), qint64(4));
    }

    // Issue 33, item 6: a part whose size nobody knows does not hold the overall bar at
    // 0 % or invent a time left; once its length arrives, both are there.
    void overallProgressWithAPartOfUnknownSize()
    {
        Runtime known, unsized;
        known.id = "a";
        known.artifacts.push_back({});
        known.artifacts[0].url = "https://example.org/a.zip";
        known.artifacts[0].size = 1000;
        unsized.id = "b";
        unsized.artifacts.push_back({});
        unsized.artifacts[0].url = "https://example.org/b.zip";
        InstallProgress job;
        job.reset({&known, &unsized});
        QCOMPARE(job.snapshot().total, quint64(1000));
        QCOMPARE(job.snapshot().unsized, 1);
        session::ArtifactProgress p;
        p.runtime = "b";
        p.artifact = 0;
        p.received = 300;
        p.bytesPerSecond = 100;
        job.onEvent(p);
        QCOMPARE(job.snapshot().received, quint64(300));
        QCOMPARE(job.snapshot().knownReceived, quint64(0));
        QCOMPARE(job.snapshot().etaSeconds, -1.0);
        QString line = InstallPanel::overallText(job.snapshot());
        QVERIFY2(line.contains(QStringLiteral("plus 1 part(s) whose size is not known yet")) &&
                     line.contains(QStringLiteral("time left not known yet")),
                 qPrintable(line));
        p.received = 400;
        p.total = 800; // the server said its length
        job.onEvent(p);
        QCOMPARE(job.snapshot().unsized, 0);
        QCOMPARE(job.snapshot().total, quint64(1800));
        QCOMPARE(job.snapshot().etaSeconds, 14.0); // (1800 - 400) / 100
        line = InstallPanel::overallText(job.snapshot());
        QVERIFY2(line.contains(QStringLiteral(" left")) &&
                     !line.contains(QStringLiteral("not known")),
                 qPrintable(line));
        // Nothing known at all: a busy bar, and words for it.
        InstallProgress only;
        only.reset({&unsized});
        InstallPanel panel(&only);
        panel.refresh();
        QCOMPARE(panel.overallPermille(), -1);
        QVERIFY2(panel.overallLine().contains(QStringLiteral("not known")),
                 qPrintable(panel.overallLine()));
    }

    // Issue 33: an iGPU's VRAM figure is said to be shared memory.
    void anIntegratedGpuSaysItsMemoryIsShared()
    {
        HardwareSnapshot s;
        s.gpus = {gpu("AMD Radeon 780M", "gfx1103", 512, true)};
        GpuTableModel m;
        m.setSnapshot(s);
        GpuPanel panel(&m);
        panel.refresh();
        QVERIFY2(
            panel.facts().contains(QStringLiteral("512 MiB VRAM, shared with the system's memory")),
            qPrintable(panel.facts()));
        s.gpus = {gpu("AMD Radeon RX 6750 XT", "gfx1031", 12288, false)};
        m.setSnapshot(s);
        panel.refresh();
        QVERIFY2(!panel.facts().contains(QStringLiteral("shared")), qPrintable(panel.facts()));
    }

    void gpuTableMarksTheChosenDiscreteCard()
    {
        HardwareSnapshot s;
        s.gpus = {gpu("AMD Radeon 780M", "gfx1103", 512, true),
                  gpu("AMD Radeon RX 6750 XT", "gfx1031", 12288, false)};
        GpuTableModel m;
        m.setSnapshot(s);
        QCOMPARE(m.rowCount(), 2);
        QCOMPARE(m.chosenRow(), std::optional<int>(1));
        QVERIFY(m.index(1, 0).data(GpuTableModel::ChosenRole).toBool());
        QVERIFY(!m.index(0, 0).data(GpuTableModel::ChosenRole).toBool());
        // The same words as the CLI's detect (core/format).
        QCOMPARE(m.index(0, GpuTableModel::Vram).data().toString(), QStringLiteral("512 MiB"));
        QCOMPARE(m.index(1, GpuTableModel::Vram).data().toString(), QStringLiteral("12.0 GiB"));
        QCOMPARE(m.index(1, GpuTableModel::Target).data().toString(), QStringLiteral("gfx1031"));
        QCOMPARE(m.index(0, GpuTableModel::Kind).data().toString(), QStringLiteral("integrated"));
    }

    void environmentTableShowsChangesAndRemovals()
    {
        ComposedLaunch c;
        c.env = {{"HIP_PATH", "C:\\ROCm\\5.7\\"}, {"PATH", "a;b"}, {"HOME", "/h"}};
        c.changes = {
            {EnvChange::Changed, "HIP_PATH", "C:\\ROCm\\6.1\\", "C:\\ROCm\\5.7\\", "stale SDK"},
            {EnvChange::Added, "PATH", "", "a;b", "runtimes first"},
            {EnvChange::Removed, "PYTHONPATH", "/x", "", "another Python's packages"}};
        EnvironmentModel m;
        m.setLaunch(c);
        QCOMPARE(m.rowCount(), 4);
        QCOMPARE(m.changedCount(), 3);
        QCOMPARE(m.index(0, EnvironmentModel::Name).data().toString(), QStringLiteral("HIP_PATH"));
        QCOMPARE(m.index(0, EnvironmentModel::Change).data().toString(), QStringLiteral("changed"));
        QCOMPARE(m.index(3, EnvironmentModel::Name).data().toString(),
                 QStringLiteral("PYTHONPATH"));
        QCOMPARE(m.index(3, EnvironmentModel::Change).data().toString(), QStringLiteral("removed"));
        QCOMPARE(m.copyText({m.index(3, 0), m.index(3, 1), m.index(0, 0)}),
                 QStringLiteral("HIP_PATH\nPYTHONPATH\t/x"));
        // Issue 33: a token or key is masked on screen and in what is copied.
        c.env["HF_TOKEN"] = "hf_abcdefghijklmnopWXYZ";
        c.env["OPENAI_API_KEY"] = "sk-1";
        m.setLaunch(c);
        const QString bullets(8, QChar(0x2022));
        QCOMPARE(m.index(0, EnvironmentModel::Name).data().toString(), QStringLiteral("HF_TOKEN"));
        QCOMPARE(m.index(0, EnvironmentModel::Value).data().toString(),
                 bullets + QStringLiteral("WXYZ"));
        QCOMPARE(m.index(3, EnvironmentModel::Value).data().toString(), bullets);
        const QString copied = m.copyText({m.index(0, 0), m.index(0, 1), m.index(3, 1)});
        QVERIFY2(!copied.contains(QStringLiteral("hf_abc")) &&
                     !copied.contains(QStringLiteral("sk-1")),
                 qPrintable(copied));
        QCOMPARE(m.index(1, EnvironmentModel::Value).data().toString(),
                 QStringLiteral("C:\\ROCm\\5.7\\"));
    }

    void planViewOfSeed000()
    {
        CatalogLoadOptions builtinOnly;
        builtinOnly.userDir = false;
        auto loaded = loadCatalog(builtinOnly);
        QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.error().message.c_str());
        HardwareSnapshot s;
        s.os.family = "windows";
        s.home.path = "C:\\Users\\u";
        s.gpus = {gpu("AMD Radeon RX 6750 XT", "gfx1031", 12288, false)};
        SelectSettings st;
        st.dataDir = "/nonexistent/sp-data";
        st.cacheDir = "/nonexistent/sp-cache";
        const auto plan = makePlan(s, loaded->catalog, "sdnext", st);
        const PlanView v = buildPlanView(loaded->catalog, s, "sdnext", plan);
        QCOMPARE(v.profile, QStringLiteral("sdnext-zluda-hip5.7-rocblas-gfx1031"));
        QVERIFY2(v.title.startsWith(QStringLiteral("HIP SDK 5.7.1 + ZLUDA 3.9.5")),
                 qPrintable(v.title));
        QVERIFY(!v.ready());
        QVERIFY(v.toInstall.contains(QStringLiteral("zluda-3.9.5-rocm5")));
        QVERIFY(!v.why.isEmpty());
        const auto rejected = std::find_if(v.alternatives.begin(), v.alternatives.end(),
                                           [](const AlternativeRow& a) { return a.rejected; });
        QVERIFY(rejected != v.alternatives.end());
        QVERIFY(
            rejected->knownIssues.contains(QStringLiteral("rocm-zluda-rocblas-access-violation")));
        const PlanView failed =
            buildPlanView(loaded->catalog, s, "sdnext", Error::runtime("forced profile rejected"));
        QCOMPARE(failed.error, QStringLiteral("forced profile rejected"));
        QVERIFY(!failed.plan);
    }
};

QTEST_MAIN(TestGuiModels)
#include "test_gui_models.moc"
