// The doctor's checks of the catalog and the plan: drivers known to break a stack (d),
// free disk for the profile (e), installed runtimes that fail verify (g), the port in
// use (h). Each check gets a fixture that trips it and one that does not.

#include "core/ownership.h"
#include "doctor_fixtures.h"
#include "installers/prefix_store.h"

#include <QTest>

using namespace doctor_fixtures;
using fixtures::machine;
using fixtures::nvidia;
using fixtures::shippedCatalog;

namespace {

constexpr std::uint64_t kGB = 1'000'000'000;

// A catalog with one downloaded runtime "big" (two artifacts, 3 GB together) and a
// plan that uses it.
sp::Catalog smallCatalog()
{
    sp::Catalog cat;
    sp::Runtime r;
    r.id = "big";
    r.artifacts.resize(2);
    r.artifacts[0].size = 2 * kGB;
    r.artifacts[1].size = 1 * kGB;
    cat.runtimes.push_back(r);
    return cat;
}

sp::Plan planWith(std::vector<std::string> args)
{
    sp::Plan plan;
    plan.workload = "comfyui";
    plan.profile = "p";
    plan.runtimes.push_back({"big", "python", "1", "", false, false, false, {}});
    plan.command = {"python", "main.py"};
    plan.args = std::move(args);
    return plan;
}

} // namespace

class TestDoctorPlan : public QObject
{
    Q_OBJECT

private slots:
    void blackwellOnOldDriver()
    {
        QTemporaryDir dir;
        auto gpu = nvidia("NVIDIA GeForce RTX 5090", "12.0", 32768);
        gpu.driverVersion = "565.77";
        const auto snap = machine("linux", {gpu});
        const auto f = sp::doctor::checkDriverKnownIssues(inputFor(snap, shippedCatalog(), dir));
        QVERIFY(hasFinding(f, "driver:nvidia-blackwell-driver-too-old-for-cuda128"));
        QCOMPARE(f.front().severity, std::string("error"));
        QVERIFY(f.front().fix.find("570.26") != std::string::npos);
    }
    void blackwellOnNewDriverOrOlderCard()
    {
        QTemporaryDir dir;
        auto gpu = nvidia("NVIDIA GeForce RTX 5090", "12.0", 32768);
        gpu.driverVersion = "570.133.07";
        const auto fresh = machine("linux", {gpu});
        QVERIFY(sp::doctor::checkDriverKnownIssues(inputFor(fresh, shippedCatalog(), dir)).empty());
        // An Ada card on the same old driver runs CUDA 12.6 builds: not this rule.
        auto ada = nvidia("NVIDIA GeForce RTX 4090", "8.9", 24564);
        ada.driverVersion = "565.77";
        const auto older = machine("linux", {ada});
        QVERIFY(sp::doctor::checkDriverKnownIssues(inputFor(older, shippedCatalog(), dir)).empty());
    }

    void diskTooSmall()
    {
        QTemporaryDir dir;
        const auto snap = machine("linux", {});
        const auto cat = smallCatalog();
        const auto plan = planWith({});
        auto in = inputFor(snap, cat, dir);
        in.plan = &plan;
        in.freeSpace = [](const std::filesystem::path&) {
            return std::optional<std::uint64_t>(5 * kGB);
        };
        const auto f = sp::doctor::checkFreeDisk(in);
        QVERIFY(hasFinding(f, "disk-space"));
        QVERIFY2(f.front().text.find("6.0 GB") != std::string::npos, f.front().text.c_str());
    }
    void diskLargeEnough()
    {
        QTemporaryDir dir;
        const auto snap = machine("linux", {});
        const auto cat = smallCatalog();
        const auto plan = planWith({});
        auto in = inputFor(snap, cat, dir);
        in.plan = &plan;
        in.freeSpace = [](const std::filesystem::path&) {
            return std::optional<std::uint64_t>(6 * kGB);
        };
        QVERIFY(sp::doctor::checkFreeDisk(in).empty());
    }

    void runtimeModifiedOrIntact()
    {
        QTemporaryDir dir;
        const auto snap = machine("linux", {});
        const auto cat = smallCatalog();
        const auto plan = planWith({});
        auto in = inputFor(snap, cat, dir);
        in.plan = &plan;
        // Not installed: nothing to verify.
        QVERIFY(sp::doctor::checkRuntimesVerify(in).empty());
        sp::PrefixStore store(in.runtimesDir);
        QVERIFY(store.ensureRoot().ok());
        QVERIFY(sp::ownership::createOwned(store.runtimeDir("big"), "test").ok());
        std::ofstream(store.runtimeDir("big") / "f") << "abc";
        sp::Receipt receipt;
        receipt.id = "big";
        receipt.files.push_back({"f",
                                 sp::FileRecord::Type::File,
                                 3,
                                 "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
                                 {},
                                 false});
        QVERIFY(receipt.save(store.receiptFile("big")).ok());
        QVERIFY(sp::doctor::checkRuntimesVerify(in).empty());
        std::ofstream(store.runtimeDir("big") / "f") << "abd";
        const auto f = sp::doctor::checkRuntimesVerify(in);
        QVERIFY(hasFinding(f, "verify:big"));
        QCOMPARE(f.front().fix, std::string("stackpilot-cli repair big"));
    }

    void portInUse()
    {
        QTemporaryDir dir;
        const auto snap = machine("linux", {});
        const auto cat = smallCatalog();
        const auto plan = planWith({"--listen", "--port", "8189"});
        auto in = inputFor(snap, cat, dir);
        in.plan = &plan;
        int asked = 0;
        in.portCheck = [&](int port) {
            asked = port;
            return sp::PortStatus{port, true, sp::PortHolder{4242, "python3"}};
        };
        const auto f = sp::doctor::checkPortFree(in);
        QCOMPARE(asked, 8189);
        QVERIFY(hasFinding(f, "port-in-use"));
        QCOMPARE(f.front().text, std::string("port 8189 is in use by python3 (pid 4242)"));
        QVERIFY(f.front().fix.find("kill 4242") != std::string::npos);
    }
    void portFreeOrNotGiven()
    {
        QTemporaryDir dir;
        const auto snap = machine("linux", {});
        const auto cat = smallCatalog();
        auto plan = planWith({"--port=8189"});
        auto in = inputFor(snap, cat, dir);
        in.plan = &plan;
        int calls = 0;
        in.portCheck = [&](int port) {
            ++calls;
            return sp::PortStatus{port, false, std::nullopt};
        };
        QVERIFY(sp::doctor::checkPortFree(in).empty());
        plan.args.clear();
        QVERIFY(sp::doctor::checkPortFree(in).empty());
        QCOMPARE(calls, 1);
        // Without --port, the workload's default from the catalog.
        auto withPort = smallCatalog();
        withPort.workloads.push_back({});
        withPort.workloads.back().id = "comfyui";
        withPort.workloads.back().defaultPort = 8188;
        in.catalog = &withPort;
        int asked = 0;
        in.portCheck = [&](int port) {
            asked = port;
            return sp::PortStatus{port, true, std::nullopt};
        };
        QCOMPARE(sp::doctor::checkPortFree(in).front().text, std::string("port 8188 is in use"));
        QCOMPARE(asked, 8188);
    }

    void allChecksAndJson()
    {
        QTemporaryDir dir;
        const auto snap = machine("linux", {});
        auto in = inputFor(snap, shippedCatalog(), dir);
        in.dataDir = "/home/u/OneDrive/sp";
        const auto findings = sp::doctor::runAllChecks(in);
        QVERIFY(hasFinding(findings, "install-path-onedrive"));
        const auto j = sp::doctor::toJson(findings);
        QCOMPARE(j.at("findings").size(), findings.size());
        QCOMPARE(j.at("findings").at(0).at("id").get<std::string>(),
                 std::string("install-path-onedrive"));
    }
};

QTEST_GUILESS_MAIN(TestDoctorPlan)
#include "test_doctor_plan.moc"
