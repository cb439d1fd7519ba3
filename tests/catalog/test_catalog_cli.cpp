// The `profiles`, `plan` and `catalog check` verbs as a user runs them: exit codes and
// messages, in process (runCli, as stackpilot-cli's main calls it).

#include "core/snapshot.h"
#include "support/cli_runner.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

namespace {

sp::test::CliRun cli(const QStringList& args)
{
    return sp::test::runCliInProcess(args);
}

QString writeSnapshot(const QTemporaryDir& dir, const std::string& os, const std::string& gfx)
{
    sp::HardwareSnapshot s;
    s.os.family = os;
    s.home.path = "/home/u";
    s.home.filesystem = "ext4";
    sp::GpuInfo g;
    g.vendor = sp::Vendor::Amd;
    g.name = "AMD Radeon RX 6750 XT";
    g.gfx = gfx;
    g.vramMb = 12288;
    g.integrated = false;
    s.gpus.push_back(g);
    const QString path = dir.filePath(QStringLiteral("snap.json"));
    std::ofstream(path.toStdString()) << sp::toJson(s).dump(2);
    return path;
}

// The shipped catalog in `dir`, without its artifacts and models (so `catalog check` has
// nothing to download), after `edit` changed its documents.
void copyShippedCatalog(const QString& dir, void (*edit)(const std::string&, nlohmann::json&))
{
    namespace fs = std::filesystem;
    for (const auto& e : fs::directory_iterator(STACKPILOT_SOURCE_DIR "/profiles/catalog")) {
        std::ifstream in(e.path());
        auto doc = nlohmann::json::parse(in);
        if (doc.contains("runtimes"))
            for (auto& rt : doc["runtimes"])
                rt.erase("artifacts");
        doc.erase("models");
        edit(e.path().filename().string(), doc);
        std::ofstream(
            QDir(dir).filePath(QString::fromStdString(e.path().filename().string())).toStdString())
            << doc.dump(2);
    }
}

} // namespace

class TestCatalogCli : public QObject
{
    Q_OBJECT
private slots:
    void profilesListsAndFilters()
    {
        auto r = cli({QStringLiteral("profiles"), QStringLiteral("--workload"),
                      QStringLiteral("sdnext"), QStringLiteral("--json")});
        QVERIFY2(r.rc == 0, r.err.c_str());
        const auto j = nlohmann::json::parse(r.out);
        QVERIFY(j["profiles"].size() > 3);
        for (const auto& p : j["profiles"])
            QVERIFY(p["workload"] == "sdnext");
        r = cli({QStringLiteral("profiles"), QStringLiteral("--workload"), QStringLiteral("nope")});
        QCOMPARE(r.rc, 2);
        QVERIFY(r.err.find("unknown workload 'nope'") != std::string::npos);
    }

    void planSeed000FromSnapshot()
    {
        QTemporaryDir dir;
        const auto snap = writeSnapshot(dir, "windows", "gfx1031");
        auto r =
            cli({QStringLiteral("plan"), QStringLiteral("--workload"), QStringLiteral("sdnext"),
                 QStringLiteral("--hardware"), snap, QStringLiteral("--json")});
        QVERIFY2(r.rc == 0, r.err.c_str());
        const auto j = nlohmann::json::parse(r.out);
        QCOMPARE(j["profile"]["id"].get<std::string>(),
                 std::string("sdnext-zluda-hip5.7-rocblas-gfx1031"));
        QVERIFY(j["env"]["HIP_PATH"] == "C:\\Program Files\\AMD\\ROCm\\5.7\\");
        // Same input, same bytes.
        auto again =
            cli({QStringLiteral("plan"), QStringLiteral("--workload"), QStringLiteral("sdnext"),
                 QStringLiteral("--hardware"), snap, QStringLiteral("--json")});
        QCOMPARE(again.out, r.out);
        // Human output explains itself on one screen.
        r = cli({QStringLiteral("plan"), QStringLiteral("--workload"), QStringLiteral("sdnext"),
                 QStringLiteral("--hardware"), snap});
        QCOMPARE(r.rc, 0);
        QVERIFY(r.out.find("Will install:") != std::string::npos);
        QVERIFY(r.out.find("why: ") != std::string::npos);
        QVERIFY(r.out.find("[rocm-zluda-rocblas-access-violation]") != std::string::npos);
    }

    void planErrors()
    {
        QTemporaryDir dir;
        const auto snap = writeSnapshot(dir, "linux", "gfx1100");
        auto r = cli({QStringLiteral("plan"), QStringLiteral("--workload"), QStringLiteral("nope"),
                      QStringLiteral("--hardware"), snap});
        QCOMPARE(r.rc, 2);
        r = cli({QStringLiteral("plan"), QStringLiteral("--workload"), QStringLiteral("pytorch"),
                 QStringLiteral("--profile"), QStringLiteral("nope"), QStringLiteral("--hardware"),
                 snap});
        QCOMPARE(r.rc, 2);
        QVERIFY(r.err.find("unknown profile 'nope'") != std::string::npos);
        const QString bad = dir.filePath(QStringLiteral("bad.json"));
        std::ofstream(bad.toStdString()) << "{\"schema\": 1,\n \"gpus\": [,]}";
        r = cli({QStringLiteral("plan"), QStringLiteral("--workload"), QStringLiteral("pytorch"),
                 QStringLiteral("--hardware"), bad});
        QCOMPARE(r.rc, 3);
        QVERIFY2(r.err.find("bad.json:2:") != std::string::npos, r.err.c_str());
    }

    void brokenCatalogDirExits3WithPosition()
    {
        QTemporaryDir dir;
        const auto snap = writeSnapshot(dir, "linux", "gfx1100");
        const QString cat = dir.filePath(QStringLiteral("cat"));
        QDir().mkpath(cat);
        std::ofstream(QString(cat + QStringLiteral("/x.json")).toStdString())
            << "{\"schema_version\": 1, \"profiles\": [\n  {\"id\": \"p\", \"workload\": "
               "\"pytorch\", \"status\": "
               "\"community\",\n   \"runtimes\": [\"ghost\"]}]}";
        auto r =
            cli({QStringLiteral("plan"), QStringLiteral("--workload"), QStringLiteral("pytorch"),
                 QStringLiteral("--hardware"), snap, QStringLiteral("--catalog-dir"), cat});
        QCOMPARE(r.rc, 3);
        QVERIFY2(r.err.find("x.json:3:17: profile 'p' names runtime 'ghost'") != std::string::npos,
                 r.err.c_str());
        r = cli({QStringLiteral("profiles"), QStringLiteral("--catalog-dir"), cat});
        QCOMPARE(r.rc, 3);
        // The same file in the user's own catalog.d is skipped with a warning.
        const QString home = QString::fromLocal8Bit(qgetenv("STACKPILOT_HOME"));
        QVERIFY(!home.isEmpty());
        QDir().mkpath(home + QStringLiteral("/config/catalog.d"));
        QFile::copy(cat + QStringLiteral("/x.json"),
                    home + QStringLiteral("/config/catalog.d/x.json"));
        r = cli({QStringLiteral("profiles"), QStringLiteral("--json")});
        QFile::remove(home + QStringLiteral("/config/catalog.d/x.json"));
        QCOMPARE(r.rc, 0);
        QVERIFY2(r.err.find("x.json:3:17:") != std::string::npos &&
                     r.err.find("skipped") != std::string::npos,
                 r.err.c_str());
        // A user override prints a notice.
        std::ofstream(QString(cat + QStringLiteral("/x.json")).toStdString())
            << "{\"schema_version\": 1, \"profiles\": [{\"id\": \"pytorch-cuda-linux\", "
               "\"workload\": \"pytorch\", "
               "\"status\": \"experimental\", \"runtimes\": [\"python-3.11.15-linux\", "
               "\"torch-cu126\"]}]}";
        r = cli({QStringLiteral("profiles"), QStringLiteral("--catalog-dir"), cat});
        QCOMPARE(r.rc, 0);
        QVERIFY2(r.err.find("notice: profile 'pytorch-cuda-linux' replaces") != std::string::npos,
                 r.err.c_str());
    }

    // `catalog check` holds the user texts to their rule: the shipped ones pass; an id
    // in a summary and a missing translation are one line each, with file and position.
    void catalogCheckReportsUserTexts()
    {
        QTemporaryDir dir;
        const QString clean = dir.filePath(QStringLiteral("clean"));
        QDir().mkpath(clean);
        copyShippedCatalog(clean, [](const std::string&, nlohmann::json&) {});
        auto r = cli({QStringLiteral("catalog"), QStringLiteral("check"), clean});
        QVERIFY2(r.rc == 0, (r.out + r.err).c_str());
        QVERIFY2(r.out.find("user texts: 94 profile(s), 6 workload(s), 39 known issue(s): 0 "
                            "problem(s)") != std::string::npos,
                 r.out.c_str());
        const QString broken = dir.filePath(QStringLiteral("broken"));
        QDir().mkpath(broken);
        copyShippedCatalog(broken, [](const std::string& file, nlohmann::json& doc) {
            if (file == "profiles.json")
                doc["profiles"][0]["ui"]["summary"]["en"] =
                    "See " + doc["profiles"][0]["id"].get<std::string>() + ".";
            if (file == "workloads.json")
                doc["workloads"][0]["ui"]["about"].erase("zh_CN");
        });
        r = cli({QStringLiteral("catalog"), QStringLiteral("check"), broken});
        QCOMPARE(r.rc, 1);
        const std::string at = broken.toStdString();
        QVERIFY2(r.out.find(at + "/profiles.json:") != std::string::npos &&
                     r.out.find(": profile 'sdnext-zluda-hip5.7-rocblas-gfx1031': "
                                "'ui/summary/en' holds profile id") != std::string::npos,
                 r.out.c_str());
        QVERIFY2(r.out.find(at + "/workloads.json:") != std::string::npos &&
                     r.out.find("'ui/about' has no Simplified Chinese text") != std::string::npos,
                 r.out.c_str());
        QVERIFY2(r.out.find(": 2 problem(s)") != std::string::npos, r.out.c_str());
    }
};

QTEST_GUILESS_MAIN(TestCatalogCli)
#include "test_catalog_cli.moc"
