// Issue 20 (second hostile pass), the diagnostics bundle's findings, through the real
// stackpilot-cli: `diag export -o` over a device, a FIFO or a folder; secrets (a short
// HF_TOKEN only present as an env value, DB_PASS, MYSQL_PWD, "password is X", a Slack
// webhook, a private key whose END was cut off) in the launch log, settings and
// catalog.d; zip entry names printed raw by `plan --hardware BUNDLE.zip`; the .part a
// killed export left; and JSON followed by a NUL and junk.

#include "archive_builder.h"
#include "hostile_support.h"

#include <QTest>
#include <archive.h>
#include <archive_entry.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

using namespace sp::hostile;

namespace {

// Every entry of a zip, by name, read with libarchive.
std::map<std::string, std::string> unzip(const fs::path& zip)
{
    std::map<std::string, std::string> out;
    archive* a = archive_read_new();
    archive_read_support_format_zip(a);
    if (archive_read_open_filename(a, zip.c_str(), 1 << 16) == ARCHIVE_OK) {
        archive_entry* e = nullptr;
        while (archive_read_next_header(a, &e) == ARCHIVE_OK) {
            std::string data;
            char buf[1 << 16];
            for (la_ssize_t n; (n = archive_read_data(a, buf, sizeof buf)) > 0;)
                data.append(buf, static_cast<std::size_t>(n));
            out[archive_entry_pathname(e)] = std::move(data);
        }
    }
    archive_read_free(a);
    return out;
}

QStringList exportTo(const fs::path& out)
{
    return {QStringLiteral("diag"), QStringLiteral("export"), QStringLiteral("--no-probes"),
            QStringLiteral("-o"), q(out)};
}

// The secrets the review planted, each as it was found.
const char* const kHfToken = "hf_Sh0rt9";       // shorter than a real token
const char* const kDbPass = "pa55w0rdQ";        // DB_PASS in the environment
const char* const kMysqlPwd = "my5qlPwdZ";      // MYSQL_PWD in the environment
const char* const kSettingsPass = "setPa55Val"; // DB_PASS in settings.json
const char* const kSaid = "Tr0ub4dorCat";       // "the password is X"
const char* const kHook = "Zq9XwHook7Secret";   // a Slack webhook's secret part
const char* const kKeyLine = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7"; // PEM body

// Launches `body` (whose launch log must hold no secret: it is redacted as it is
// written), then puts the raw lines back into that log, as an older StackPilot wrote
// it, and exports: the bundle's entries, by name (empty when a step failed).
std::map<std::string, std::string> bundleAfter(ShellWorld& w, const std::string& body)
{
    w.write(body + "; echo done");
    const Run launched = w.cli(w.launchArgs({QStringLiteral("--json")}));
    const auto logs = w.launchFiles(".log");
    if (launched.rc != 0 || logs.size() != 1) {
        qWarning("the launch failed: %s", launched.err.c_str());
        return {};
    }
    QProcess sh; // the workload's own output, without StackPilot's redaction
    sh.setProcessEnvironment(w.env);
    sh.start(QStringLiteral("/bin/sh"), {q(w.script)});
    sh.waitForFinished(10000);
    const std::string raw = sh.readAllStandardOutput().toStdString();
    if (raw.find("done") == std::string::npos ||
        readAll(logs.front()).find("done") == std::string::npos)
        return {};
    writeFile(logs.front(), readAll(logs.front()) + raw);
    const fs::path zip = w.root / "bundle.zip";
    const Run r = w.cli(exportTo(zip), 60000);
    if (r.rc != 0) {
        qWarning("diag export failed: %s", r.err.c_str());
        return {};
    }
    auto entries = unzip(zip);
    bool sawLog = false;
    for (const auto& [name, bytes] : entries)
        sawLog = sawLog || (name.find("hostile-sh") != std::string::npos &&
                            bytes.find("loading with") != std::string::npos);
    return sawLog ? entries : std::map<std::string, std::string>{};
}

} // namespace

class Pass2Bundle : public QObject
{
    Q_OBJECT

private slots:
    // As root, `diag export -o /dev/full` turned the device node into a zip and exited
    // 0; any user could replace a FIFO the same way.
    void pass2_exportNeverReplacesADeviceFifoOrFolder()
    {
        ShellWorld w;
        fs::create_directories(w.root / "out");
        const fs::path fifo = w.root / "out" / "pipe.zip";
        QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
        const fs::path folder = w.root / "out" / "folder.zip";
        fs::create_directories(folder);
        // A device node of our own where we may make one (root), else /dev/full itself,
        // which a user who is not root cannot replace anyway.
        fs::path device = w.root / "out" / "full.zip";
        if (::mknod(device.c_str(), S_IFCHR | 0600, makedev(1, 7)) != 0)
            device = "/dev/full";
        for (const auto& target : {fifo, folder, device}) {
            const auto type = fs::symlink_status(target).type();
            const Run r = w.cli(exportTo(target), 20000);
            QVERIFY2(r.rc == 2, (target.string() + ": " + r.err).c_str());
            QVERIFY2(r.err.find("regular file") != std::string::npos, r.err.c_str());
            QCOMPARE(fs::symlink_status(target).type(), type); // not replaced
        }
        QVERIFY(fs::is_empty(folder));
        for (const auto& e : fs::directory_iterator(w.root / "out"))
            QVERIFY2(e.path().extension() != ".part", e.path().c_str());
    }

    // The value of HF_TOKEN from the environment, printed by the workload into its log,
    // survived in the bundle's launch log when it did not have a current token's length.
    void pass2_aShortTokenKnownOnlyByItsValueIsRedacted()
    {
        ShellWorld w;
        w.env.insert(QStringLiteral("HF_TOKEN"), QString::fromLatin1(kHfToken));
        const auto entries = bundleAfter(w, "echo \"loading with $HF_TOKEN\"");
        QVERIFY(!entries.empty());
        for (const auto& [name, bytes] : entries)
            QVERIFY2(bytes.find(kHfToken) == std::string::npos,
                     (name + " still holds " + kHfToken).c_str());
    }

    // DB_PASS=, MYSQL_PWD=, "password is X" and a Slack webhook survived in the launch
    // log, settings, report and catalog.d.
    void pass2_secretShapesAndNamesAreRedactedEverywhere()
    {
        ShellWorld w;
        w.env.insert(QStringLiteral("DB_PASS"), QString::fromLatin1(kDbPass));
        w.env.insert(QStringLiteral("MYSQL_PWD"), QString::fromLatin1(kMysqlPwd));
        const std::string hook = std::string("https://hooks.slack.com/services/T0AB/B0CD/") + kHook;
        writeFile(
            w.home / "config" / "settings.json",
            nlohmann::json{{"workloads", {{"hostile", {{"env", {{"DB_PASS", kSettingsPass}}}}}}}}
                .dump(2));
        writeFile(w.home / "config" / "catalog.d" / "mine.json",
                  nlohmann::json{{"schema_version", 1},
                                 {"known_issues",
                                  {{{"id", "mine"},
                                    {"title", "t"},
                                    {"signatures", {"never-matches-xyz"}},
                                    {"notes", "alerts go to " + hook},
                                    {"remedy", {{"text", std::string("the password is ") + kSaid}}},
                                    {"references", {"https://example.org/mine"}}}}}}
                      .dump(2));
        const auto entries =
            bundleAfter(w, "echo \"loading with DB_PASS=$DB_PASS MYSQL_PWD=$MYSQL_PWD\"; "
                           "echo 'the password is " +
                               std::string(kSaid) + "'; echo 'posting to " + hook + "'");
        bool sawSettings = false, sawCatalog = false;
        for (const auto& [name, bytes] : entries) {
            sawSettings = sawSettings || name == "settings.json";
            sawCatalog = sawCatalog || name.rfind("catalog.d/", 0) == 0;
            for (const char* secret : {kDbPass, kMysqlPwd, kSettingsPass, kSaid, kHook})
                QVERIFY2(bytes.find(secret) == std::string::npos,
                         (name + " still holds " + secret).c_str());
        }
        QVERIFY2(sawSettings && sawCatalog, "settings.json or catalog.d is not in the bundle");
    }

    // When the 5 MB log cut left a BEGIN PRIVATE KEY line without its END, the whole
    // key body shipped ("Redacted: none").
    void pass2_aPrivateKeyWithoutItsEndIsRemoved()
    {
        ShellWorld w;
        w.write("echo started");
        QVERIFY(w.cli(w.launchArgs({QStringLiteral("--json")})).rc == 0);
        const auto logs = w.launchFiles(".log");
        QCOMPARE(logs.size(), std::size_t{1});
        // An older log, longer than the 5 MB kept, that ends inside a key block.
        std::string log;
        for (int i = 0; log.size() < (6u << 20); ++i)
            log += "step " + std::to_string(i) + " of a long training run\n";
        log += "-----BEGIN PRIVATE KEY-----\n";
        for (int i = 0; i < 20; ++i)
            log += std::string(kKeyLine).substr(0, 48) + std::to_string(1000 + i) + "Ab\n";
        writeFile(logs.front(), log);
        const fs::path zip = w.root / "bundle.zip";
        const Run r = w.cli(exportTo(zip), 60000);
        QVERIFY2(r.rc == 0, r.err.c_str());
        bool found = false;
        for (const auto& [name, bytes] : unzip(zip)) {
            if (bytes.find("of a long training run") != std::string::npos)
                found = bytes.find("<redacted:") != std::string::npos;
            QVERIFY2(bytes.find(std::string(kKeyLine).substr(0, 48)) == std::string::npos,
                     (name + " ships the key body").c_str());
        }
        QVERIFY2(found, "the long log is not in the bundle, or shows no redaction");
    }

    // `plan --hardware BUNDLE.zip` printed zip entry names raw to stderr.
    void pass2_zipEntryNamesAreShownEscaped()
    {
        ShellWorld w;
        const std::string hostile = "catalog.d/\x1b]0;pwned\x07\x1b[2J\xc2\x9b"
                                    "1m.json";
        writeFile(w.root / "hostile.zip",
                  sp::test::buildArchive(
                      {sp::test::TestEntry::file(
                           "report.json",
                           readAll(STACKPILOT_SOURCE_DIR "/tests/fuzz/seeds/bundle/report.json")),
                       sp::test::TestEntry::file(hostile, "{}")},
                      "zip"));
        const Run r =
            w.cli({QStringLiteral("plan"), QStringLiteral("--workload"), QStringLiteral("sdnext"),
                   QStringLiteral("--hardware"), q(w.root / "hostile.zip")});
        QVERIFY2(r.rc == 0, r.err.c_str());
        QVERIFY2(r.err.find("\\x1b]0;pwned\\x07\\x1b[2J\\u009b1m.json") != std::string::npos,
                 r.err.c_str());
        QVERIFY((r.out + r.err).find('\x1b') == std::string::npos);
        QVERIFY((r.out + r.err).find("\xc2\x9b") == std::string::npos);
    }

    // kill -9 mid-export left a full hidden .part bundle that later exports never
    // cleaned. The next export removes a stale one (named as export names them), and
    // leaves a fresh one (an export writing now) and the user's own .part file.
    void pass2_aKilledExportsPartIsCleaned()
    {
        ShellWorld w;
        const fs::path dir = w.root / "out";
        const fs::path stale = dir / ".stackpilot-diagnostics-Ab12Cd.part";
        const fs::path fresh = dir / ".stackpilot-diagnostics-Ef34Gh.part";
        const fs::path users = dir / "mine.part";
        for (const auto& f : {stale, fresh, users})
            writeFile(f, "partial " + f.filename().string());
        const auto hourAgo = fs::file_time_type::clock::now() - std::chrono::hours(1);
        fs::last_write_time(stale, hourAgo);
        fs::last_write_time(users, hourAgo);
        const Run r = w.cli(exportTo(dir / "b.zip"), 60000);
        QVERIFY2(r.rc == 0, r.err.c_str());
        QVERIFY(!fs::exists(stale));
        QCOMPARE(readAll(fresh), "partial " + fresh.filename().string());
        QCOMPARE(readAll(users), std::string("partial mine.part"));
        QVERIFY(fs::exists(dir / "b.zip"));
    }

    // JSON followed by a NUL and junk was accepted.
    void pass2_jsonFollowedByNulAndJunkIsRefused()
    {
        ShellWorld w;
        w.write("exit 0");
        writeFile(w.snapshot, readAll(w.snapshot) + std::string("\0junk", 5));
        const Run r = w.cli(w.launchArgs({QStringLiteral("--dry-run")}));
        QCOMPARE(r.rc, 3);
        QVERIFY2(r.err.find(w.snapshot.string() + ":") != std::string::npos, r.err.c_str());
        QCOMPARE(std::count(r.err.begin(), r.err.end(), '\n'), 1);
    }
};

QTEST_GUILESS_MAIN(Pass2Bundle)
#include "pass2_bundle.moc"
