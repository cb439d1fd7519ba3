// The NVIDIA compute capability table as shipped (NVIDIA's CUDA GPU list and the PCI ids
// of NVIDIA's open kernel modules), and the AMD table's lookup by marketing name.

#include "detectors/nvidia_cc_table.h"
#include "detectors/pci_table.h"

#include <QtTest>

using namespace sp;

namespace {

const NvidiaCcTable& table()
{
    return NvidiaCcTable::shipped();
}

} // namespace

class TestNvidiaCcTable : public QObject
{
    Q_OBJECT

private slots:
    void loads() { QVERIFY2(table().size() > 150, table().loadError().c_str()); }

    // Names as tools print them, across the series the brief asks for.
    void namesAcrossSeries_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("cc");
        const char* rows[][2] = {
            {"NVIDIA GeForce GTX 980 Ti", "5.2"},
            {"GeForce GTX 960M", "5.0"},
            {"NVIDIA GeForce GTX 1080 Ti", "6.1"},
            {"NVIDIA GeForce GTX 1050 Ti", "6.1"},
            {"NVIDIA GeForce GTX 1660 SUPER", "7.5"},
            {"NVIDIA GeForce GTX 1650 Ti with Max-Q Design", "7.5"},
            {"NVIDIA GeForce RTX 2080 Ti", "7.5"},
            {"NVIDIA GeForce RTX 2070 Super with Max-Q Design", "7.5"},
            {"NVIDIA GeForce RTX 3060 Laptop GPU", "8.6"},
            {"NVIDIA GeForce RTX 3090", "8.6"},
            {"NVIDIA GeForce RTX 4090 Laptop GPU", "8.9"},
            {"NVIDIA GeForce RTX 4060 Ti", "8.9"},
            {"NVIDIA GeForce RTX 5090", "12.0"},
            {"GeForce RTX 5090 Max-Q / Mobile", "12.0"},
            {"NVIDIA GeForce RTX 5090 D v2", "12.0"},
            {"Tesla P100-PCIE-16GB", "6.0"},
            {"Tesla V100-SXM2-16GB", "7.0"},
            {"Tesla T4", "7.5"},
            {"NVIDIA A100-SXM4-80GB", "8.0"},
            {"NVIDIA A100 80GB PCIe", "8.0"},
            {"NVIDIA H100 80GB HBM3", "9.0"},
            {"NVIDIA H100 PCIe", "9.0"},
            {"NVIDIA L4", "8.9"},
            {"NVIDIA L40S", "8.9"},
            {"NVIDIA B200", "10.0"},
            {"NVIDIA RTX A6000", "8.6"},
            {"Quadro RTX 6000", "7.5"},
            {"NVIDIA RTX 6000 Ada Generation", "8.9"},
            {"TITAN X (Pascal)", "6.1"},
            {"GeForce GTX TITAN X", "5.2"},
            {"NVIDIA TITAN Xp", "6.1"},
            {"NVIDIA TITAN RTX", "7.5"},
        };
        for (const auto& r : rows)
            QTest::newRow(r[0]) << QString::fromLatin1(r[0]) << QString::fromLatin1(r[1]);
    }
    void namesAcrossSeries()
    {
        QFETCH(QString, name);
        QFETCH(QString, cc);
        QCOMPARE(QString::fromStdString(table().byName(name.toStdString()).value_or("none")), cc);
    }

    void unknownAndAmbiguousNamesGiveNothing()
    {
        QVERIFY(!table().byName("NVIDIA A10G"));          // "A10" followed by more of a word
        QVERIFY(!table().byName("NVIDIA GeForce MX450")); // not in NVIDIA's list
        QVERIFY(!table().byName("NVIDIA GeForce RTX 2050"));
        QVERIFY(!table().byName(""));
        // A name the table cut short matches only where every candidate agrees.
        QCOMPARE(table().byName("NVIDIA GeForce RTX 406", true).value_or(""), std::string("8.9"));
        QVERIFY(!table().byName("NVIDIA GeForce RTX", true));
        QVERIFY(!table().byName("NVIDIA GeForce RTX 406")); // not marked as cut: no guess
    }

    void byPciDevice()
    {
        QCOMPARE(table().byDevice(0x2684).value_or(""), std::string("8.9")); // RTX 4090
        QCOMPARE(table().byDevice(0x1e30).value_or(""), std::string("7.5")); // Quadro RTX 6000/8000
        QCOMPARE(table().byDevice(0x2c58).value_or(""), std::string("12.0")); // RTX 5090 Laptop
        QCOMPARE(table().byDevice(0x20b2).value_or(""), std::string("8.0"));  // A100 SXM4 80GB
        QCOMPARE(table().byDevice(0x2330).value_or(""), std::string("9.0"));  // H100 80GB HBM3
        QVERIFY(!table().byDevice(0x1b06)); // GTX 1080 Ti: before Turing, no PCI id in the source
    }

    void nameByPciDevice()
    {
        QCOMPARE(table().nameOf(0x2335).value_or(""), std::string("NVIDIA H200"));
        QCOMPARE(table().nameOf(0x2484).value_or(""), std::string("NVIDIA GeForce RTX 3070"));
        QVERIFY(!table().nameOf(0x1e30)); // sold as Quadro RTX 6000 and 8000: no one name
        QVERIFY(!table().nameOf(0x1b06)); // not listed
    }

    void parseErrorsNameTheFile()
    {
        auto bad = NvidiaCcTable::parse(
            R"({"schema":1,"models":[{"name":"X","cc":"eight"}],"devices":[]})", "t.json");
        QVERIFY(!bad);
        QVERIFY2(bad.error().message.rfind("t.json: models[0]", 0) == 0,
                 bad.error().message.c_str());
        const auto withCc = [](const std::string& cc) {
            return "{\"schema\":1,\"models\":[{\"name\":\"X\",\"cc\":\"" + cc +
                   "\"}],\"devices\":[]}";
        };
        for (const char* cc : {"1..", "8.6 ", "8", "123.4", "8.65"})
            QVERIFY2(!NvidiaCcTable::parse(withCc(cc), "t.json"), cc);
        QVERIFY(NvidiaCcTable::parse(withCc("12.0"), "t.json"));
        QVERIFY(!NvidiaCcTable::parse("{", "t.json"));
        QVERIFY(!NvidiaCcTable::parse(R"({"schema":2})", "t.json"));
    }

    void amdMarketingNames()
    {
        const auto& amd = PciTable::shipped();
        QCOMPARE(amd.gfxForName("Radeon RX Vega").value_or(""), std::string("gfx900"));
        QVERIFY(!amd.gfxForName("AMD Radeon(TM) Graphics")); // many integrated parts share it
        QVERIFY(!amd.gfxForName("my card"));
    }
};

QTEST_GUILESS_MAIN(TestNvidiaCcTable)
#include "test_nvidia_cc_table.moc"
