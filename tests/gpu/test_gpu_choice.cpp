// Choosing the GPU (issue 31), end to end through the CLI: a multi-GPU PC's tool outputs
// are imported, then `plan --json --hardware FILE --gpu X` is asked for each GPU; the plan
// must set exactly the visibility variables of its profile's runtimes, each with the index
// that API gives the chosen card (pcs/manifest.json). Then the choice remembered in
// settings.json by bus address survives a reordered snapshot, a removed GPU costs one
// line and the default GPU, and bad --gpu values are one-line usage errors.

#include "support/cli_runner.h"

#include <QTemporaryDir>
#include <QtTest>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

using nlohmann::json;
using sp::test::CliRun;
using sp::test::runCliInProcess;

namespace {

const std::string kPcs = GPU_PCS_DIR;

json readJson(const std::string& path)
{
    std::ifstream in(path);
    return json::parse(in);
}

void writeJson(const std::string& path, const json& j)
{
    std::filesystem::create_directories(std::filesystem::path(path).parent_path());
    std::ofstream(path) << j.dump(1);
}

QString q(const std::string& s)
{
    return QString::fromStdString(s);
}

// Imports one PC's outputs into `out`; the rc and messages of the verb.
CliRun importPc(const json& pc, const std::string& out)
{
    QStringList args{QStringLiteral("snapshot"), QStringLiteral("import")};
    for (const auto& f : pc["files"])
        args << q(kPcs + "/" + pc["pc"].get<std::string>() + "/" + f.get<std::string>());
    args << QStringLiteral("--os") << q(pc["os"]) << QStringLiteral("-o") << q(out);
    return runCliInProcess(args);
}

CliRun plan(const std::string& snapshot, const std::string& workload, const std::string& gpu,
            const std::string& profile = {})
{
    QStringList args{QStringLiteral("plan"),
                     QStringLiteral("--workload"),
                     q(workload),
                     QStringLiteral("--hardware"),
                     q(snapshot),
                     QStringLiteral("--json")};
    if (!gpu.empty())
        args << QStringLiteral("--gpu") << q(gpu);
    if (!profile.empty())
        args << QStringLiteral("--profile") << q(profile);
    return runCliInProcess(args);
}

// The plan's visibility variables, among those the manifest names.
std::map<std::string, std::string> visibility(const json& plan, const json& names)
{
    std::map<std::string, std::string> out;
    for (const auto& n : names)
        if (plan["env"].contains(n.get<std::string>()))
            out[n] = plan["env"][n.get<std::string>()];
    return out;
}

} // namespace

class TestGpuChoice : public QObject
{
    Q_OBJECT

    QTemporaryDir m_home;

private slots:
    void initTestCase()
    {
        QVERIFY(m_home.isValid());
        qputenv("STACKPILOT_HOME", m_home.path().toUtf8());
    }

    // Every PC, every case: exactly the expected variables, each API's own index.
    void eachGpuOfEachPcIsNumberedRightInEveryApi()
    {
        const json m = readJson(kPcs + "/manifest.json");
        int cases = 0;
        for (const auto& pc : m["pcs"]) {
            const std::string snap =
                m_home.filePath(q(pc["pc"]) + QStringLiteral(".json")).toStdString();
            const auto imported = importPc(pc, snap);
            QVERIFY2(imported.rc == 0, (pc["pc"].dump() + imported.err).c_str());
            for (const auto& c : pc["cases"]) {
                const std::string what = pc["pc"].get<std::string>() + " --gpu " +
                                         c["gpu"].get<std::string>() + " " +
                                         c["workload"].get<std::string>();
                const auto r = plan(snap, c["workload"], c["gpu"], c.value("profile", ""));
                QVERIFY2(r.rc == 0, (what + ": " + r.err).c_str());
                const json p = json::parse(r.out);
                const auto got = visibility(p, m["visibility_variables"]);
                const auto want = c["env"].get<std::map<std::string, std::string>>();
                QVERIFY2(
                    got == want,
                    (what + ": got " + json(got).dump() + " in " + p["profile"].dump()).c_str());
                QCOMPARE(p["gpu_card"]["target"].get<std::string>(),
                         c["target"].get<std::string>());
                QCOMPARE(p["gpu_card"]["chosen_by"].get<std::string>(), std::string("--gpu"));
                for (const auto& w : p["warnings"]) // every index was learned, none believed
                    QVERIFY2(w.get<std::string>().find("could not be learned") == std::string::npos,
                             (what + ": " + w.dump()).c_str());
                ++cases;
            }
        }
        qInfo("%d GPU choices on 5 multi-GPU PCs numbered right in every API", cases);
        QVERIFY(cases >= 18);
    }

    // Chosen by bus address in settings.json; the snapshot's GPU order changes (a card
    // moved in the list, as after adding one): the same card stays chosen.
    void aChoiceByBusSurvivesAReorderedSnapshot()
    {
        const json m = readJson(kPcs + "/manifest.json");
        const std::string snap = m_home.filePath(QStringLiteral("mi.json")).toStdString();
        QCOMPARE(importPc(m["pcs"][3], snap).rc, 0);
        json s = readJson(snap);
        const std::string settings =
            m_home.filePath(QStringLiteral("config/settings.json")).toStdString();
        writeJson(settings, {{"workloads",
                              {{"pytorch",
                                {{"gpu",
                                  {{"pci_bus", "0000:03:00.0"},
                                   {"pci_id", "1002:740f"},
                                   {"name", "AMD Instinct MI210"}}}}}}}});
        auto before = plan(snap, "pytorch", "");
        QVERIFY2(before.rc == 0, before.err.c_str());
        const json p1 = json::parse(before.out);
        QCOMPARE(p1["gpu_card"]["pci_bus"].get<std::string>(), std::string("0000:03:00.0"));
        QCOMPARE(p1["gpu_card"]["chosen_by"].get<std::string>(), std::string("settings"));
        QCOMPARE(p1["env"]["ROCR_VISIBLE_DEVICES"].get<std::string>(), std::string("1"));

        std::reverse(s["gpus"].begin(), s["gpus"].end());
        const std::string reordered =
            m_home.filePath(QStringLiteral("mi-reordered.json")).toStdString();
        writeJson(reordered, s);
        const json p2 = json::parse(plan(reordered, "pytorch", "").out);
        QCOMPARE(p2["gpu_card"]["pci_bus"].get<std::string>(), std::string("0000:03:00.0"));
        QVERIFY(p2["gpu"] != p1["gpu"]); // its position changed, the card did not
        QCOMPARE(p2["env"]["ROCR_VISIBLE_DEVICES"].get<std::string>(), std::string("1"));

        // The card is gone: one line naming it, and the default rule picks.
        s["gpus"].erase(s["gpus"].begin() + p2["gpu"].get<int>()); // 03:00.0 is taken out
        s["gpus"][0].erase("indices"); // a new detection numbers what is left afresh
        const std::string removed =
            m_home.filePath(QStringLiteral("mi-removed.json")).toStdString();
        writeJson(removed, s);
        const auto r3 = plan(removed, "pytorch", "");
        QVERIFY2(r3.rc == 0, r3.err.c_str());
        const json p3 = json::parse(r3.out);
        QCOMPARE(p3["gpu_card"]["pci_bus"].get<std::string>(), std::string("0000:83:00.0"));
        QCOMPARE(p3["gpu_card"]["chosen_by"].get<std::string>(), std::string("default"));
        int gone = 0;
        for (const auto& w : p3["warnings"])
            gone +=
                w.get<std::string>().find(
                    "AMD Instinct MI210 at 0000:03:00.0, is not in this PC") != std::string::npos;
        QCOMPARE(gone, 1);
        std::filesystem::remove(settings);
    }

    // A GPU chosen on purpose is the plan's card; without a choice the discrete one is.
    void theDefaultIsTheDiscreteCardAndTheIgpuIsHidden()
    {
        const json m = readJson(kPcs + "/manifest.json");
        const std::string snap = m_home.filePath(QStringLiteral("apu.json")).toStdString();
        QCOMPARE(importPc(m["pcs"][0], snap).rc, 0);
        const json p = json::parse(plan(snap, "pytorch", "").out);
        QCOMPARE(p["gpu_card"]["target"].get<std::string>(), std::string("gfx1100"));
        QCOMPARE(p["gpu_card"]["chosen_by"].get<std::string>(), std::string("default"));
        // ROCr shows only the 7900 XTX (its device 1): the 780M (device 0) is hidden.
        QCOMPARE(p["env"]["ROCR_VISIBLE_DEVICES"].get<std::string>(), std::string("1"));
        QVERIFY(p["env_why"]["ROCR_VISIBLE_DEVICES"].get<std::string>().find(
                    "every other GPU is hidden") != std::string::npos);
    }

    // The iGPU by choice: its shared memory (GTT) is its memory for the plan.
    void anIgpuChosenOnPurposeCountsItsSharedMemory()
    {
        const std::string snap = m_home.filePath(QStringLiteral("shared.json")).toStdString();
        writeJson(snap, json::parse(R"({"schema": 1, "os": {"family": "linux"}, "gpus": [
            {"vendor": "amd", "name": "AMD Radeon 780M Graphics", "pci_bus": "0000:c5:00.0",
             "pci_id": "1002:15bf", "gfx": "gfx1103", "vram_mb": 512, "gtt_mb": 15872,
             "integrated": true, "kfd_node": 1},
            {"vendor": "amd", "name": "Radeon RX 7900 XTX", "pci_bus": "0000:03:00.0",
             "pci_id": "1002:744c", "gfx": "gfx1100", "vram_mb": 24560, "integrated": false,
             "kfd_node": 2}]})"));
        const json p = json::parse(plan(snap, "pytorch", "0000:c5:00.0").out);
        QCOMPARE(p["gpu_card"]["memory_mb"].get<int>(), 15872);
        QCOMPARE(p["gpu_card"]["integrated"].get<bool>(), true);
        // No tool numbered them, but the KFD nodes give ROCr's order: learned, not believed.
        QCOMPARE(p["env"]["ROCR_VISIBLE_DEVICES"].get<std::string>(), std::string("0"));
        QVERIFY(p["env_why"]["ROCR_VISIBLE_DEVICES"].get<std::string>().find("KFD node order") !=
                std::string::npos);
        const json d = json::parse(plan(snap, "pytorch", "").out);
        QCOMPARE(d["gpu_card"]["memory_mb"].get<int>(), 24560);
        QCOMPARE(d["env"]["ROCR_VISIBLE_DEVICES"].get<std::string>(), std::string("1"));
    }

    void badGpuValuesAreOneLineUsageErrors()
    {
        const json m = readJson(kPcs + "/manifest.json");
        const std::string snap = m_home.filePath(QStringLiteral("bad.json")).toStdString();
        QCOMPARE(importPc(m["pcs"][3], snap).rc, 0);
        struct Bad
        {
            const char* gpu;
            const char* says;
        };
        for (const Bad& b : {Bad{"Radeon VII", "names no GPU of this PC"},
                             Bad{"7", "is past the end: this PC has 2 GPU(s)"},
                             Bad{"0000:44:00.0", "names no GPU of this PC"},
                             Bad{"MI210", "give the bus address (or index) of one: 0000:"}}) {
            const auto r = plan(snap, "pytorch", b.gpu);
            QVERIFY2(r.rc == 2, (std::string(b.gpu) + ": " + r.err).c_str());
            QVERIFY2(r.err.find(b.says) != std::string::npos, r.err.c_str());
            QCOMPARE(std::count(r.err.begin(), r.err.end(), '\n'), 1L);
            QVERIFY(r.out.empty());
        }
    }

    // A snapshot whose probe lists more HIP devices than the PCI list has AMD GPUs, and a
    // vulkaninfo paste cut off inside a device: refused with one line, nothing written.
    void untrustworthyNumberingIsRefused()
    {
        const std::string snap = m_home.filePath(QStringLiteral("hip.json")).toStdString();
        QCOMPARE(importPc(readJson(kPcs + "/manifest.json")["pcs"][1], snap).rc, 0);
        json s = readJson(snap);
        s["gpus"][0]["indices"]["hip"] = 2; // two AMD GPUs, yet a HIP device 2
        const std::string bad = m_home.filePath(QStringLiteral("hip-bad.json")).toStdString();
        writeJson(bad, s);
        const auto r = plan(bad, "pytorch", "");
        QCOMPARE(r.rc, 3);
        QVERIFY2(r.err.find("more HIP devices than the PCI list") != std::string::npos,
                 r.err.c_str());

        const QString cut = m_home.filePath(QStringLiteral("vulkaninfo-cut.txt"));
        std::ofstream(cut.toStdString()) << "$ vulkaninfo --summary\nDevices:\n========\nGPU0:\n"
                                            "\tvendorID           = 0x1002\n\tdeviceName         = "
                                            "AMD Radeon RX 7900 XTX (RADV NAVI31)\nGPU1:\n\tapiVer";
        const QString out = m_home.filePath(QStringLiteral("cut.json"));
        const auto i = runCliInProcess(
            {QStringLiteral("snapshot"), QStringLiteral("import"), cut, QStringLiteral("-o"), out});
        QCOMPARE(i.rc, 3);
        QVERIFY2(i.err.find("cut off in GPU1") != std::string::npos, i.err.c_str());
        QVERIFY(!QFile::exists(out));
    }
};

QTEST_GUILESS_MAIN(TestGpuChoice)
#include "test_gpu_choice.moc"
