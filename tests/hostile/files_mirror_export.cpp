// Issue 35, item 1: a catalog made `mirror export` write outside its folder and replace
// files there (an artifact URL with the host "..", "user@..", "%00" in a name). Each
// attack runs `stackpilot-cli mirror export` on a hostile catalog (in process: what is
// checked is the refusal's line, the exit code and the files, not a crash or a hang),
// with the export folder inside a stand-in home that holds a victim .bashrc: the export
// refuses in one line and every file outside the folder stays byte-identical. The
// exportMirror cases skip the catalog loader, so the export's own checks are what holds.

#include "hostile/one_file_catalog.h"
#include "installers/mirror_export.h"
#include "installers/sha256.h"
#include "support/cli_runner.h"

#include <QTemporaryDir>
#include <QtTest>
#include <nlohmann/json.hpp>

using namespace sp;
using namespace sp::test;
using nlohmann::json;

namespace {

const std::string kBytes = "the artifact's bytes\n";

Runtime runtimeAt(const std::string& url)
{
    Runtime rt;
    rt.id = "rt";
    Artifact a;
    a.url = url;
    a.format = "file";
    a.sha256 = Sha256::ofBytes(kBytes.data(), kBytes.size());
    rt.artifacts.push_back(a);
    return rt;
}

int lines(const std::string& s)
{
    return static_cast<int>(std::count(s.begin(), s.end(), '\n'));
}

} // namespace

class HostileMirrorExport : public QObject
{
    Q_OBJECT
    QTemporaryDir m_tmp;
    fs::path home, dir, offline;

    // A stand-in home with a victim file beside the export folder, and the artifact's
    // bytes in an --offline folder (no network is needed to reach the write step).
    void setUpHome()
    {
        home = fs::path(m_tmp.path().toStdString()) / "home";
        fs::remove_all(home);
        fs::create_directories(home / "x");
        dir = home / "x";
        writeAll(home / ".bashrc", "the user's own .bashrc\n");
        writeAll(home / ".hostile_rc", "the user's own .hostile_rc\n");
        offline = fs::path(m_tmp.path().toStdString()) / "offline";
        fs::create_directories(offline);
        for (const char* name : {".hostile_rc", "x", "x.bin", ".bashrc", "b.zip"})
            writeAll(offline / name, kBytes);
    }

    // The user's files around DIR: everything under home but DIR itself.
    std::map<std::string, std::string> outside()
    {
        auto all = snapshotTree(home);
        for (auto it = all.begin(); it != all.end();)
            it = it->first.rfind("x/", 0) == 0 ? all.erase(it) : std::next(it);
        return all;
    }

    CliRun exportWith(const std::string& url)
    {
        const fs::path cat = fs::path(m_tmp.path().toStdString()) / "catalog";
        fs::remove_all(cat);
        writeOneFileCatalog(cat, "p", "rt", url, kBytes);
        return runCliInProcess({QStringLiteral("mirror"), QStringLiteral("export"),
                                QStringLiteral("p"), q(dir), QStringLiteral("--catalog-dir"),
                                q(cat), QStringLiteral("--offline"), q(offline)});
    }

private slots:
    void item1_hostileUrlsAreRefusedInOneLine_data()
    {
        QTest::addColumn<QString>("url");
        QTest::newRow("host ..") << QStringLiteral("http://../.hostile_rc");
        QTest::newRow("user@..") << QStringLiteral("http://user@../.bashrc");
        QTest::newRow("host .") << QStringLiteral("http://./x");
        QTest::newRow("no host") << QStringLiteral("http:///x");
        QTest::newRow("%00 name") << QStringLiteral("http://mirror.example/..%00/.bashrc");
        QTest::newRow("%00 cut") << QStringLiteral("http://mirror.example/a/x.bin%00.txt");
        QTest::newRow("%2F") << QStringLiteral("http://mirror.example/..%2F..%2F.bashrc");
    }
    void item1_hostileUrlsAreRefusedInOneLine()
    {
        QFETCH(QString, url);
        setUpHome();
        const auto before = outside();
        const auto r = exportWith(url.toStdString());
        QVERIFY2(r.rc == 3 || r.rc == 1, (r.out + r.err).c_str());
        QVERIFY2(lines(r.err) == 1, r.err.c_str());
        QVERIFY2(r.err.find(url.toStdString()) != std::string::npos, r.err.c_str());
        QVERIFY(outside() == before);
        QVERIFY(snapshotTree(dir).empty()); // refused before anything was written
    }

    // The loader is not the only guard: the export maps each URL itself.
    void item1_exportRefusesWithoutTheLoader()
    {
        for (const char* url : {"http://../.hostile_rc", "http://user@../.bashrc", "http://./x",
                                "http:///x", "http://h.example/..%00/.bashrc"}) {
            setUpHome();
            const auto before = outside();
            const Runtime rt = runtimeAt(url);
            FetchOptions o;
            o.offlineDir = offline;
            o.allowNetwork = false;
            auto r = exportMirror({&rt}, dir, o);
            QVERIFY2(!r, url);
            QVERIFY2(r.error().message.find('\n') == std::string::npos, r.error().message.c_str());
            QVERIFY(outside() == before);
            QVERIFY(snapshotTree(dir).empty());
        }
    }

    // A digest is a file name in DIR/sha256, never a path.
    void item1_aDigestThatIsAPathIsRefused()
    {
        setUpHome();
        const auto before = outside();
        Runtime rt = runtimeAt("http://mirror.example/x.bin");
        rt.artifacts[0].sha256 = "../../.bashrc";
        FetchOptions o;
        o.offlineDir = offline;
        o.allowNetwork = false;
        QVERIFY(!exportMirror({&rt}, dir, o));
        QVERIFY(outside() == before);
        QVERIFY(snapshotTree(dir).empty());
    }

    // A folder inside DIR that is a link to the home is not entered.
    void item1_aLinkInsideDirIsNotFollowed()
    {
        setUpHome();
        fs::create_directory_symlink(home, dir / "mirror.example");
        const auto before = outside();
        const auto r = exportWith("http://mirror.example/.bashrc");
        QCOMPARE(r.rc, 1);
        QVERIFY2(r.out.find("link") != std::string::npos, r.out.c_str());
        QVERIFY(outside() == before);
    }

    // A file already where the export would write, with other bytes, is the user's.
    void item1_aFileItDidNotWriteIsNeverReplaced()
    {
        setUpHome();
        fs::create_directories(dir / "mirror.example" / "a");
        writeAll(dir / "mirror.example" / "a" / "b.zip", "the user's own file\n");
        const auto r = exportWith("http://mirror.example/a/b.zip");
        QCOMPARE(r.rc, 1);
        QCOMPARE(readAll(dir / "mirror.example" / "a" / "b.zip"),
                 std::string("the user's own file\n"));
        // A second export of what it wrote itself is fine (the same bytes).
        fs::remove(dir / "mirror.example" / "a" / "b.zip");
        QCOMPARE(exportWith("http://mirror.example/a/b.zip").rc, 0);
        QCOMPARE(exportWith("http://mirror.example/a/b.zip").rc, 0);
        QCOMPARE(readAll(dir / "mirror.example" / "a" / "b.zip"), kBytes);
    }

    // DIR's mirrors.json that no export wrote is refused before anything is written.
    void item1_aForeignMirrorsJsonIsRefused()
    {
        setUpHome();
        writeAll(dir / "mirrors.json", "my notes, not JSON\n");
        const auto r = exportWith("http://mirror.example/a/b.zip");
        QVERIFY2(r.rc == 3 || r.rc == 1, r.err.c_str());
        QCOMPARE(lines(r.err), 1);
        QCOMPARE(readAll(dir / "mirrors.json"), std::string("my notes, not JSON\n"));
        QVERIFY(!fs::exists(dir / "sha256"));
    }
};

QTEST_GUILESS_MAIN(HostileMirrorExport)
#include "files_mirror_export.moc"
