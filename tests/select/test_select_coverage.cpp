// The coverage acceptance: on Windows, the twelve common AMD cards x SD.Next, ComfyUI,
// llamafile and PyTorch get a GPU stack the plan does not call unsupported in at least
// 90 % of the cells (the figure is printed); `profiles --coverage` has the rows and columns
// the README promises, and the README shows what the real binary prints.

#include "core/select/coverage.h"
#include "select_fixtures.h"

#include <QProcess>
#include <fstream>
#include <sstream>

using namespace fixtures;

namespace {

const std::vector<std::pair<std::string, std::string>> kWindowsAmdCards = {
    {"Radeon RX 5700 XT", "gfx1010"},  {"Radeon RX 6600", "gfx1032"},
    {"Radeon RX 6700 XT", "gfx1031"},  {"Radeon RX 6800 XT", "gfx1030"},
    {"Radeon RX 7600", "gfx1102"},     {"Radeon RX 7800 XT", "gfx1101"},
    {"Radeon RX 7900 XTX", "gfx1100"}, {"Radeon RX 9060 XT", "gfx1200"},
    {"Radeon RX 9070 XT", "gfx1201"},  {"Radeon 780M", "gfx1103"},
    {"Radeon 890M", "gfx1150"},        {"Radeon 8060S", "gfx1151"}};

const char* const kCoverageBegin = "<!-- coverage:begin (stackpilot-cli profiles --coverage) -->";
const char* const kCoverageEnd = "<!-- coverage:end -->";

std::string readFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

} // namespace

class TestSelectCoverage : public QObject
{
    Q_OBJECT
private slots:
    void windowsAmdCardsGetAGpuStackInAtLeast90Percent()
    {
        auto list = sp::loadCoverageList(STACKPILOT_SOURCE_DIR "/profiles/gpu/coverage-gpus.json");
        QVERIFY(list.ok());
        std::vector<sp::GpuInfo> cards;
        for (const auto& [name, gfx] : kWindowsAmdCards) {
            const auto it = std::find_if(list->gpus.begin(), list->gpus.end(),
                                         [&](const sp::GpuInfo& g) { return g.name == name; });
            QVERIFY2(it != list->gpus.end() && it->gfx == gfx, name.c_str()); // the listed card
            cards.push_back(*it);
        }
        const auto t = sp::coverage(shippedCatalog(), cards, {"windows"}, settings(),
                                    {"sdnext", "comfyui", "llamafile", "pytorch"});
        int served = 0;
        int cells = 0;
        std::string missed;
        for (const auto& row : t.rows)
            for (std::size_t c = 0; c < t.columns.size(); ++c) {
                const auto& cell = row.cells[c];
                ++cells;
                if (cell.gpu && !cell.calledUnsupported)
                    ++served;
                else
                    missed += "\n  " + row.gpu.name + " x " + t.columns[c].first + ": " + cell.note;
            }
        QCOMPARE(cells, 48);
        const double percent = 100.0 * served / cells;
        qInfo("Windows AMD coverage: %d of %d cells (%.1f %%) get a GPU stack the plan does not "
              "call unsupported%s",
              served, cells, percent, missed.c_str());
        QVERIFY2(percent >= 90.0, missed.c_str());
    }

    void theCountCatchesAStackThePlanCallsUnsupported()
    {
        sp::Plan p;
        QVERIFY(!sp::planCallsUnsupported(p));
        p.warnings = {"gfx1010 is not supported by this build"};
        QVERIFY(sp::planCallsUnsupported(p));
        p.warnings = {"an unsupported GPU"};
        QVERIFY(sp::planCallsUnsupported(p));
    }

    void coverageHasTheCardsAndColumnsTheReadmePromises()
    {
        auto list = sp::loadCoverageList(STACKPILOT_SOURCE_DIR "/profiles/gpu/coverage-gpus.json");
        QVERIFY(list.ok());
        QCOMPARE(list->workloads, (std::vector<std::string>{"sdnext", "comfyui", "llamafile",
                                                            "llama-server", "pytorch"}));
        std::vector<std::string> names;
        for (const auto& g : list->gpus)
            names.push_back(g.name);
        for (const char* n : {"GeForce GTX 1060", "GeForce RTX 2060", "GeForce RTX 3060",
                              "GeForce RTX 4090", "GeForce RTX 5090"})
            QVERIFY2(contains(names, n), n);
        for (const auto& [name, gfx] : kWindowsAmdCards)
            QVERIFY2(contains(names, name), name.c_str());
        const auto t = sp::coverage(shippedCatalog(), list->gpus, {"windows", "linux"}, settings(),
                                    list->workloads);
        QCOMPARE(t.columns.size(), std::size_t(10));
        for (const auto& row : t.rows)
            for (const auto& cell : row.cells) {
                // Each cell is the profile chosen, or the reason for the CPU fallback.
                QVERIFY2(!cell.profile.empty(), row.gpu.name.c_str());
                QVERIFY2(cell.gpu || !cell.note.empty(), row.gpu.name.c_str());
            }
    }

    void readmeShowsWhatTheBinaryPrints()
    {
        QProcess cli;
        cli.start(QStringLiteral(STACKPILOT_BINARY_DIR "/bin/stackpilot-cli"),
                  {QStringLiteral("profiles"), QStringLiteral("--coverage")});
        QVERIFY(cli.waitForFinished(60000));
        QCOMPARE(cli.exitCode(), 0);
        const std::string printed = cli.readAllStandardOutput().toStdString();
        const std::string readme = readFile(STACKPILOT_SOURCE_DIR "/README.md");
        const auto begin = readme.find(kCoverageBegin);
        const auto end = readme.find(kCoverageEnd);
        QVERIFY2(begin != std::string::npos && end != std::string::npos,
                 "README has no coverage block");
        const auto from = readme.find('\n', begin) + 1;
        QVERIFY2(readme.substr(from, end - from) == printed,
                 "README.md's Coverage section differs from `stackpilot-cli profiles --coverage`; "
                 "paste the new output between the coverage markers");
    }
};

QTEST_GUILESS_MAIN(TestSelectCoverage)
#include "test_select_coverage.moc"
