// The shipped AMD PCI table (profiles/gpu/amd-pci-devices.json) and its loader.
#include "detectors/pci_table.h"

#include <QElapsedTimer>
#include <QTest>
#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

using namespace sp;

class TestPciTable : public QObject
{
    Q_OBJECT
private slots:
    void shippedTableLoads()
    {
        const auto& t = PciTable::shipped();
        QVERIFY2(t.size() > 1100, t.loadError().c_str());
    }

    void exactRevisionWins()
    {
        const auto& t = PciTable::shipped();
        // 73FF rev DF is gfx1031 (RX 6750 GRE 10GB); every other 73FF revision is gfx1032.
        QCOMPARE(t.lookup(0x73ff, 0xdf)->gfx, std::string("gfx1031"));
        QCOMPARE(t.lookup(0x73ff, 0xc1)->gfx, std::string("gfx1032"));
        QCOMPARE(t.lookup(0x73ff, 0xc1)->name, std::string("AMD Radeon RX 6600 XT"));
        // An unknown revision falls back to what most revisions of the device are.
        QCOMPARE(t.lookup(0x73ff, 0x99)->gfx, std::string("gfx1032"));
        QCOMPARE(t.lookup(0x73ff, std::nullopt)->gfx, std::string("gfx1032"));
        QCOMPARE(t.lookup(0x73ff, std::nullopt)->name, std::string()); // revisions disagree on it
    }

    void knownCards()
    {
        const auto& t = PciTable::shipped();
        const auto rx6750 = t.lookup(0x73df, 0xc0);
        QVERIFY(rx6750);
        QCOMPARE(rx6750->gfx, std::string("gfx1031"));
        QCOMPARE(rx6750->apu, false);
        QCOMPARE(rx6750->name, std::string("AMD Radeon RX 6750 XT"));
        const auto m780 = t.lookup(0x15bf, 0xc1);
        QCOMPARE(m780->gfx, std::string("gfx1103"));
        QCOMPARE(m780->apu, true);
        QCOMPARE(t.lookup(0x1638, 0xc5)->gfx, std::string("gfx90c"));
        QCOMPARE(t.lookup(0x1638, 0xc5)->apu, true);
        QCOMPARE(t.lookup(0x1638, std::nullopt)->apu, true);
        // Placeholder names ("73DF:40") are not names.
        QCOMPARE(t.lookup(0x73df, 0x40)->name, std::string());
        QVERIFY(!t.lookup(0x0001, 0x00));
    }

    void familyNamesAreNotTargets()
    {
        // GCN1-4 rows keep AMD's family and take their gfx from LLVM's processor table.
        const auto tahiti = PciTable::shipped().lookup(0x6798, 0x00);
        QVERIFY(tahiti);
        QCOMPARE(tahiti->gfx, std::string("gfx600"));
        QCOMPARE(tahiti->family, std::string("Tahiti"));
        QCOMPARE(PciTable::shipped().lookup(0x67df, 0xe7)->gfx, std::string("gfx803")); // RX 580
        // Even if a hand-edited file puts a family in the gfx field.
        auto t = PciTable::parse(
            R"({"schema":1,"devices":[{"device":"6798","revision":"00","gfx":"Tahiti","apu":false,"name":"x"}]})",
            "t.json");
        QVERIFY(t.ok());
        QCOMPARE(t->lookup(0x6798, 0)->gfx, std::string());
    }

    void badFilesAreRejectedWithTheirName()
    {
        for (const char* text : {"{", "[]", R"({"schema":2,"devices":[]})", R"({"schema":1})",
                                 R"({"schema":1,"devices":[{"device":"73zz","revision":"c0"}]})",
                                 R"({"schema":1,"devices":[{"device":"73df","revision":"c"}]})",
                                 R"({"schema":1,"devices":[7]})"}) {
            auto t = PciTable::parse(text, "bad.json");
            QVERIFY2(!t.ok(), text);
            QVERIFY(t.error().message.rfind("bad.json", 0) == 0);
            QVERIFY(t.error().code == ErrorCode::InvalidInput);
        }
        QVERIFY(!PciTable::load("/nonexistent/table.json").ok());
    }

    void amdgpuIdsDevices()
    {
        // Devices only libdrm's amdgpu.ids listed (issue 23), with their names from it.
        const auto& t = PciTable::shipped();
        QCOMPARE(t.lookup(0x738c, 0x01)->gfx, std::string("gfx908"));
        QCOMPARE(t.lookup(0x738c, 0x01)->name, std::string("AMD Instinct MI100"));
        QCOMPARE(t.lookup(0x7408, 0x00)->gfx, std::string("gfx90a"));
        QCOMPARE(t.lookup(0x7424, 0x00)->gfx, std::string("gfx1034"));
        QCOMPARE(t.lookup(0x7424, 0x00)->name, std::string("AMD Radeon RX 6300"));
        QCOMPARE(t.lookup(0x73ff, 0xcf)->gfx, std::string("gfx1032")); // RX 6600 LE
        QCOMPARE(t.lookup(0x75a3, 0xc0)->gfx, std::string("gfx950"));
        // Both sources' names find the gfx.
        QCOMPARE(t.gfxForName("AMD Radeon RX 6300"), std::optional<std::string>("gfx1034"));
        QCOMPARE(t.gfxForName("Radeon RX 570 Series"), std::optional<std::string>("gfx803"));
        QCOMPARE(t.gfxForName("AMD Radeon RX 570 Series"), std::optional<std::string>("gfx803"));
    }

    void everyInstalledAmdgpuIdMapsToAGfxTarget()
    {
        // libdrm's list on this machine (Debian: libdrm-common); STACKPILOT_AMDGPU_IDS
        // names another copy.
        const QByteArray env = qgetenv("STACKPILOT_AMDGPU_IDS");
        const std::string path = env.isEmpty() ? "/usr/share/libdrm/amdgpu.ids" : env.toStdString();
        std::ifstream in(path);
        if (!in)
            QSKIP(("no " + path + " (install libdrm-common)").c_str());
        const auto& t = PciTable::shipped();
        int ids = 0;
        std::string line;
        while (std::getline(in, line)) {
            unsigned device = 0, revision = 0;
            char c1 = 0, c2 = 0;
            std::istringstream row(line);
            if (line.empty() || line[0] == '#' ||
                !(row >> std::hex >> device >> c1 >> revision >> c2) || c1 != ',' || c2 != ',')
                continue;
            ++ids;
            const auto e = t.lookup(std::uint16_t(device), std::uint8_t(revision));
            const std::string where = path + ": " + line;
            QVERIFY2(e && e->gfx.rfind("gfx", 0) == 0, where.c_str());
        }
        QVERIFY2(ids > 400, path.c_str());
        qInfo("%d ids of %s map to a gfx target", ids, path.c_str());
    }

    void parseCost()
    {
        // Not an assertion: figures for whether detect stays cheap on AMD machines,
        // against a general JSON parse of the same text measured alongside.
        std::ifstream in(PciTable::shippedPath(), std::ios::binary);
        std::ostringstream buf;
        buf << in.rdbuf();
        const std::string text = buf.str();
        const int runs = 30;
        std::vector<double> ours, general;
        for (int i = 0; i < runs; ++i) {
            QElapsedTimer t;
            t.start();
            QVERIFY(PciTable::parse(text, "t").ok());
            ours.push_back(double(t.nsecsElapsed()) / 1e6);
            t.restart();
            QVERIFY(!nlohmann::json::parse(text).is_discarded());
            general.push_back(double(t.nsecsElapsed()) / 1e6);
        }
        std::sort(ours.begin(), ours.end());
        std::sort(general.begin(), general.end());
        qInfo("PCI table parse: %.2f ms median; nlohmann::json::parse alone: %.2f ms (%.1fx)",
              ours[runs / 2], general[runs / 2], general[runs / 2] / ours[runs / 2]);
    }
};

QTEST_GUILESS_MAIN(TestPciTable)
#include "test_pci_table.moc"
