// `snapshot import` on real tool outputs that users pasted into public issue threads
// (corpus/, with corpus/manifest.json naming each thread and the target it states), and
// the detectors' own parsers on the same pastes.

#include "core/gpu_indices.h"
#include "detectors/import/paste_sections.h"
#include "detectors/import/snapshot_import.h"
#include "detectors/merge.h"
#include "detectors/nvidia_cc_table.h"
#include "detectors/parsers/kfd_properties.h"
#include "detectors/parsers/tool_parsers.h"
#include "detectors/pci_table.h"

#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <sys/stat.h>

using namespace sp;
using nlohmann::json;

namespace {

const std::string kCorpus = IMPORT_CORPUS_DIR;

json manifest()
{
    std::ifstream in(kCorpus + "/manifest.json");
    return json::parse(in);
}

std::string readText(const std::string& file)
{
    std::ifstream in(kCorpus + "/" + file, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::string vendorName(const json& e)
{
    return e["vendor"].get<std::string>();
}

std::vector<std::string> expected(const json& e)
{
    auto v =
        e[vendorName(e) == "amd" ? "gfx" : "compute_capability"].get<std::vector<std::string>>();
    std::sort(v.begin(), v.end());
    return v;
}

// The target of every GPU of the paste's vendor ("" where one has none), sorted.
std::vector<std::string> targets(const std::vector<GpuInfo>& gpus, const std::string& vendor)
{
    std::vector<std::string> out;
    for (const auto& g : gpus) {
        if (toString(g.vendor) != vendor)
            continue;
        out.push_back(vendor == "amd" ? g.gfx.value_or("") : g.computeCapability.value_or(""));
    }
    std::sort(out.begin(), out.end());
    return out;
}

std::string joined(const std::vector<std::string>& v)
{
    return v.empty() ? "(none)" : join(v, " ");
}

// What detection itself makes of one tool's output: its parser, then the tables.
std::optional<std::vector<GpuInfo>> detectorParse(const json& e, const std::string& text)
{
    const std::string tools = e["tools"].dump();
    std::vector<GpuInfo> gpus;
    if (tools.find("rocminfo") != std::string::npos)
        gpus = parseRocminfo(text, 0).gpus;
    else if (tools.find("hipinfo") != std::string::npos ||
             tools.find("hipInfo") != std::string::npos)
        gpus = parseHipinfo(text, 0).gpus;
    else if (tools.find("gfx_target_version") != std::string::npos) {
        const auto p = parseKfdProperties(text); // as sysfs detection reads a node file
        if (auto gfx = gfxFromTargetVersion(p.gfxTargetVersion)) {
            GpuInfo g;
            g.vendor = Vendor::Amd;
            g.gfx = *gfx;
            gpus.push_back(g);
        }
    } else if (tools.find("CSV") != std::string::npos)
        gpus = parseNvidiaSmiCsv(text, 0, true).gpus;
    else
        return std::nullopt; // no detector reads this tool's output
    completeFromTable(gpus, PciTable::shipped());
    completeNvidiaFromTable(gpus, NvidiaCcTable::shipped());
    return gpus;
}

} // namespace

class TestSnapshotImport : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(PciTable::shipped().size() > 1000, PciTable::shipped().loadError().c_str());
        QVERIFY2(NvidiaCcTable::shipped().size() > 100,
                 NvidiaCcTable::shipped().loadError().c_str());
    }

    void corpusIsRealAndLarge()
    {
        const json m = manifest();
        QVERIFY(m["files"].size() >= 30);
        int amd = 0, nvidia = 0;
        for (const auto& e : m["files"]) {
            QVERIFY2(e["source"].get<std::string>().rfind("https://github.com/", 0) == 0,
                     e["file"].dump().c_str());
            QVERIFY(!readText(e["file"]).empty());
            (vendorName(e) == "amd" ? amd : nvidia)++;
        }
        QVERIFY(amd >= 10 && nvidia >= 10);
    }

    // Every paste, read through the real import, gives exactly the targets its thread states.
    void everyPasteReadsExactly()
    {
        const json m = manifest();
        int exact = 0, total = 0, amdExact = 0, amdTotal = 0;
        for (const auto& e : m["files"]) {
            const std::string file = e["file"];
            auto snap = importSnapshotFiles({kCorpus + "/" + file}, {});
            QVERIFY2(snap, file.c_str());
            const auto want = expected(e), got = targets(snap->gpus, vendorName(e));
            const bool ok = want == got;
            ++total;
            exact += ok;
            if (vendorName(e) == "amd") {
                ++amdTotal;
                amdExact += ok;
            }
            qInfo("%s %s: want %s, got %s", ok ? "EXACT" : "MISS ", file.c_str(),
                  joined(want).c_str(), joined(got).c_str());
            for (const auto& g : snap->gpus) {
                QVERIFY2(!g.sources.empty(), file.c_str());
                const bool fromTool =
                    std::any_of(g.sources.begin(), g.sources.end(), [](const auto& s) {
                        return s != "import:pci-table" && s != "import:nvidia-cc-table";
                    });
                QVERIFY2(fromTool, file.c_str());
                for (const auto& s : g.sources)
                    QVERIFY2(s.rfind("import:", 0) == 0, (file + ": " + s).c_str());
            }
            // The output is a snapshot `plan --hardware` accepts.
            QVERIFY2(snapshotFromJson(toJson(*snap), file), file.c_str());
        }
        qInfo("snapshot import read %d of %d pastes exactly (AMD %d of %d, NVIDIA %d of %d)", exact,
              total, amdExact, amdTotal, exact - amdExact, total - amdTotal);
        QCOMPARE(exact, total);
    }

    // Every paste whose thread shows device numbers gives each GPU exactly those (issue 31):
    // the GPU is found by its bus address, PCI id or name.
    void everyPasteNumbersItsDevices()
    {
        const json m = manifest();
        int checked = 0;
        for (const auto& e : m["files"]) {
            if (!e.contains("indices"))
                continue;
            const std::string file = e["file"];
            auto snap = importSnapshotFiles({kCorpus + "/" + file}, {});
            QVERIFY2(snap, file.c_str());
            for (const auto& want : e["indices"]) {
                std::vector<const GpuInfo*> hits;
                for (const auto& g : snap->gpus)
                    if ((want.contains("pci_bus") && g.pciBus == want["pci_bus"]) ||
                        (want.contains("pci_id") && g.pciId == want["pci_id"]) ||
                        (want.contains("name") && g.name == want["name"]))
                        hits.push_back(&g);
                QVERIFY2(hits.size() == 1, (file + ": " + want.dump()).c_str());
                const auto wanted = want["indices"].get<std::map<std::string, int>>();
                QVERIFY2(hits.front()->indices == wanted,
                         (file + ": " + want.dump() + " got " + json(hits.front()->indices).dump())
                             .c_str());
                ++checked;
            }
        }
        qInfo("%d GPUs of the pasted outputs numbered as their threads show", checked);
        QVERIFY(checked >= 15);
    }

    // Details of the forms issue 31 added: R610's renamed header, a Jetson without a bus,
    // amd-smi's partitions and NIC, an HDMI audio function, the layer's list.
    void issue31FormsInDetail()
    {
        auto b200 =
            importSnapshotFiles({kCorpus + "/nvidia-smi-r610-sglang27487-two-b200.txt"}, {});
        QVERIFY(b200);
        QCOMPARE(b200->gpus[0].driverVersion.value_or(""), std::string("610.43.02"));
        QCOMPARE(b200->runtimes.at(0).kind, std::string("cuda-driver"));
        QCOMPARE(b200->runtimes.at(0).version, std::string("13.3"));

        auto orin =
            importSnapshotFiles({kCorpus + "/nvidia-smi-jetsoncontainers1403-orin-nvgpu.txt"}, {});
        QVERIFY(orin && orin->gpus.size() == 1);
        QCOMPARE(orin->gpus[0].name, std::string("Orin (nvgpu)"));
        QVERIFY(orin->gpus[0].pciBus.empty());
        QCOMPARE(orin->gpus[0].integrated, std::optional<bool>(true));

        auto mi210 =
            importSnapshotFiles({kCorpus + "/amd-smi-list-static-rocmsystems3654-mi210.txt"}, {});
        QVERIFY(mi210 && mi210->gpus.size() == 1); // the AI NIC is no GPU
        QCOMPARE(mi210->gpus[0].kfdNode, std::optional<int>(2));
        QCOMPARE(mi210->gpus[0].pciId, std::string("1002:740f"));
        QCOMPARE(mi210->gpus[0].pciRevision, std::string("02"));

        auto rx580 =
            importSnapshotFiles({kCorpus + "/lspci-nnk-lakka631-rx580-hdmi-audio.txt"}, {});
        QVERIFY(rx580 && rx580->gpus.size() == 1); // 01:00.1 (HDMI audio) is no GPU
        QCOMPARE(rx580->gpus[0].pciBus, std::string("0000:01:00.0"));

        auto arc = importSnapshotFiles(
            {kCorpus + "/mesa-vk-device-select-lutris3447-arc-a750-xe.txt"}, {});
        QVERIFY(arc && arc->gpus.size() == 2);
        QCOMPARE(arc->gpus[0].integrated, std::optional<bool>(false));
        QCOMPARE(arc->gpus[1].integrated, std::optional<bool>(true));

        // A real full report cut right after its device header is refused by name.
        const std::string clvk = readText("vulkaninfo-full-clvk537-llvmpipe-only.txt");
        const auto cut = clvk.substr(0, clvk.find("VkPhysicalDeviceProperties:"));
        QCOMPARE(parseVulkaninfo(cut).probe.extra.value("cut_off", ""), std::string("GPU0"));
        QVERIFY(!parseVulkaninfo(clvk).probe.extra.contains("cut_off"));
    }

    // The detectors' own parsers on the pastes of the tools they read: a partial real
    // output never hides a GPU named in it.
    void detectorParsersReadThePastesToo()
    {
        const json m = manifest();
        int exact = 0, tried = 0;
        for (const auto& e : m["files"]) {
            const std::string file = e["file"];
            const auto gpus = detectorParse(e, readText(file));
            if (!gpus)
                continue;
            ++tried;
            const auto want = expected(e), got = targets(*gpus, vendorName(e));
            const bool ok = want == got;
            exact += ok;
            qInfo("%s %s: want %s, got %s", ok ? "EXACT" : "MISS ", file.c_str(),
                  joined(want).c_str(), joined(got).c_str());
            if (e.contains("outputs")) {
                // One GPU shown by several outputs: each one names it right.
                QCOMPARE(got.size(), want.size() * e["outputs"].get<std::size_t>());
                for (const auto& t : got)
                    QVERIFY2(std::count(want.begin(), want.end(), t) == 1, file.c_str());
            } else {
                QVERIFY2(ok, file.c_str());
            }
        }
        qInfo("the detectors' own parsers read %d of %d pastes of their tools exactly", exact,
              tried);
        QVERIFY(tried >= 20);
    }

    void sourcesNameTheToolAndTheTable()
    {
        auto snap = importPastes(
            {{"lspci.txt", "03:00.0 VGA compatible controller [0300]: Advanced Micro Devices, "
                           "Inc. [AMD/ATI] Navi 22 [Radeon RX 6700/6700 XT/6750 XT / 6800M/6850M "
                           "XT] [1002:73df] (rev c1)\n"},
             {"smi.txt", "GPU 0: NVIDIA GeForce RTX 3060 Laptop GPU (UUID: GPU-1234)\n"}},
            {});
        QCOMPARE(snap.gpus.size(), std::size_t(2));
        QCOMPARE(snap.gpus[0].gfx.value_or(""), std::string("gfx1031"));
        QVERIFY(
            (snap.gpus[0].sources == std::vector<std::string>{"import:lspci", "import:pci-table"}));
        QCOMPARE(snap.gpus[0].pciBus, std::string("0000:03:00.0"));
        QCOMPARE(snap.gpus[1].computeCapability.value_or(""), std::string("8.6"));
        QVERIFY((snap.gpus[1].sources ==
                 std::vector<std::string>{"import:nvidia-smi", "import:nvidia-cc-table"}));
        QCOMPARE(snap.probes.size(), std::size_t(2));
        QCOMPARE(snap.probes[0].detail, std::string("lspci.txt: lspci"));
        QCOMPARE(snap.extra["imported_from"], json({"lspci.txt", "smi.txt"}));
    }

    void oneGpuInSeveralOutputsIsOneGpu()
    {
        // A grep, then the whole output, of one machine: prompts separate the outputs.
        const std::string text = "$ rocminfo | grep gfx\n  Name:                    gfx1031\n"
                                 "      Name:                    amdgcn-amd-amdhsa--gfx1031\n"
                                 "$ rocminfo\n*******\nAgent 2\n*******\n  Name:   gfx1031\n"
                                 "  Device Type:   GPU\n";
        auto snap = importPastes({{"p", text}}, {});
        QCOMPARE(snap.gpus.size(), std::size_t(1));
        // Two identical cards inside one output stay two.
        auto twins = importPastes({{"p", "  Name:  gfx1100\n  Name:  gfx1100\n"}}, {});
        QCOMPARE(twins.gpus.size(), std::size_t(2));
    }

    // nvidia-smi's four forms, recorded on a real H200 (tests/detectors/device-h200/):
    // each names the one GPU, and all four pasted together are still one GPU.
    void recordedH200Forms()
    {
        const std::string dir = DEVICE_H200_DIR;
        std::vector<PasteText> all;
        for (const char* f :
             {"nvidia-smi.txt", "nvidia-smi-q.txt", "nvidia-smi-L.txt", "nvidia-smi-query.csv"}) {
            std::ifstream in(dir + "/" + f, std::ios::binary);
            std::ostringstream text;
            text << in.rdbuf();
            QVERIFY2(!text.str().empty(), f);
            all.push_back({f, text.str()});
            const auto snap = importPastes({all.back()}, {});
            QVERIFY2(snap.gpus.size() == 1, f);
            QCOMPARE(snap.gpus[0].name, std::string("NVIDIA H200"));
            QCOMPARE(snap.gpus[0].computeCapability.value_or(""), std::string("9.0"));
            const bool listOnly = std::string(f) == "nvidia-smi-L.txt"; // no bus, no memory
            QCOMPARE(snap.gpus[0].pciBus, std::string(listOnly ? "" : "0000:00:06.0"));
            QCOMPARE(snap.gpus[0].vramMb.value_or(0), std::int64_t(listOnly ? 0 : 143771));
        }
        const auto csv = importPastes({all[3]}, {});
        QCOMPARE(csv.gpus[0].pciId, std::string("10de:2335"));
        QCOMPARE(csv.gpus[0].indices.at(kApiNvml), 0); // the query's index column
        QCOMPARE(importPastes(all, {}).gpus.size(), std::size_t(1));
    }

    void manyGpusAreBoundedWhereTheyAreMerged()
    {
        // 255 prompt-separated lspci outputs of 64 GPUs each, every GPU at its own address:
        // the merge keeps the first kMaxParsedGpus (the first output's) and drops the rest.
        std::string text;
        for (int s = 0; s < 255; ++s) {
            text += "$ lspci -nn\n";
            for (int j = 0; j < 64; ++j)
                text += hex(std::uint64_t(s), 4) + ":" + hex(std::uint64_t(j), 2) +
                        ":00.0 VGA compatible controller [0300]: Advanced Micro Devices, Inc. "
                        "[AMD/ATI] Navi 22 [Radeon RX 6700 XT] [1002:73df] (rev c1)\n";
        }
        const auto snap = importPastes({{"p", text}}, {});
        QCOMPARE(snap.gpus.size(), kMaxParsedGpus);
        QCOMPARE(snap.gpus.front().pciBus, std::string("0000:00:00.0"));
        QCOMPARE(snap.gpus.back().pciBus, std::string("0000:3f:00.0"));
    }

    void promptsAndSections()
    {
        for (const char* p :
             {"$ rocminfo", "root@box:~$ rocminfo", "jgeerling@cm5:~ $ nvidia-smi",
              ":~/hipInfo$ ./hipInfo", "C:\\Users\\me>hipinfo", "PS C:\\> hipInfo.exe",
              "\xe2\x95\xb0\xe2\x94\x80$ ./app", "# lspci -nnk", "[user@system:~]$ nix-shell"})
            QVERIFY2(paste::isPromptLine(p), p);
        for (const char* p : {"  Name:  gfx1031", "## Summary", "| NVIDIA-SMI 531.14 |",
                              "0000:03:00.0 VGA compatible controller", "Agent 2", ""})
            QVERIFY2(!paste::isPromptLine(p), p);
        const auto parts = paste::splitSections("a\n```\nb\n$ c\nd\n```\ne");
        QCOMPARE(parts.size(), std::size_t(4));
        QCOMPARE(std::string(parts[0]), std::string("a\n"));
        QCOMPARE(std::string(parts[3]), std::string("```\ne"));
    }

    void osIsInferredOrGiven()
    {
        auto win =
            importPastes({{"w", "C:\\Program Files\\AMD\\ROCm\\5.7\\bin\\hipInfo.exe\n"
                                "device#  0\nName:  AMD Radeon RX 6600\ngcnArchName:  gfx1032\n"}},
                         {});
        QCOMPARE(win.os.family, std::string("windows"));
        QCOMPARE(win.gpus.at(0).gfx.value_or(""), std::string("gfx1032"));
        auto lin =
            importPastes({{"l", "$ /opt/rocm/bin/rocminfo | grep gfx\n  Name:  gfx1030\n"}}, {});
        QCOMPARE(lin.os.family, std::string("linux"));
        ImportOptions given;
        given.osFamily = "windows";
        QCOMPARE(
            importPastes({{"l", "$ /opt/rocm/bin/rocminfo\n  Name:  gfx1030\n"}}, given).os.family,
            std::string("windows"));
        // rocminfo runs on Linux only; nvidia-smi -L on both.
        QCOMPARE(importPastes({{"r", "  Name:  gfx1030\n"}}, {}).os.family, std::string("linux"));
        QVERIFY(
            importPastes({{"n", "GPU 0: NVIDIA TITAN V (UUID: GPU-1)\n"}}, {}).os.family.empty());
    }

    // Three paste forms that did not import before. No public paste of the KFD one-line summary or
    // of a "GRID RTX6000-24Q" table was found with the search tools, so these are the examples the
    // report quoted; corpus/ holds real Tesla K80 (table and -q) and GRID V100D-8C pastes.
    void threePasteFormsImport()
    {
        auto kfd = importPastes({{"kfd", "node 0: name='' gfx_target_version=0 (CPU)\n"
                                         "node 1: name='gfx1100' gfx_target_version=110000 (GPU)\n"
                                         "node 2: name=\"ip discovery\" gfx_target_version=100301 "
                                         "(GPU)\n"}},
                                {});
        QCOMPARE(kfd.gpus.size(), std::size_t(2));
        QCOMPARE(kfd.gpus.at(0).gfx.value_or(""), std::string("gfx1100"));
        QCOMPARE(kfd.gpus.at(1).gfx.value_or(""), std::string("gfx1031"));
        QCOMPARE(kfd.gpus.at(0).kfdNode.value_or(-1), 1);
        const std::string grid = "|   0  GRID RTX6000-24Q               On  | 00000000:00:06.0 Off "
                                 "|                  N/A |\n"
                                 "| N/A   N/A    P8              N/A /  N/A |  21742MiB / 24576MiB "
                                 "|      0%      Default |\n";
        auto vgpu = importPastes({{"grid", grid}}, {});
        QCOMPARE(vgpu.gpus.size(), std::size_t(1));
        QCOMPARE(vgpu.gpus.at(0).computeCapability.value_or(""), std::string("7.5"));
        const auto& cc = NvidiaCcTable::shipped();
        QCOMPARE(cc.byName("Tesla K80").value_or(""), std::string("3.7"));
        QCOMPARE(cc.byName("GRID T4-16Q").value_or(""), std::string("7.5"));
        QCOMPARE(cc.byName("GRID P40-24Q").value_or(""), std::string("6.1"));
        QVERIFY(!cc.byName("GRID").has_value());
    }

    void nothingRecognisedIsSaid()
    {
        auto snap = importPastes({{"notes.txt", "my GPU is fast, please help\n"}}, {});
        QVERIFY(snap.gpus.empty());
        QCOMPARE(snap.probes.size(), std::size_t(1));
        QVERIFY(snap.probes[0].status == ProbeStatus::Failed);
        QVERIFY(snap.probes[0].detail.rfind("notes.txt: no GPU found", 0) == 0);
    }

    void boundedInputs()
    {
        QTemporaryDir dir;
        const std::string base = dir.path().toStdString();
        auto missing = importSnapshotFiles({base + "/none.txt"}, {});
        QVERIFY(!missing);
        QCOMPARE(missing.error().message, base + "/none.txt: no such file");
        QVERIFY(exitCodeOf(missing.error()) == 3);

        auto folder = importSnapshotFiles({base}, {});
        QVERIFY(!folder);
        QVERIFY2(folder.error().message.rfind(base + ": is a directory", 0) == 0,
                 folder.error().message.c_str());

        const std::string fifo = base + "/pipe";
        QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
        auto pipe = importSnapshotFiles({fifo}, {}); // refused without opening: never blocks
        QVERIFY(!pipe);
        QVERIFY2(pipe.error().message.rfind(fifo + ": is a FIFO", 0) == 0,
                 pipe.error().message.c_str());

        const std::string big = base + "/big.txt";
        {
            std::ofstream out(big, std::ios::binary);
            out << "  Name:  gfx1030\n";
            out.seekp(std::streamoff(kMaxPasteBytes));
            out << "x";
        }
        auto large = importSnapshotFiles({big}, {});
        QVERIFY(!large);
        QVERIFY2(large.error().message.rfind(big + ": ", 0) == 0 &&
                     large.error().message.find("larger than") != std::string::npos,
                 large.error().message.c_str());

        std::vector<std::string> many(kMaxPasteFiles + 1, big);
        auto tooMany = importSnapshotFiles(many, {});
        QVERIFY(!tooMany);
        QVERIFY(tooMany.error().code == ErrorCode::Usage);
    }

private:
    static int exitCodeOf(const Error& e) { return static_cast<int>(e.code); }
};

QTEST_GUILESS_MAIN(TestSnapshotImport)
#include "test_snapshot_import.moc"
