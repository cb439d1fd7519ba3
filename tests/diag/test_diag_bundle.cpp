// The bundle through the real code: a user's home with one secret of every kind planted
// in the environment, settings.json (proxy, mirrors, a workload's env and args), a
// catalog override, a receipt and a launch log. The bundle is collected, written as a
// zip, unzipped with libarchive, and every byte of every entry is searched: no secret
// and no trace of the user's name survives, the report counts every kind, and each
// planted file is shown to be in the bundle (so the test can fail). Also: the newest
// three logs, each cut to its last 5 MB; the same state gives the same bytes.

#include "app/common/diag/bundle.h"
#include "core/app_log.h"
#include "core/snapshot.h"
#include "diag_fixture.h"

#include <QTest>
#include <ctime>

using namespace sp;
using sp::diag::RedactionKind;

namespace {

struct Plant
{
    const char* where; // the entry (prefix) it was planted in
    const char* secret;
    RedactionKind kind;
};

const std::string kUser = "zorbulon";

// One row per secret: where it goes, what must not survive, which kind counts it.
const Plant kPlants[] = {
    {"launches/", "hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789", RedactionKind::HuggingFaceToken},
    {"launches/", "sk-proj-Ab12Cd34Ef56Gh78Ij90Kl12", RedactionKind::OpenAiKey},
    {"launches/", "ghp_0123456789abcdefghijABCDEFGHIJ012345", RedactionKind::GithubToken},
    {"launches/", "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzAB",
     RedactionKind::GithubPat},
    {"launches/", "AKIAIOSFODNN7EXAMPLE", RedactionKind::AwsAccessKey},
    {"launches/", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N",
     RedactionKind::Jwt},
    {"launches/", "em9yYnVsb246aHVudGVyMg==", RedactionKind::AuthorizationHeader},
    {"launches/", "Zx81kLmQsessid", RedactionKind::CookieHeader},
    {"launches/", "Tk9aQmVhcmVyVG9rZW4xMjM", RedactionKind::BearerToken},
    {"launches/", "s3cr3tFlagValue", RedactionKind::TokenFlag},
    {"launches/", "IdxPassw0rd", RedactionKind::UrlCredentials},
    {"launches/", "wandbsecret0123456789", RedactionKind::SecretVariable},
    {"launches/", "b3BlbnNzaC1rZXktdjEAAAAABG5vbmU", RedactionKind::PrivateKey},
    {"launches/", "Hello-zorbulon-marker", RedactionKind::UserName},
    {"settings.json", "Pr0xyPassw0rd", RedactionKind::UrlCredentials},
    {"settings.json", "MirrorPass9", RedactionKind::UrlCredentials},
    {"settings.json", "settingsHfSecret42", RedactionKind::SecretVariable},
    {"settings.json", "argsApiSecret77", RedactionKind::TokenFlag},
    {"catalog.d/", "CatPass55", RedactionKind::UrlCredentials},
    {"receipts/", "RcptPass66", RedactionKind::UrlCredentials},
    {"report.json", "zorbulon", RedactionKind::UserName},
    // A short hf_ token only present as an environment value, a value only
    // present in settings.json, webhooks, "password is X", DB_PASS=, MYSQL_PWD=, and a
    // private key whose END was cut off.
    {"launches/", "hf_Sh0rt9", RedactionKind::KnownSecret},
    {"launches/", "MyPwdValue8", RedactionKind::KnownSecret},
    {"settings.json", "MyPwdValue8", RedactionKind::SecretVariable},
    {"launches/", "SlackSecret789", RedactionKind::WebhookUrl},
    {"launches/", "DiscordSecret456", RedactionKind::WebhookUrl},
    {"launches/", "Hunter2Zq", RedactionKind::PasswordPhrase},
    {"launches/", "DbPassValue7", RedactionKind::SecretVariable},
    {"launches/", "TruncKeyBody0001", RedactionKind::PrivateKey},
};

std::string launchLog(const std::filesystem::path& home)
{
    const std::string h = home.string();
    return "Loading model from " + h +
           "/models/x.gguf\n"
           "Downloading with token hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789\n"
           "openai client ready (sk-proj-Ab12Cd34Ef56Gh78Ij90Kl12)\n"
           "git remote https://x ghp_0123456789abcdefghijABCDEFGHIJ012345 ok\n"
           "token github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzAB in use\n"
           "s3 client with AKIAIOSFODNN7EXAMPLE\n"
           "jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N\n"
           "> Authorization: Basic em9yYnVsb246aHVudGVyMg==\n"
           "< Set-Cookie: sid=Zx81kLmQsessid; Path=/\n"
           "headers={\"X\": \"Bearer Tk9aQmVhcmVyVG9rZW4xMjM\"}\n"
           "argv: server --model x.gguf --token s3cr3tFlagValue --port 8080\n"
           "pip --index-url https://builder:IdxPassw0rd@pypi.corp.example/simple\n"
           "export WANDB_API_KEY=wandbsecret0123456789\n"
           "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmU\n"
           "-----END OPENSSH PRIVATE KEY-----\n"
           "Hello-zorbulon-marker: welcome\n"
           "login ok as hf_Sh0rt9\n"
           "mysql connecting with MyPwdValue8\n"
           "notify https://hooks.slack.com/services/T0ABC123/B0DEF456/SlackSecret789\n"
           "notify https://discord.com/api/webhooks/112233445566/DiscordSecret456\n"
           "the database password is Hunter2Zq\n"
           "env DB_PASS=DbPassValue7 ok\n"
           "ggml_cuda_init: failed\n"
           "-----BEGIN RSA PRIVATE KEY-----\nMIIEowTruncKeyBody0001\nMIIEowTruncKeyBody0001";
}

std::string settingsJson(const std::filesystem::path& home)
{
    nlohmann::json j = {
        {"proxy", "http://zorbulon:Pr0xyPassw0rd@proxy.corp.example:3128"},
        {"mirrors",
         {{"github.com", {"https://zorbulon:MirrorPass9@mirror.corp.example/github.com"}}}},
        {"workloads",
         {{"llamafile",
           {{"env",
             {{"HF_TOKEN", "settingsHfSecret42"},
              {"MYSQL_PWD", "MyPwdValue8"},
              {"MODELS", home.string() + "/m"}}},
            {"args", {"--api-key", "argsApiSecret77"}}}}}}};
    return j.dump(2);
}

std::string catalogOverride()
{
    nlohmann::json j = {{"schema_version", 1},
                        {"runtimes",
                         {{{"id", "corp-mirror-tool"},
                           {"kind", "tool"},
                           {"version", "1.0"},
                           {"artifacts",
                            {{{"url", "https://zorbulon:CatPass55@artifacts.corp.example/t.tar.gz"},
                              {"format", "tar.gz"},
                              {"sha256", std::string(64, 'a')}}}}}}}};
    return j.dump(2);
}

// The planted state: settings, a catalog override, an installed runtime, a launch.
void plantEverything(const sp::test::TestUser& user)
{
    using sp::test::writeText;
    writeText(paths::configDir() / "settings.json", settingsJson(user.home()));
    writeText(paths::configDir() / "catalog.d" / (kUser + "-overrides.json"), catalogOverride());
    const std::string tarball = sp::test::buildArchive(
        {sp::test::TestEntry::file("bin/tool", "#!/bin/sh\necho tool\n", 0755),
         sp::test::TestEntry::file("share/readme.txt", "hello\n")},
        "tar.gz");
    auto installed = sp::test::installOffline(
        "corp-tool", "https://zorbulon:RcptPass66@artifacts.corp.example/tool.tar.gz", tarball,
        user.home() / "offline");
    QVERIFY2(installed.ok(), installed ? "" : installed.error().message.c_str());
    const FixedClock clock(std::chrono::sys_days{std::chrono::year{2026} / 3 / 1});
    sp::test::recordLaunch("llamafile-0.8.1-tinyblas-amd", "llamafile", launchLog(user.home()),
                           clock, {"hipblas-status-unknown"});
}

diag::CollectOptions optionsFor(const sp::test::TestUser& user)
{
    diag::CollectOptions o;
    auto snap = parseSnapshot(sp::test::linuxSnapshotJson(user.home().string()), "fixture");
    o.snapshot = *snap;
    o.snapshotOrigin = (user.home() / "fixture.json").string();
    o.environment = EnvMap{{"PATH", user.home().string() + "/envPathMarker/bin:/usr/bin:/bin"},
                           {"PYTHONPATH", user.home().string() + "/lib/python"},
                           {"HOME", user.home().string()},
                           {"USER", kUser},
                           {"HF_TOKEN", "hf_Sh0rt9"}};
    return o;
}

std::size_t count(const std::string& hay, const std::string& needle)
{
    std::size_t n = 0;
    for (auto p = hay.find(needle); p != std::string::npos; p = hay.find(needle, p + 1))
        ++n;
    return n;
}

} // namespace

class TestDiagBundle : public QObject
{
    Q_OBJECT

private slots:
    void noPlantedSecretSurvives()
    {
        const sp::test::TestUser user(kUser);
        plantEverything(user);
        auto bundle = diag::collect(optionsFor(user));
        QVERIFY2(bundle.ok(), bundle ? "" : bundle.error().message.c_str());
        const auto zip = user.home().parent_path() / "out.zip";
        QVERIFY(diag::write(*bundle, zip, diag::Overwrite::Never).ok());
        const auto entries = sp::test::unzipAll(sp::test::readAll(zip));
        QVERIFY(entries.size() >= 6);

        // Every byte of every entry, names included.
        for (const auto& [name, bytes] : entries) {
            QVERIFY2(name.find(kUser) == std::string::npos, name.c_str());
            QVERIFY2(count(bytes, kUser) == 0, (name + " still names the user").c_str());
            for (const auto& p : kPlants)
                QVERIFY2(bytes.find(p.secret) == std::string::npos,
                         (name + " still holds " + p.secret).c_str());
        }
        // Each planted file is there, redacted where it was planted.
        for (const auto& p : kPlants) {
            bool found = false;
            for (const auto& [name, bytes] : entries)
                found = found || (name.rfind(p.where, 0) == 0 &&
                                  bytes.find(diag::Redactor::marker(p.kind)) != std::string::npos);
            QVERIFY2(found, (std::string(p.where) + " lacks " + toString(p.kind)).c_str());
        }
        const std::string log = "launches/llamafile-0.8.1-tinyblas-amd/20260301T000000Z.log";
        QVERIFY2(entries.count(log), "the launch log is not in the bundle");
        QVERIFY(entries.at(log).find("ggml_cuda_init: failed") != std::string::npos);
        QVERIFY(std::size(kPlants) >= 25);
        QVERIFY(entries.at(log).find("Loading model from ") != std::string::npos);
        QVERIFY(entries.count("receipts/corp-tool.receipt.json"));
        QVERIFY(entries.count("catalog.d/<user>-overrides.json"));
        QVERIFY(entries.at("settings.json").find("proxy.corp.example:3128") != std::string::npos);

        // The report counts every kind, in report.json and in report.md.
        const auto report = nlohmann::json::parse(entries.at("report.json"));
        for (const auto& p : kPlants) {
            QVERIFY2(report.at("redactions").value(toString(p.kind), 0) >= 1, toString(p.kind));
            QVERIFY2(entries.at("report.md").find(std::string(toString(p.kind)) + " ") !=
                         std::string::npos,
                     toString(p.kind));
        }
        QVERIFY(report.at("redactions") == bundle->redactions.toJson());
        // The environment difference was made, and shows the user's folders as <user>.
        bool removedPythonPath = false;
        for (const auto& c : report.at("environment").at("changes"))
            removedPythonPath =
                removedPythonPath ||
                (c.at("name") == "PYTHONPATH" && c.at("change") == "removed" &&
                 c.at("before").get<std::string>().find("/<user>/lib/python") != std::string::npos);
        QVERIFY(removedPythonPath);
        QCOMPARE(report.at("runtimes").at(0).at("verify").get<std::string>(), std::string("ok"));
        QCOMPARE(report.at("launches").at(0).at("known_issues").at(0).get<std::string>(),
                 std::string("hipblas-status-unknown"));
    }

    void newestThreeLogsEachTheirLast5MB()
    {
        const sp::test::TestUser user(kUser);
        std::string big;
        for (int i = 0; big.size() < (6u << 20); ++i)
            big += "line " + std::to_string(i) + " of a long log\n";
        big += "the last line\n";
        for (int day = 1; day <= 4; ++day) {
            const FixedClock clock(std::chrono::sys_days{std::chrono::year{2026} / 3 / day});
            sp::test::recordLaunch("p" + std::to_string(day), "llamafile",
                                   day == 4 ? big : "launch of day " + std::to_string(day) + "\n",
                                   clock);
        }
        auto bundle = diag::collect(optionsFor(user));
        QVERIFY(bundle.ok());
        std::vector<std::string> logs;
        for (const auto& e : bundle->entries)
            if (e.name.size() > 4 && e.name.substr(e.name.size() - 4) == ".log" &&
                e.name.rfind("launches/", 0) == 0)
                logs.push_back(e.name);
        QCOMPARE(logs.size(), std::size_t{3});
        QVERIFY(logs[0].rfind("launches/p4/", 0) == 0); // newest first; p1 is left out
        QVERIFY(logs[2].rfind("launches/p2/", 0) == 0);
        const auto& newest = bundle->entries[static_cast<std::size_t>(
            std::find_if(bundle->entries.begin(), bundle->entries.end(),
                         [&](const diag::Entry& e) { return e.name == logs[0]; }) -
            bundle->entries.begin())];
        QVERIFY(newest.bytes.size() <= diag::kLogTailBytes);
        QVERIFY(newest.bytes.size() > diag::kLogTailBytes - 100);
        QVERIFY(newest.bytes.rfind("line ", 0) == 0); // starts at a whole line
        QVERIFY(newest.bytes.find("the last line\n") != std::string::npos);
        QVERIFY2(newest.note.rfind("last ", 0) == 0, newest.note.c_str());
    }

    void sameStateSameBytes()
    {
        const sp::test::TestUser user(kUser);
        plantEverything(user);
        const auto options = optionsFor(user);
        auto first = diag::collect(options);
        auto second = diag::collect(options);
        QVERIFY(first.ok() && second.ok());
        const std::string a = diag::zipBytes(*first).value();
        QCOMPARE(diag::zipBytes(*second).value(), a);
        // The zip headers hold no time: another time zone gives the same bytes.
        const QByteArray tz = qgetenv("TZ");
        qputenv("TZ", "Asia/Tokyo");
        tzset();
        const std::string tokyo = diag::zipBytes(*second).value();
        qputenv("TZ", "America/Los_Angeles");
        tzset();
        const std::string la = diag::zipBytes(*second).value();
        tz.isNull() ? qunsetenv("TZ") : qputenv("TZ", tz);
        tzset();
        QCOMPARE(tokyo, a);
        QCOMPARE(la, a);
        // Written twice (atomically, under new names), the files are equal too.
        const auto dir = user.home().parent_path();
        auto f1 = diag::writeNew(*first, dir);
        auto f2 = diag::writeNew(*second, dir);
        QVERIFY(f1.ok() && f2.ok());
        QVERIFY(*f1 != *f2);
        QCOMPARE(sp::test::readAll(*f1), sp::test::readAll(*f2));
        // A change of state changes the bundle (so the comparison above can fail).
        std::ofstream(applog::file(), std::ios::app) << "2026-03-01T00:00:00Z cli plan exit 0\n";
        auto third = diag::collect(options);
        QVERIFY(third.ok());
        QVERIFY(diag::zipBytes(*third).value() != a);
    }

    void neverReplacesWhatItDidNotWrite()
    {
        const sp::test::TestUser user(kUser);
        auto bundle = diag::collect(optionsFor(user));
        QVERIFY(bundle.ok());
        const auto dir = user.home().parent_path();
        const FixedClock clock(std::chrono::sys_days{std::chrono::year{2026} / 3 / 1});
        const auto taken = dir / diag::defaultFileName(clock);
        sp::test::writeText(taken, "the user's own file");
        auto w = diag::writeNew(*bundle, dir, clock);
        QVERIFY(w.ok());
        QCOMPARE(w->filename().string(),
                 std::string("stackpilot-diagnostics-20260301T000000Z-2.zip"));
        QCOMPARE(sp::test::readAll(taken), std::string("the user's own file"));
        auto refused = diag::write(*bundle, taken, diag::Overwrite::Never);
        QVERIFY(!refused.ok());
        QVERIFY(refused.error().message.find("not replaced") != std::string::npos);
        QCOMPARE(sp::test::readAll(taken), std::string("the user's own file"));
        // Named explicitly, it is replaced; no temporary file is left behind.
        QVERIFY(diag::write(*bundle, taken, diag::Overwrite::Allow).ok());
        QVERIFY(sp::test::unzipAll(sp::test::readAll(taken)).count("report.json"));
        for (const auto& e : std::filesystem::directory_iterator(dir))
            QVERIFY2(e.path().extension() != ".part", e.path().string().c_str());
    }

    void cancelStops()
    {
        const sp::test::TestUser user(kUser);
        auto options = optionsFor(user);
        std::vector<std::string> steps;
        options.progress = [&](const diag::Progress& p) {
            steps.push_back(p.step);
            if (p.step == "plans")
                options.cancel.cancel();
        };
        auto bundle = diag::collect(options);
        QVERIFY(!bundle.ok());
        QCOMPARE(bundle.error().code, ErrorCode::Cancelled);
        QCOMPARE(steps.back(), std::string("plans"));
    }
};

QTEST_GUILESS_MAIN(TestDiagBundle)
#include "test_diag_bundle.moc"
