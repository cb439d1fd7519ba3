// `stackpilot-cli diag export` and re-planning from its bundle, through the CLI runner:
// a bundle's report.json, and the zip itself, plan to the same profile as the machine it
// was made on, with the user's settings (and, from the zip, catalog.d) rather than the
// helper's; --list writes nothing; exit codes 0/1/2/3; a zip bomb, a zip with too
// many entries or one that lies about its size is refused in one line naming the file.

#include "archive_builder.h"
#include "diag_cli_support.h"
#include "diag_fixture.h"
#include "support/cli_runner.h"

#include <QDir>
#include <QTest>
#include <random>
#include <tuple>

using sp::test::makeZip;
using sp::test::q;
using sp::test::runCliInProcess;
namespace fs = std::filesystem;

namespace {

// Rewrites the uncompressed size that the local header and the central directory
// declare for `name` (a zip that lies about what it holds).
bool patchDeclaredSize(std::string& zip, const std::string& name, std::uint32_t size)
{
    const auto u16 = [&](std::size_t at) {
        return static_cast<std::size_t>(static_cast<unsigned char>(zip[at])) |
               static_cast<std::size_t>(static_cast<unsigned char>(zip[at + 1])) << 8;
    };
    const auto put = [&](std::size_t at) {
        for (std::size_t i = 0; i < 4; ++i)
            zip[at + i] = static_cast<char>((size >> (8 * i)) & 0xff);
    };
    int patched = 0;
    // {signature, offset of the name length, offset of the name, offset of the size}
    for (const auto& [sig, lenAt, nameAt, sizeAt] :
         {std::tuple<std::string, std::size_t, std::size_t, std::size_t>{"PK\x03\x04", 26, 30, 22},
          {"PK\x01\x02", 28, 46, 24}})
        for (auto p = zip.find(sig); p != std::string::npos; p = zip.find(sig, p + 4))
            if (p + nameAt + name.size() <= zip.size() &&
                zip.compare(p + nameAt, u16(p + lenAt), name) == 0) {
                put(p + sizeAt);
                ++patched;
            }
    return patched == 2;
}

std::string noise(std::size_t n)
{
    std::mt19937 rng(42);
    std::string s(n, '\0');
    for (auto& c : s)
        c = static_cast<char>(rng());
    return s;
}

// profile id, GPU, runtimes and the verdict on every alternative.
std::string planKey(const std::string& planJson)
{
    const auto j = nlohmann::json::parse(planJson);
    nlohmann::json key = {{"profile", j.at("profile")}, {"gpu", j.at("gpu")}};
    for (const auto& r : j.at("runtimes"))
        key["runtimes"].push_back(r.at("id"));
    for (const auto& a : j.at("alternatives"))
        key["alternatives"][a.at("profile").get<std::string>()] = a.at("verdict");
    return key.dump();
}

} // namespace

class TestDiagCli : public QObject
{
    Q_OBJECT

private slots:
    void replansFromReportAndZip_data()
    {
        QTest::addColumn<QString>("snapshot"); // empty: the Linux fixture in the user's home
        QTest::addColumn<QString>("workload");
        const QString windows =
            QStringLiteral(STACKPILOT_SOURCE_DIR "/tests/fuzz/seeds/snapshot/windows-6750xt.json");
        const QString nfs =
            QStringLiteral(STACKPILOT_SOURCE_DIR "/tests/doctor/fixtures/linux-nfs-home.json");
        QTest::newRow("windows-sdnext") << windows << QStringLiteral("sdnext");
        QTest::newRow("windows-llamafile") << windows << QStringLiteral("llamafile");
        QTest::newRow("linux-comfyui") << QString() << QStringLiteral("comfyui");
        QTest::newRow("linux-pytorch") << QString() << QStringLiteral("pytorch");
        QTest::newRow("nfs-sdnext") << nfs << QStringLiteral("sdnext");
    }
    void replansFromReportAndZip()
    {
        QFETCH(QString, snapshot);
        QFETCH(QString, workload);
        const sp::test::TestUser user("replanner");
        if (snapshot.isEmpty()) {
            snapshot = q(user.home() / "machine.json");
            sp::test::writeText(user.home() / "machine.json",
                                sp::test::linuxSnapshotJson(user.home().string()));
        }
        const auto original =
            runCliInProcess({QStringLiteral("plan"), QStringLiteral("--workload"), workload,
                             QStringLiteral("--hardware"), snapshot, QStringLiteral("--json")});
        QVERIFY2(original.rc == 0, original.err.c_str());
        const auto zip = user.home() / "bundle.zip";
        const auto exported =
            runCliInProcess({QStringLiteral("diag"), QStringLiteral("export"), QStringLiteral("-o"),
                             q(zip), QStringLiteral("--hardware"), snapshot});
        QVERIFY2(exported.rc == 0, exported.err.c_str());
        const auto entries = sp::test::unzipAll(sp::test::readAll(zip));
        QVERIFY(entries.count("report.json"));
        QVERIFY2(entries.at("report.json").find("replanner") == std::string::npos,
                 "the user's name reached report.json");
        sp::test::writeText(user.home() / "report.json", entries.at("report.json"));
        for (const fs::path& from : {zip, user.home() / "report.json"}) {
            const auto again =
                runCliInProcess({QStringLiteral("plan"), QStringLiteral("--workload"), workload,
                                 QStringLiteral("--hardware"), q(from), QStringLiteral("--json")});
            QVERIFY2(again.rc == 0, again.err.c_str());
            QCOMPARE(planKey(again.out), planKey(original.out));
        }
    }

    // The user chose a profile and applied remedies (settings.json) and keeps a rules file
    // (catalog.d); the helper has settings and a rules file of their own. The zip re-plans
    // as the user's machine did; report.json brings the settings and says what it lacks.
    void replansWithTheUsersSettingsAndCatalog_data()
    {
        QTest::addColumn<QString>("snapshot");
        QTest::addColumn<QString>("workload");
        QTest::addColumn<QString>("overrides"); // the user's settings.json "workloads" entry
        QTest::addColumn<bool>("catalogShows"); // the rules file changes this plan
        QTest::newRow("windows-sdnext-switched")
            << QStringLiteral(STACKPILOT_SOURCE_DIR
                              "/tests/fuzz/seeds/snapshot/windows-6750xt.json")
            << QStringLiteral("sdnext")
            << QStringLiteral(R"({"profile": "sdnext-zluda-hip6.2-rocblas-gfx1031",
                                  "env": {"MY_FLAG": "1"}, "args": ["--lowvram"]})")
            << false;
        QTest::newRow("nfs-pytorch-rules-file")
            << QStringLiteral(STACKPILOT_SOURCE_DIR "/tests/doctor/fixtures/linux-nfs-home.json")
            << QStringLiteral("pytorch") << QStringLiteral(R"({"env": {"MY_FLAG": "1"}})") << true;
    }
    void replansWithTheUsersSettingsAndCatalog()
    {
        QFETCH(QString, snapshot);
        QFETCH(QString, workload);
        QFETCH(QString, overrides);
        QFETCH(bool, catalogShows);
        const std::string w = workload.toStdString();
        const auto planArgs = [&](const QString& hardware) {
            return QStringList{QStringLiteral("plan"),
                               QStringLiteral("--workload"),
                               workload,
                               QStringLiteral("--hardware"),
                               hardware,
                               QStringLiteral("--json")};
        };
        const auto rules = [](const std::string& var) {
            return nlohmann::json{
                {"schema_version", 1},
                {"cache_variables", {{{"name", var}, {"subdir", "t"}, {"why", "test"}}}}}
                .dump();
        };
        const auto settingsFor = [&w](const std::string& overridesJson) {
            return nlohmann::json{{"workloads", {{w, nlohmann::json::parse(overridesJson)}}}}
                .dump();
        };
        const sp::test::TestUser user("planner");
        const fs::path config = user.home() / ".stackpilot" / "config";
        sp::test::writeText(config / "settings.json", settingsFor(overrides.toStdString()));
        sp::test::writeText(config / "catalog.d" / "my-rules.json", rules("MY_TOOL_CACHE"));
        const auto original = runCliInProcess(planArgs(snapshot));
        QVERIFY2(original.rc == 0, original.err.c_str());
        const auto users = nlohmann::json::parse(original.out);
        QCOMPARE(users.at("env").at("MY_FLAG").get<std::string>(), std::string("1"));
        QCOMPARE(users.at("env").contains("MY_TOOL_CACHE"), catalogShows);
        const auto zip = user.home() / "bundle.zip";
        QCOMPARE(
            runCliInProcess({QStringLiteral("diag"), QStringLiteral("export"), QStringLiteral("-o"),
                             q(zip), QStringLiteral("--hardware"), snapshot})
                .rc,
            0);
        const auto entries = sp::test::unzipAll(sp::test::readAll(zip));
        QVERIFY(entries.count("catalog.d/my-rules.json"));

        const sp::test::TestUser helper("helper");
        const fs::path helperConfig = helper.home() / ".stackpilot" / "config";
        sp::test::writeText(helperConfig / "settings.json",
                            settingsFor(R"({"env": {"HELPER": "1"}})"));
        sp::test::writeText(helperConfig / "catalog.d" / "helper.json", rules("HELPER_CACHE"));
        sp::test::writeText(helper.home() / "report.json", entries.at("report.json"));
        const auto fromZip = runCliInProcess(planArgs(q(zip)));
        QVERIFY2(fromZip.rc == 0, fromZip.err.c_str());
        const auto again = nlohmann::json::parse(fromZip.out);
        QCOMPARE(planKey(fromZip.out), planKey(original.out));
        // Values hold this machine's folders; the variables and the user's own are the same.
        const auto names = [](const nlohmann::json& env) {
            std::vector<std::string> out;
            for (const auto& [k, v] : env.items())
                out.push_back(k);
            return out;
        };
        QCOMPARE(names(again.at("env")), names(users.at("env")));
        QCOMPARE(again.at("env").at("MY_FLAG").get<std::string>(), std::string("1"));
        QCOMPARE(again.at("args").dump(), users.at("args").dump());
        QVERIFY2(fromZip.err.find("1 catalog.d file(s) (my-rules.json)") != std::string::npos,
                 fromZip.err.c_str());
        QVERIFY2(fromZip.err.find("warning") == std::string::npos, fromZip.err.c_str());

        const auto fromReport = runCliInProcess(planArgs(q(helper.home() / "report.json")));
        QVERIFY2(fromReport.rc == 0, fromReport.err.c_str());
        const auto reported = nlohmann::json::parse(fromReport.out);
        QCOMPARE(reported.at("profile").dump(), users.at("profile").dump());
        QCOMPARE(reported.at("env").at("MY_FLAG").get<std::string>(), std::string("1"));
        QVERIFY(!reported.at("env").contains("HELPER") &&
                !reported.at("env").contains("HELPER_CACHE"));
        QVERIFY(!reported.at("env").contains("MY_TOOL_CACHE")); // only the zip has the file
        QVERIFY2(fromReport.err.find("(my-rules.json) travel only in the bundle zip") !=
                     std::string::npos,
                 fromReport.err.c_str());

        // A report whose user's plan chose another profile: the re-plan says so.
        auto edited = nlohmann::json::parse(entries.at("report.json"));
        edited["plans"][w]["profile"]["id"] = "some-other-profile";
        sp::test::writeText(helper.home() / "edited.json", edited.dump());
        const auto differs = runCliInProcess(planArgs(q(helper.home() / "edited.json")));
        QCOMPARE(differs.rc, 0);
        QVERIFY2(differs.err.find("warning: the user's StackPilot chose some-other-profile for " +
                                  w) != std::string::npos,
                 differs.err.c_str());
    }

    // A bundle (zip or report.json) made from an imported snapshot carries the import's
    // mark in its hardware; `snapshot import -o` must still refuse to replace it.
    void snapshotImportDoesNotReplaceABundle()
    {
        const sp::test::TestUser user("keeper");
        const QString paste = QStringLiteral(
            STACKPILOT_SOURCE_DIR "/tests/import/corpus/hipinfo-rocm511-linux-device-687f.txt");
        const auto importTo = [&](const fs::path& out) {
            return runCliInProcess({QStringLiteral("snapshot"), QStringLiteral("import"), paste,
                                    QStringLiteral("--os"), QStringLiteral("linux"),
                                    QStringLiteral("-o"), q(out)});
        };
        const fs::path imported = user.home() / "imported.json";
        QCOMPARE(importTo(imported).rc, 0);
        QCOMPARE(importTo(imported).rc, 0); // its own output is replaced
        const fs::path zip = user.home() / "bundle.zip";
        QCOMPARE(runCliInProcess({QStringLiteral("diag"), QStringLiteral("export"),
                                  QStringLiteral("--hardware"), q(imported), QStringLiteral("-o"),
                                  q(zip)})
                     .rc,
                 0);
        const std::string bytes = sp::test::readAll(zip);
        const fs::path report = user.home() / "report.json";
        const std::string reportText = sp::test::unzipAll(bytes).at("report.json");
        sp::test::writeText(report, reportText);
        for (const auto& [file, before] : {std::pair{zip, bytes}, std::pair{report, reportText}}) {
            const auto r = importTo(file);
            QCOMPARE(r.rc, 2);
            QVERIFY2(r.err.find("is not a snapshot this command wrote") != std::string::npos,
                     r.err.c_str());
            QVERIFY(sp::test::readAll(file) == before);
        }
    }

    void listWritesNothing()
    {
        const sp::test::TestUser user("lister");
        const QString before = QDir::currentPath();
        const fs::path work = user.home() / "work";
        fs::create_directories(work);
        QVERIFY(QDir::setCurrent(q(work)));
        const auto names = [&] {
            std::vector<std::string> out;
            for (const auto& e : fs::directory_iterator(work))
                out.push_back(e.path().filename().string());
            std::sort(out.begin(), out.end());
            return out;
        };
        const auto was = names();
        const auto listed =
            runCliInProcess({QStringLiteral("diag"), QStringLiteral("export"),
                             QStringLiteral("--list"), QStringLiteral("--no-probes")});
        QCOMPARE(listed.rc, 0);
        QVERIFY(listed.out.find("report.json") != std::string::npos);
        QVERIFY(listed.out.find("Nothing written (--list).") != std::string::npos);
        QVERIFY(names() == was);
        const auto json = runCliInProcess({QStringLiteral("diag"), QStringLiteral("export"),
                                           QStringLiteral("--list"), QStringLiteral("--json"),
                                           QStringLiteral("--no-probes")});
        QCOMPARE(json.rc, 0);
        const auto j = nlohmann::json::parse(json.out);
        QVERIFY(j.at("written").is_null());
        QCOMPARE(j.at("entries").at(0).at("name").get<std::string>(), std::string("report.md"));
        QVERIFY(names() == was);
        // Without -o: a new file here, named by the time.
        const auto written =
            runCliInProcess({QStringLiteral("diag"), QStringLiteral("export"),
                             QStringLiteral("--json"), QStringLiteral("--no-probes")});
        QCOMPARE(written.rc, 0);
        const auto file =
            nlohmann::json::parse(written.out).at("written").at("file").get<std::string>();
        QVERIFY2(fs::path(file).filename().string().rfind("stackpilot-diagnostics-", 0) == 0,
                 file.c_str());
        QVERIFY(fs::exists(file));
        QVERIFY(QDir::setCurrent(before));
        // StackPilot's own log has a line per verb run.
        const std::string log = sp::test::readAll(sp::paths::logDir() / "stackpilot.log");
        QVERIFY2(log.find(" cli diag exit 0\n") != std::string::npos, log.c_str());
    }

    void exitCodes()
    {
        const sp::test::TestUser user("coder");
        const auto run = [](QStringList args) {
            args.prepend(QStringLiteral("diag"));
            return runCliInProcess(args);
        };
        QCOMPARE(run({}).rc, 2);
        QCOMPARE(run({QStringLiteral("import")}).rc, 2);
        QCOMPARE(run({QStringLiteral("export"), QStringLiteral("--bogus")}).rc, 2);
        QCOMPARE(run({QStringLiteral("export"), QStringLiteral("--workload"),
                      QStringLiteral("nope"), QStringLiteral("--no-probes")})
                     .rc,
                 2);
        const auto missing = run({QStringLiteral("export"), QStringLiteral("--hardware"),
                                  q(user.home() / "missing.json")});
        QCOMPARE(missing.rc, 3);
        QVERIFY(missing.err.find("missing.json") != std::string::npos);
        const auto nowhere = run({QStringLiteral("export"), QStringLiteral("--no-probes"),
                                  QStringLiteral("-o"), q(user.home() / "no-such-dir" / "b.zip")});
        QCOMPARE(nowhere.rc, 1);
        QVERIFY(nowhere.err.find("no-such-dir") != std::string::npos);
        // -o names a file the user has: it is replaced, as asked.
        sp::test::writeText(user.home() / "old.zip", "old");
        QCOMPARE(run({QStringLiteral("export"), QStringLiteral("--no-probes"), QStringLiteral("-o"),
                      q(user.home() / "old.zip")})
                     .rc,
                 0);
        QVERIFY(sp::test::unzipAll(sp::test::readAll(user.home() / "old.zip")).count("report.md"));
    }

    void aZipOfExactlyTheEntryLimitIsRead()
    {
        const sp::test::TestUser user("counter");
        std::vector<std::pair<std::string, std::string>> entries;
        for (int i = 1; i < 10000; ++i)
            entries.emplace_back("f" + std::to_string(i), "");
        // A diagnostics report: plan then reads every entry (settings, catalog.d) to the end.
        entries.emplace_back(
            "report.json",
            sp::test::readAll(STACKPILOT_SOURCE_DIR "/tests/fuzz/seeds/bundle/report.json"));
        sp::test::writeText(user.home() / "full.zip", makeZip(entries));
        const auto r = runCliInProcess({QStringLiteral("plan"), QStringLiteral("--workload"),
                                        QStringLiteral("sdnext"), QStringLiteral("--hardware"),
                                        q(user.home() / "full.zip")});
        QVERIFY2(r.rc == 0, r.err.c_str());
    }

    void hostileZipsRefused_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("expect");
        QTest::newRow("too many entries") << 0 << QStringLiteral("more than 10000 entries");
        QTest::newRow("declared too big") << 1 << QStringLiteral("bytes is more than 4194304");
        QTest::newRow("bomb ratio") << 2 << QStringLiteral("expands more than 100:1");
        QTest::newRow("lies about its size") << 3 << QStringLiteral("expands past 4194304 bytes");
        QTest::newRow("not a bundle") << 4 << QStringLiteral("no report.json in the zip");
        QTest::newRow("bad report") << 5 << QStringLiteral("report.json:1:");
        QTest::newRow("not a zip") << 6 << QStringLiteral("not a zip archive");
    }
    void hostileZipsRefused()
    {
        QFETCH(int, kind);
        QFETCH(QString, expect);
        const sp::test::TestUser user("bomber");
        std::vector<std::pair<std::string, std::string>> entries;
        std::string zip;
        switch (kind) {
        case 0:
            for (int i = 0; i <= 10000; ++i)
                entries.emplace_back("f" + std::to_string(i), "");
            entries.emplace_back("report.json", "{}");
            break;
        case 1:
            entries.emplace_back("report.json", std::string(8u << 20, '\0'));
            break;
        case 2:
            entries.emplace_back("report.json", std::string(3u << 20, ' '));
            break;
        case 3:
            entries.emplace_back("report.json", noise(5u << 20));
            break;
        case 4:
            entries.emplace_back("other.json", "{}");
            break;
        case 5:
            entries.emplace_back("report.json", "{oops");
            break;
        }
        zip = kind == 6 ? std::string("PK\x03\x04 not really a zip") : makeZip(entries);
        if (kind == 3)
            QVERIFY(patchDeclaredSize(zip, "report.json", 1000));
        sp::test::writeText(user.home() / "hostile.zip", zip);
        const auto r = runCliInProcess({QStringLiteral("plan"), QStringLiteral("--workload"),
                                        QStringLiteral("sdnext"), QStringLiteral("--hardware"),
                                        q(user.home() / "hostile.zip")});
        QCOMPARE(r.rc, 3);
        QVERIFY2(r.err.find(expect.toStdString()) != std::string::npos, r.err.c_str());
        QVERIFY2(r.err.find("hostile.zip") != std::string::npos, r.err.c_str());
        QCOMPARE(std::count(r.err.begin(), r.err.end(), '\n'), 1L);
    }
};

QTEST_GUILESS_MAIN(TestDiagCli)
#include "test_diag_cli.moc"
