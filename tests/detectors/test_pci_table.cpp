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
        const auto tahiti = PciTable::shipped().lookup(0x6798, 0x00);
        QVERIFY(tahiti);
        QCOMPARE(tahiti->gfx, std::string());
        QCOMPARE(tahiti->family, std::string("Tahiti"));
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
