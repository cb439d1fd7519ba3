// What the install, repair and uninstall verbs share, in installers/install_plan:
// which runtimes an id means, whether a runtime needs a repair, and the install
// result as JSON.

#include "core/catalog/loader.h"
#include "core/ownership.h"
#include "installers/install_plan.h"

#include <QTemporaryDir>
#include <QTest>
#include <fstream>

namespace fs = std::filesystem;

namespace {

sp::Catalog catalog()
{
    sp::CatalogLoader loader;
    auto r = loader.addText(R"({"schema_version": 1,
      "runtimes": [
        {"id": "a", "kind": "k", "version": "1", "artifacts": []},
        {"id": "b", "kind": "k", "version": "1", "artifacts": []},
        {"id": "sdk", "kind": "hip-sdk", "version": "5.7", "system": true,
         "install_dir": "C:\\Program Files\\AMD\\ROCm\\5.7"}],
      "workloads": [{"id": "w", "name": "W", "command": ["x"]}],
      "profiles": [{"id": "p", "workload": "w", "status": "community", "runtimes": ["b", "a"]}]})",
                            "t.json");
    if (!r)
        qFatal("%s", r.error().message.c_str());
    return loader.catalog();
}

} // namespace

class TestInstallPlan : public QObject
{
    Q_OBJECT
private slots:
    void runtimesOfAnId()
    {
        const auto cat = catalog();
        auto r = sp::runtimesFor(cat, "p");
        QVERIFY(r.ok());
        QCOMPARE(r->size(), std::size_t(2));
        QCOMPARE(r->at(0)->id, std::string("b")); // in the profile's order
        r = sp::runtimesFor(cat, "a");
        QVERIFY(r.ok() && r->size() == 1 && r->front()->id == "a");
        r = sp::runtimesFor(cat, "nothing");
        QVERIFY(!r.ok());
        QCOMPARE(r.error().code, sp::ErrorCode::Usage);
    }

    void repairCheck()
    {
        const auto cat = catalog();
        QTemporaryDir tmp;
        const sp::PrefixStore store(fs::path(tmp.path().toStdString()) / "root");
        // A system runtime is repaired by its own installer, never by StackPilot.
        auto c = sp::checkForRepair(store, *cat.runtime("sdk"));
        QVERIFY(!c.ok());
        QVERIFY(c.error().message.find("its own installer") != std::string::npos);
        // Not installed: a repair installs it.
        c = sp::checkForRepair(store, *cat.runtime("a"));
        QVERIFY(c.ok() && !c->installed && c->needed());
        // A folder of the user's with the runtime's name is refused.
        fs::create_directories(store.runtimeDir("b"));
        std::ofstream(store.runtimeDir("b") / "mine.txt") << "x";
        c = sp::checkForRepair(store, *cat.runtime("b"));
        QVERIFY(!c.ok());
        QVERIFY(c.error().message.find("not created by StackPilot") != std::string::npos);
        // Installed and intact: nothing to repair; a file changed: a repair.
        QVERIFY(store.ensureRoot().ok());
        QVERIFY(sp::ownership::createOwned(store.runtimeDir("a"), "test").ok());
        std::ofstream(store.runtimeDir("a") / "f") << "abc";
        sp::Receipt receipt;
        receipt.id = "a";
        receipt.files.push_back({"f",
                                 sp::FileRecord::Type::File,
                                 3,
                                 "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
                                 {},
                                 false});
        QVERIFY(receipt.save(store.receiptFile("a")).ok());
        c = sp::checkForRepair(store, *cat.runtime("a"));
        QVERIFY(c.ok() && c->installed && !c->needed());
        std::ofstream(store.runtimeDir("a") / "f") << "abd";
        c = sp::checkForRepair(store, *cat.runtime("a"));
        QVERIFY(c.ok() && c->needed());
        QCOMPARE(c->problems.front().issue, std::string("modified"));
    }

    void resultJson()
    {
        sp::InstallResult r;
        r.id = "a";
        r.dir = "/x/a";
        r.files = 3;
        const auto j = sp::toJson(r);
        QCOMPARE(j["id"].get<std::string>(), std::string("a"));
        QCOMPARE(j["files"].get<int>(), 3);
        QVERIFY(j["ok"].get<bool>() && j["artifacts"].empty());
    }
};

QTEST_GUILESS_MAIN(TestInstallPlan)
#include "test_install_plan.moc"
