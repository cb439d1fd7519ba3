#include "core/snapshot.h"

#include <QTest>

using namespace sp;

class TestSnapshot : public QObject
{
    Q_OBJECT
private slots:
    void roundTripIsLossless()
    {
        const char* text = R"({
          "schema": 1, "future_top": {"a": [1, 2]},
          "os": {"family": "windows", "version": "10.0.22631", "build_lab": "x"},
          "home": {"path": "C:\\Users\\u", "filesystem": "ntfs", "network": false},
          "gpus": [{"vendor": "amd", "name": "AMD Radeon RX 6750 XT", "pci_id": "1002:73df",
                    "pci_revision": "c0", "pci_bus": "0000:03:00.0", "gfx": "gfx1031",
                    "compute_capability": null, "vram_mb": 12288, "gtt_mb": null,
                    "integrated": false, "driver_version": "31.0.24027.1012",
                    "compute_units": 40, "kfd_node": null, "sources": ["dxgi", "pci-table"],
                    "subsys": "0x2412"}],
          "runtimes": [{"kind": "hip-sdk", "version": "5.7.1", "path": "C:\\AMD\\ROCm\\5.7"}],
          "probes": [{"name": "hip", "status": "crashed", "detail": "0xC0000005", "ms": 12}]
        })";
        auto a = parseSnapshot(text, "in.json");
        QVERIFY2(a.ok(), a.ok() ? "" : a.error().message.c_str());
        QCOMPARE(a->gpus.size(), std::size_t(1));
        QCOMPARE(*a->gpus[0].gfx, std::string("gfx1031"));
        QVERIFY(a->gpus[0].extra["subsys"] == nlohmann::json("0x2412"));
        QVERIFY(a->probes[0].status == ProbeStatus::Crashed);

        const auto once = toJson(*a);
        auto b = snapshotFromJson(once, "once");
        QVERIFY(b.ok());
        QVERIFY(*a == *b);
        QVERIFY(toJson(*b) == once);
        // Every input key survives the round trip.
        const auto input = nlohmann::json::parse(text);
        QVERIFY(once["future_top"] == input["future_top"]);
        QVERIFY(once["os"]["build_lab"] == input["os"]["build_lab"]);
        QVERIFY(once["probes"][0]["ms"] == input["probes"][0]["ms"]);
    }

    void errorsNamePosition()
    {
        auto bad =
            parseSnapshot("{\"schema\": 1,\n \"gpus\": [ {\"vram_mb\": \"lots\"} ]}", "snap.json");
        QVERIFY(!bad.ok());
        QVERIFY(bad.error().code == ErrorCode::InvalidInput);
        QCOMPARE(bad.error().message,
                 std::string("snap.json: /gpus/0/vram_mb: expected an integer or null"));

        auto syntax = parseSnapshot("{\"schema\": 1,\n  \"gpus\": [,]}", "s.json");
        QVERIFY(!syntax.ok());
        QVERIFY2(syntax.error().message.rfind("s.json:2:", 0) == 0, syntax.error().message.c_str());

        auto schema = parseSnapshot("{\"schema\": 7}", "x");
        QVERIFY(!schema.ok());
        QVERIFY(schema.error().message.find("/schema") != std::string::npos);

        auto status =
            parseSnapshot(R"({"schema":1,"probes":[{"name":"hip","status":"weird"}]})", "p");
        QVERIFY(!status.ok());
        QVERIFY(status.error().message.find("/probes/0/status") != std::string::npos);
    }

    // Issue 31: each GPU's number per API; a snapshot without them (every older one) reads.
    void deviceNumbersPerApi()
    {
        const char* two = R"({"schema": 1, "os": {"family": "linux"}, "gpus": [
            {"vendor": "amd", "name": "780M", "pci_bus": "0000:c5:00.0",
             "indices": {"rocr": 0, "vulkan": 1, "future-api": 3}},
            {"vendor": "amd", "name": "7900 XTX", "pci_bus": "0000:03:00.0",
             "indices": {"rocr": 1, "vulkan": 0}}]})";
        auto s = parseSnapshot(two, "two.json");
        QVERIFY2(s.ok(), s.ok() ? "" : s.error().message.c_str());
        QCOMPARE(s->gpus[0].indices.at("rocr"), 0);
        QCOMPARE(s->gpus[1].indices.at("vulkan"), 0);
        const auto back = toJson(*s);
        QCOMPARE(back["gpus"][0]["indices"]["future-api"].get<int>(), 3); // kept for newer readers
        QVERIFY(!toJson(HardwareSnapshot{})["gpus"].size());

        auto old = parseSnapshot(R"({"schema":1,"gpus":[{"vendor":"amd","name":"x"}]})", "old");
        QVERIFY(old.ok() && old->gpus[0].indices.empty());
        QVERIFY(!toJson(*old)["gpus"][0].contains("indices"));

        auto type = parseSnapshot(R"({"schema":1,"gpus":[{"indices":{"hip":"0"}}]})", "t.json");
        QVERIFY(!type.ok());
        QCOMPARE(type.error().message,
                 std::string("t.json: /gpus/0/indices/hip: expected a device index 0-255"));

        auto same = parseSnapshot(R"({"schema":1,"gpus":[{"vendor":"amd","indices":{"hip":0}},
                                  {"vendor":"amd","indices":{"hip":0}}]})",
                                  "same.json");
        QVERIFY(!same.ok());
        QVERIFY(same.error().message.find("two GPUs have HIP device 0") != std::string::npos);

        // A probe that saw three HIP devices where the PCI list has two AMD GPUs.
        auto more =
            parseSnapshot(R"({"schema":1,"gpus":[{"vendor":"amd","name":"a","indices":{"hip":0}},
                                  {"vendor":"amd","name":"b","indices":{"hip":2}}]})",
                          "more.json");
        QVERIFY(!more.ok());
        QVERIFY(more.error().code == ErrorCode::InvalidInput);
        QVERIFY2(more.error().message.find(
                     "b is HIP device 2 but the snapshot lists 2 AMD GPU(s)") != std::string::npos,
                 more.error().message.c_str());
        // Vulkan numbers CPU devices too: an index past the GPUs is fine there.
        QVERIFY(
            parseSnapshot(R"({"schema":1,"gpus":[{"vendor":"amd","indices":{"vulkan":2}}]})", "v")
                .ok());
    }

    void networkFilesystems()
    {
        QVERIFY(isNetworkFilesystem("nfs4"));
        QVERIFY(isNetworkFilesystem("cifs"));
        QVERIFY(isNetworkFilesystem("fuse.sshfs"));
        QVERIFY(!isNetworkFilesystem("ext4"));
        QVERIFY(!isNetworkFilesystem("btrfs"));
        QVERIFY(!isNetworkFilesystem("fuse.portal"));
    }
};

QTEST_GUILESS_MAIN(TestSnapshot)
#include "test_snapshot.moc"
