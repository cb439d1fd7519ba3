// Issue 8 (first hostile pass), the data-loss findings, as the attacks were made through
// the real stackpilot-cli: `uninstall photos` and `install ID` over a user's folder of
// that name, `gc` with a bad --partial-days after recovery had already deleted, a
// --partial-days that overflowed into deleting fresh downloads, and `verify` reading
// receipt paths outside the prefix. Every canary must survive byte for byte.

#include "core/ownership.h"
#include "hostile_support.h"
#include "install_fixture.h"
#include "tree_snapshot.h"

#include <QTest>
#include <sys/stat.h>

using namespace sp::hostile;
using sp::test::changedCanaries;
using sp::test::treeContents;

namespace {

const char* const kRuntime = "crash-test-rt";

void age(const fs::path& f, int days)
{
    fs::last_write_time(f, fs::file_time_type::clock::now() - std::chrono::hours(24 * days));
}

} // namespace

class Pass1Ownership : public QObject
{
    Q_OBJECT

    sp::test::HttpTestServer m_server;
    QTemporaryDir m_tmp;
    fs::path m_base = fs::path(m_tmp.path().toStdString());
    fs::path m_catalog = m_base / "catalog";
    QProcessEnvironment m_env = QProcessEnvironment::systemEnvironment();

    Run cli(const QString& verb, const fs::path& root, QStringList extra, int ms = 30000) const
    {
        QStringList a{verb};
        a << extra << QStringLiteral("--prefix-root") << q(root);
        if (verb != QStringLiteral("uninstall") && verb != QStringLiteral("verify"))
            a << QStringLiteral("--catalog-dir") << q(m_catalog);
        return runCli(a, m_env, ms);
    }

    std::uint64_t downloaded() { return m_server.stats("/rt/pkg.tar.gz").bodyBytes; }

    // Fails the test when a canary under `root` changed or went.
    static void unchanged(const fs::path& root, const std::map<std::string, std::string>& before)
    {
        const auto changed = changedCanaries(before, treeContents(root));
        QVERIFY2(changed.empty(),
                 (root.string() + ": " + (changed.empty() ? "" : changed.front())).c_str());
    }

private slots:
    void initTestCase()
    {
        m_env.insert(QStringLiteral("STACKPILOT_HOME"), q(m_base / "home"));
        m_env.insert(QStringLiteral("STACKPILOT_DATA_DIR"),
                     QStringLiteral(STACKPILOT_BINARY_DIR "/share/stackpilot"));
        const std::string bytes = sp::test::buildArchive(
            {sp::test::TestEntry::file("pkg/lib/part.bin", sp::test::mixedBytes(64 * 1024, 7)),
             sp::test::TestEntry::file("pkg/bin/tool", "#!/bin/sh\necho ok\n", 0755)},
            "tar.gz");
        m_server.addBlob("/rt/pkg.tar.gz", bytes);
        QVERIFY2(m_server.start(), m_server.error().c_str());
        auto rt = sp::test::runtimeWith(
            kRuntime, {sp::test::artifactFor(m_server.url("/rt/pkg.tar.gz"), bytes, "tar.gz")});
        rt.artifacts[0].stripComponents = 1;
        sp::test::writeCatalog(m_catalog, {rt});
    }

    // `uninstall photos` deleted photos/2020/a.jpg, then said the runtime was not installed.
    void pass1_uninstallNeverRemovesAUserFolder()
    {
        const fs::path root = m_base / "uninstall-root";
        writeFile(root / "photos" / "2020" / "a.jpg", "\xff\xd8\xff\xe0 my holiday");
        writeFile(root / kRuntime / "notes.txt", "my folder that has the runtime's name");
        writeFile(root / "letters", "a file named like an id");
        const auto before = treeContents(root);
        for (const char* id : {"photos", kRuntime, "letters"}) {
            const Run r = cli(QStringLiteral("uninstall"), root, {QString::fromLatin1(id)});
            QVERIFY2(r.rc == 1, (std::string(id) + ": " + r.err).c_str());
            if (fs::is_directory(root / id))
                QVERIFY2(r.err.find((root / id).string()) != std::string::npos &&
                             r.err.find("not created by StackPilot") != std::string::npos,
                         r.err.c_str());
        }
        unchanged(root, before);
    }

    // `install ID` replaced a user's folder that had the runtime's name.
    void pass1_installNeverReplacesAUserFolder()
    {
        const fs::path root = m_base / "install-root";
        writeFile(root / kRuntime / "notes.txt", "my folder that has the runtime's name");
        writeFile(root / (std::string(kRuntime) + ".receipt.json"), "{\"mine\": true}");
        const auto before = treeContents(root);
        m_server.resetStats();
        for (const char* verb : {"install", "repair"}) {
            const Run r = cli(QString::fromLatin1(verb), root, {QString::fromLatin1(kRuntime)});
            QCOMPARE(r.rc, 1);
            QVERIFY2(r.err.find((root / kRuntime).string()) != std::string::npos &&
                         r.err.find("not created by StackPilot") != std::string::npos,
                     r.err.c_str());
        }
        QCOMPARE(downloaded(), std::uint64_t{0});
        unchanged(root, before);
        // The same install into a root of its own downloads and installs: the refusal
        // above was the user's folder, not a broken catalog.
        const Run fresh =
            cli(QStringLiteral("install"), m_base / "clean-root", {QString::fromLatin1(kRuntime)});
        QVERIFY2(fresh.rc == 0, fresh.err.c_str());
        QVERIFY(downloaded() > 0);
    }

    // `gc --partial-days -1` exited 2 after recovery had deleted, and --dry-run did not
    // list what recovery removes.
    void pass1_gcValidatesBeforeRecoveryAndItsDryRunListsRecovery()
    {
        const fs::path root = m_base / "gc-root";
        const fs::path leftover = root / (".staging-" + std::string(kRuntime) + "-0badf00d");
        fs::create_directories(root);
        QVERIFY(sp::ownership::createOwned(leftover, "test").ok());
        writeFile(leftover / "half.bin", "a crashed install's half");
        writeFile(root / "photos" / "a.jpg", "\xff\xd8 mine");
        const auto before = treeContents(root);
        for (const char* days : {"-1", "x", ""}) {
            const Run r = cli(QStringLiteral("gc"), root,
                              {QStringLiteral("--partial-days"), QString::fromLatin1(days)});
            QVERIFY2(r.rc == 2, (std::string(days) + ": " + r.err).c_str());
        }
        unchanged(root, before); // recovery did not run
        const Run dry = cli(QStringLiteral("gc"), root, {QStringLiteral("--dry-run")});
        QCOMPARE(dry.rc, 0);
        QVERIFY2(dry.out.find(leftover.filename().string()) != std::string::npos, dry.out.c_str());
        unchanged(root, before);
        // A real run removes exactly what the dry run listed, and not the photo.
        QCOMPARE(cli(QStringLiteral("gc"), root, {}).rc, 0);
        QVERIFY(!fs::exists(leftover));
        QCOMPARE(readAll(root / "photos" / "a.jpg"), std::string("\xff\xd8 mine"));
    }

    // `gc --partial-days 100000` (inf, nan, 1e308) overflowed and deleted fresh
    // partial downloads, the opposite of what was asked.
    void pass1_gcPartialDaysNeverOverflows()
    {
        const fs::path partial = m_base / "home" / "cache" / "downloads" / "partial";
        const fs::path fresh = partial / (std::string(64, 'b') + ".part");
        const fs::path old = partial / (std::string(64, 'a') + ".part");
        writeFile(fresh, "resumable bytes");
        writeFile(old, "old bytes");
        age(old, 30);
        const auto before = treeContents(partial);
        const fs::path root = m_base / "empty-root";
        for (const char* days : {"100000", "inf", "nan", "1e308", "-inf", "3651", "14.5"}) {
            const Run r = cli(QStringLiteral("gc"), root,
                              {QStringLiteral("--partial-days"), QString::fromLatin1(days)});
            QVERIFY2(r.rc == 2, (std::string(days) + ": " + r.err).c_str());
        }
        unchanged(partial, before);
        // Days in range do what they say: the 30-day-old one goes, the fresh one stays.
        QCOMPARE(
            cli(QStringLiteral("gc"), root, {QStringLiteral("--partial-days"), QStringLiteral("7")})
                .rc,
            0);
        QVERIFY(!fs::exists(old));
        QCOMPARE(readAll(fresh), std::string("resumable bytes"));
    }

    // `verify` followed receipt paths outside the prefix. Each path here leads to a FIFO
    // outside it: reading one would hang, so a finished run proves none was opened.
    void pass1_verifyNeverReadsOutsideThePrefix()
    {
        const fs::path root = m_base / "verify-root";
        QVERIFY(cli(QStringLiteral("install"), root, {QString::fromLatin1(kRuntime)}).rc == 0);
        const fs::path outside = m_base / "outside";
        fs::create_directories(outside);
        QCOMPARE(::mkfifo((outside / "secret").c_str(), 0600), 0);
        fs::create_symlink(outside, root / kRuntime / "link");
        const fs::path receiptFile = root / (std::string(kRuntime) + ".receipt.json");
        auto receipt = nlohmann::json::parse(readAll(receiptFile));
        auto& files = receipt.at("files");
        const nlohmann::json model = files.at(0);
        const std::vector<std::string> escapes = {"../../outside/secret",
                                                  (outside / "secret").string(), "link/secret"};
        for (const auto& path : escapes) {
            nlohmann::json f = model;
            f["path"] = path;
            files.push_back(f);
        }
        writeFile(receiptFile, receipt.dump(2));
        const Run r = cli(QStringLiteral("verify"), root,
                          {QString::fromLatin1(kRuntime), QStringLiteral("--json")});
        QVERIFY2(r.rc != -2, "verify opened a path outside the prefix (it hung on the FIFO)");
        QCOMPARE(r.rc, 1);
        const auto problems = nlohmann::json::parse(r.out).at("runtimes").at(0).at("problems");
        for (const auto& path : escapes) {
            bool marked = false;
            for (const auto& p : problems)
                marked = marked || (p.at("path") == path && p.at("issue") == "outside-prefix");
            QVERIFY2(marked, (path + " not marked outside-prefix: " + problems.dump()).c_str());
        }
    }
};

QTEST_GUILESS_MAIN(Pass1Ownership)
#include "pass1_ownership.moc"
