// settings.json: defaults, round trip, mirror rewrite, and errors that name
// file:line:col.

#include "core/paths.h"
#include "core/settings.h"

#include <QtTest>
#include <fstream>

using namespace sp;
namespace fs = std::filesystem;

class TestSettings : public QObject
{
    Q_OBJECT

private slots:
    void missingFileMeansDefaults()
    {
        fs::remove(Settings::defaultFile());
        auto s = Settings::load();
        QVERIFY(s.ok());
        QVERIFY(!s->proxy);
        QVERIFY(s->mirrors.empty());
        QVERIFY(s->mirrorsFirst);
        QCOMPARE(s->parallelDownloads, 3);
        QCOMPARE(s->maxExtractSize, std::uint64_t(64) << 30);
        QCOMPARE(s->keepLaunches, 20);
        QCOMPARE(s->stopGraceMs, 5000);
        QCOMPARE(s->consoleCodePage, 0);
        QVERIFY(s->workloads.empty());
        QVERIFY(Settings::defaultFile() == paths::configDir() / "settings.json");
    }

    void fileIsReadAndRoundTrips()
    {
        Settings s;
        s.proxy = "http://proxy.corp:3128";
        s.mirrors["github.com"] = {"https://mirror.example/github.com/"};
        s.mirrorsFirst = false;
        s.parallelDownloads = 5;
        s.maxExtractSize = 1234;
        s.theme = "dark";
        QVERIFY(s.save(Settings::defaultFile()).ok());
        auto back = Settings::load();
        QVERIFY2(back.ok(), back.ok() ? "" : back.error().message.c_str());
        QVERIFY(back->proxy == s.proxy);
        QVERIFY(back->mirrors == s.mirrors);
        QCOMPARE(back->mirrorsFirst, false);
        QCOMPARE(back->parallelDownloads, 5);
        QCOMPARE(back->maxExtractSize, std::uint64_t(1234));
        QCOMPARE(back->theme, std::string("dark"));
        fs::remove(Settings::defaultFile());
    }

    // "" (the system's), "light" or "dark"; a key this version does not know, written
    // beside it, survives a change of theme.
    void themeRoundTripsAndKeepsUnknownKeys()
    {
        auto s = Settings::parse("{\"future_thing\": [1, 2],\n \"theme\": \"light\"}", "s.json");
        QVERIFY2(s.ok(), s.ok() ? "" : s.error().message.c_str());
        QCOMPARE(s->theme, std::string("light"));
        s->theme = "dark";
        auto back = Settings::parse(s->toJson(), "back.json");
        QVERIFY(back.ok());
        QCOMPARE(back->theme, std::string("dark"));
        QVERIFY(back->toJson().find("\"future_thing\"") != std::string::npos);
        QVERIFY(Settings::parse("{}", "s.json")->theme.empty());
        const auto bad = Settings::parse("{\n \"theme\": \"purple\"}", "s.json");
        QVERIFY(!bad.ok());
        QVERIFY2(bad.error().message.rfind("s.json:2:2: \"theme\"", 0) == 0,
                 bad.error().message.c_str());
        QVERIFY(!Settings::parse("{\"theme\": 1}", "s.json").ok());
    }

    void lastWorkloadRoundTrips()
    {
        auto s = Settings::parse("{\"last_workload\": \"comfyui\"}", "s.json");
        QVERIFY2(s.ok(), s.ok() ? "" : s.error().message.c_str());
        QCOMPARE(s->lastWorkload, std::string("comfyui"));
        s->lastWorkload = "sdnext";
        QCOMPARE(Settings::parse(s->toJson(), "b.json")->lastWorkload, std::string("sdnext"));
        QVERIFY(Settings().toJson().find("last_workload") == std::string::npos);
        QVERIFY(!Settings::parse("{\"last_workload\": 3}", "s.json").ok());
    }

    void sharingRoundTripsAndRefusesOtherValues()
    {
        QCOMPARE(Settings().shareResults, std::string("ask"));
        auto s = Settings::parse(
            "{\"share_results\": \"never\", \"ledger_url\": \"https://ledger.example/r\"}",
            "s.json");
        QVERIFY2(s.ok(), s.ok() ? "" : s.error().message.c_str());
        QCOMPARE(s->shareResults, std::string("never"));
        const auto back = Settings::parse(s->toJson(), "b.json");
        QCOMPARE(back->ledgerUrl, std::string("https://ledger.example/r"));
        QCOMPARE(back->shareResults, std::string("never"));
        QVERIFY(!Settings::parse("{\"share_results\": \"sometimes\"}", "s.json").ok());
        const auto plain =
            Settings::parse("{\n \"ledger_url\": \"http://ledger.example\"}", "s.json");
        QVERIFY(!plain.ok());
        QVERIFY2(plain.error().message.rfind("s.json:2:2: \"ledger_url\"", 0) == 0,
                 plain.error().message.c_str());
    }

    void launchSettingsRoundTrip()
    {
        auto s = Settings::parse(
            "{\"keep_launches\": 1000, \"stop_grace_ms\": 0, \"console_code_page\": 65001}",
            "s.json");
        QVERIFY2(s.ok(), s.ok() ? "" : s.error().message.c_str());
        QCOMPARE(s->keepLaunches, 1000);
        QCOMPARE(s->stopGraceMs, 0);
        QCOMPARE(s->consoleCodePage, 65001);
        auto back = Settings::parse(s->toJson(), "back.json");
        QVERIFY(back.ok());
        QCOMPARE(back->toJson(), s->toJson());
        QCOMPARE(back->consoleCodePage, 65001);
    }

    void launchSettingsOutOfRange()
    {
        struct Case
        {
            const char* text;
            const char* error;
        };
        const Case cases[] = {
            {"{\"keep_launches\": 0}",
             "s.json:1:2: \"keep_launches\" must be an integer from 1 to 1000"},
            {"{\"keep_launches\": 1001}", "from 1 to 1000"},
            {"{\"keep_launches\": \"20\"}", "from 1 to 1000"},
            {"{\"stop_grace_ms\": -1}", "\"stop_grace_ms\" must be an integer from 0 to 600000"},
            {"{\"stop_grace_ms\": 600001}", "from 0 to 600000"},
            {"{\"console_code_page\": 65536}", "from 0 to 65535 (0 = the system's)"},
            {"{\"console_code_page\": 1.5}", "from 0 to 65535"},
        };
        for (const auto& c : cases) {
            auto s = Settings::parse(c.text, "s.json");
            QVERIFY2(!s.ok(), c.text);
            QVERIFY2(s.error().message.find(c.error) != std::string::npos,
                     s.error().message.c_str());
        }
    }

    void workloadOverridesRoundTrip()
    {
        Settings s;
        WorkloadOverrides& w = s.workloads["llamafile"];
        w.profile = "llamafile-0.8-cuda";
        w.env["PYTHONUTF8"] = "1";
        w.args = {"--recompile", "--tinyblas"};
        w.relocateCaches = true;
        w.repair = {"zluda-3.9.5-rocm5"};
        AppliedRemedy r;
        r.issue = "hipblas-status-unknown";
        r.action = RemedyAction::AddArgs;
        r.appliedAt = "2026-01-02T03:04:05Z";
        r.before.profile = "";
        r.before.env["PYTHONUTF8"] = std::nullopt;
        r.before.env["HIP_PATH"] = "C:\\old";
        r.before.args = {{"--recompile", false}, {"--tinyblas", true}};
        r.before.relocateCaches = false;
        r.before.repair = {{"zluda-3.9.5-rocm5", false}};
        w.remedies.push_back(r);
        QVERIFY(s.save(Settings::defaultFile()).ok());
        auto back = Settings::load();
        QVERIFY2(back.ok(), back.ok() ? "" : back.error().message.c_str());
        QCOMPARE(back->toJson(), s.toJson());
        const auto& b = back->workloads.at("llamafile");
        QCOMPARE(b.profile, w.profile);
        QVERIFY(b.env == w.env && b.args == w.args && b.repair == w.repair);
        QVERIFY(b.relocateCaches);
        QCOMPARE(int(b.remedies.size()), 1);
        const auto& rb = b.remedies[0];
        QCOMPARE(rb.issue, r.issue);
        QVERIFY(rb.action == RemedyAction::AddArgs);
        QCOMPARE(rb.appliedAt, r.appliedAt);
        QVERIFY(rb.before.profile == std::optional<std::string>(""));
        QVERIFY(rb.before.env == r.before.env);
        QVERIFY(rb.before.args == r.before.args);
        QVERIFY(rb.before.relocateCaches == std::optional<bool>(false));
        QVERIFY(rb.before.repair == r.before.repair);
        fs::remove(Settings::defaultFile());
    }

    void workloadOverridesIgnoreUnknownKeys()
    {
        auto s = Settings::parse(R"({"workloads": {"w": {"later": 1, "args": ["-x"],
            "remedies": [{"issue": "i", "action": "info", "future": true,
                          "before": {"someday": 2}}]}}})",
                                 "s.json");
        QVERIFY2(s.ok(), s.ok() ? "" : s.error().message.c_str());
        QVERIFY(s->workloads.at("w").args == std::vector<std::string>{"-x"});
        QCOMPARE(s->workloads.at("w").remedies.at(0).issue, std::string("i"));
    }

    void workloadOverridesBadValues()
    {
        struct Case
        {
            const char* text;
            const char* error;
        };
        const Case cases[] = {
            {"{\"workloads\": []}", "s.json:1:2: \"workloads\" must be an object"},
            {"{\"workloads\": {\"w\": 1}}", "s.json:1:16: workload \"w\" must be an object"},
            {"{\"workloads\": {\"w\": {\n \"env\": {\"K\": 1}}}}",
             "s.json:2:10: \"env\" values must be a string"},
            {"{\"workloads\": {\"w\": {\n \"args\": \"-x\"}}}",
             "s.json:2:2: \"args\" must be a list of strings"},
            {"{\"workloads\": {\"w\": {\"relocate_caches\": 1}}}",
             "\"relocate_caches\" must be true or false"},
            {"{\"workloads\": {\"w\": {\"repair\": [1]}}}", "\"repair\" entries must be a string"},
            {"{\"workloads\": {\"w\": {\"remedies\": [{\"action\": \"info\"}]}}}",
             "needs an \"issue\""},
            {"{\"workloads\": {\"w\": {\"remedies\": [{\"issue\": \"i\",\n \"action\": "
             "\"set-env\"}]}}}",
             "s.json:2:2: \"action\" must be one of"},
            {"{\"workloads\": {\"w\": {\"remedies\": [{\"issue\": \"i\", \"before\": {\"args\": "
             "[\"-x\"]}}]}}}",
             "\"before.args\" must map each item"},
            {"{\"workloads\": {\"w\": {\"remedies\": [{\"issue\": \"i\", \"before\": {\"env\": "
             "{\"K\": 2}}}]}}}",
             "\"before.env\" values must be a string"},
        };
        for (const auto& c : cases) {
            auto s = Settings::parse(c.text, "s.json");
            QVERIFY2(!s.ok(), c.text);
            QVERIFY2(s.error().message.find(c.error) != std::string::npos,
                     s.error().message.c_str());
        }
    }

    void mirrorRewrite()
    {
        auto s = Settings::parse(
            "{\"mirrors\": {\"github.com\": [\"https://mirror.example/github.com/\"],\n            "
            "                \"127.0.0.1:8080\": [\"http://127.0.0.1:9/m\"]}}",
            "s.json");
        QVERIFY(s.ok());
        const std::string url = "https://github.com/lshqqytiger/ZLUDA/releases/download/x.zip?a=1";
        const auto m = s->mirrorUrlsFor(url);
        QCOMPARE(int(m.size()), 1);
        QCOMPARE(m[0], std::string("https://mirror.example/github.com/lshqqytiger/ZLUDA/releases/"
                                   "download/x.zip?a=1"));
        QVERIFY(s->mirrorUrlsFor("https://example.org/x.zip").empty());
        QCOMPARE(s->mirrorUrlsFor("http://127.0.0.1:8080/a/b").at(0),
                 std::string("http://127.0.0.1:9/m/a/b"));
        QVERIFY(s->mirrorUrlsFor("http://127.0.0.1:8081/a/b").empty());

        auto urls = s->expandUrls({url, "https://other.example/x.zip"});
        QCOMPARE(int(urls.size()), 3);
        QCOMPARE(urls[0], m[0]); // mirrors_first defaults to true
        QCOMPARE(urls[1], url);
        s->mirrorsFirst = false;
        urls = s->expandUrls({url});
        QCOMPARE(urls[0], url);
        QCOMPARE(urls[1], m[0]);
    }

    void proxyValue()
    {
        auto s = Settings::parse("{\"proxy\": \"socks5h://127.0.0.1:1080\"}", "s.json");
        QVERIFY(s.ok());
        QCOMPARE(*s->proxy, std::string("socks5h://127.0.0.1:1080"));
        s = Settings::parse("{\"proxy\": \"\"}", "s.json");
        QVERIFY(s.ok() && !s->proxy);
    }

    void unknownKeysAreIgnored()
    {
        QVERIFY(Settings::parse("{\"future_thing\": [1, 2]}", "s.json").ok());
    }

    void badJsonNamesFileLineColumn()
    {
        const auto file = paths::configDir() / "settings.json";
        fs::create_directories(file.parent_path());
        std::ofstream(file) << "{\n  \"proxy\": \"x\",\n  \"mirrors\": {,}\n}\n";
        auto s = Settings::load();
        QVERIFY(!s.ok());
        QVERIFY(s.error().code == ErrorCode::InvalidInput);
        const std::string expect = paths::toUtf8(file) + ":3:15: invalid JSON";
        QVERIFY2(s.error().message.rfind(expect, 0) == 0, s.error().message.c_str());
        fs::remove(file);
    }

    void badValueNamesItsKey()
    {
        auto s = Settings::parse("{\n  \"parallel_downloads\": 0\n}", "s.json");
        QVERIFY(!s.ok());
        QVERIFY2(s.error().message.rfind("s.json:2:3: \"parallel_downloads\"", 0) == 0,
                 s.error().message.c_str());
        s = Settings::parse("{\"mirrors\": {\n \"github.com\": \"https://m\"}}", "s.json");
        QVERIFY(!s.ok());
        QVERIFY2(s.error().message.rfind("s.json:2:2: mirrors for \"github.com\"", 0) == 0,
                 s.error().message.c_str());
        s = Settings::parse("{\"mirrors\": {\"h\": [\"ftp://m\"]}}", "s.json");
        QVERIFY(!s.ok());
        s = Settings::parse("[1]", "s.json");
        QVERIFY(!s.ok());
        QVERIFY2(s.error().message.rfind("s.json:1:1:", 0) == 0, s.error().message.c_str());
    }
};

QTEST_GUILESS_MAIN(TestSettings)
#include "test_settings.moc"
