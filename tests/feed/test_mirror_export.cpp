// `mirror export` end to end, as a lab does it: two profiles' artifacts are exported
// from a loopback origin, the origin is stopped, the folder is served by the real
// `python3 -m http.server` on 127.0.0.1, and a second StackPilot home (its own cache,
// its own prefix root) installs both profiles with the exported mirror rules only.

#include "core/paths.h"
#include "feed_fixture.h"
#include "installers/mirror_export.h"
#include "installers/sha256.h"
#include "support/cli_runner.h"
#include "support/http_test_server.h"

#include <QRegularExpression>
#include <QtTest>
#include <nlohmann/json.hpp>

using namespace sp;
using namespace sp::test;
using nlohmann::json;

namespace {

json fileArtifactAt(const std::string& url, const std::string& bytes, const std::string& name)
{
    return {{"url", url},
            {"format", "file"},
            {"file_name", name},
            {"sha256", Sha256::ofBytes(bytes.data(), bytes.size())},
            {"size", bytes.size()}};
}

json profileOf(const std::string& id, const std::string& runtime)
{
    return {{"id", id},
            {"workload", "mirror-wl"},
            {"status", "community"},
            {"match", {{"os", {"linux", "windows"}}}},
            {"runtimes", {runtime}}};
}

// `python3 -m http.server` on an ephemeral loopback port, serving `dir`. Not the HTTP
// test server: the point is that a plain static server a lab already has (no Range
// tricks, its own headers) serves an exported folder as it is.
struct PythonServer
{
    QProcess process;
    int port = 0;
    bool start(const fs::path& dir)
    {
        process.setProcessChannelMode(QProcess::MergedChannels);
        process.start(QStringLiteral("python3"),
                      {QStringLiteral("-u"), QStringLiteral("-m"), QStringLiteral("http.server"),
                       QStringLiteral("0"), QStringLiteral("--bind"), QStringLiteral("127.0.0.1"),
                       QStringLiteral("--directory"), q(dir)});
        if (!process.waitForStarted(10000))
            return false;
        QByteArray out;
        const QRegularExpression re(QStringLiteral("port (\\d+)"));
        for (int i = 0; i < 100 && port == 0; ++i) {
            process.waitForReadyRead(100);
            out += process.readAll();
            if (auto m = re.match(QString::fromUtf8(out)); m.hasMatch())
                port = m.captured(1).toInt();
        }
        return port != 0;
    }
    ~PythonServer()
    {
        process.terminate();
        if (!process.waitForFinished(5000))
            process.kill();
        process.waitForFinished();
    }
};

} // namespace

class TestMirrorExport : public QObject
{
    Q_OBJECT

    fs::path dir, cat, exported, homeB;
    std::string bytesA, bytesB;

    CliRun cliIn(const fs::path& home, const QStringList& args)
    {
        QProcess p;
        auto env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("STACKPILOT_HOME"), q(home));
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(STACKPILOT_BINARY_DIR "/bin/stackpilot-cli"), args);
        if (!p.waitForFinished(60000))
            p.kill();
        p.waitForFinished();
        return {p.exitCode(), p.readAllStandardOutput().toStdString(),
                p.readAllStandardError().toStdString(), p.exitStatus() != QProcess::NormalExit};
    }

private slots:
    void initTestCase()
    {
        dir = fs::path(qEnvironmentVariable("STACKPILOT_HOME").toStdString()) / "mirror";
        fs::remove_all(dir);
        fs::remove_all(paths::cacheDir()); // the export must fetch from the origin
        cat = dir / "catalog";
        exported = dir / "exported";
        homeB = dir / "home-b";
        fs::create_directories(cat);
        fs::create_directories(homeB / "config");
        for (int i = 0; i < 70000; ++i) {
            bytesA += static_cast<char>((i * 7) & 0xff);
            bytesB += static_cast<char>((i * 13 + 5) & 0xff);
        }
    }

    void exportedProfilesInstallFromTheMirrorAlone()
    {
        std::string originAuthority;
        {
            HttpTestServer origin;
            origin.addBlob("/releases/v1/tool-a.bin", bytesA);
            origin.addBlob("/releases/v1/tool%20b.bin", bytesB);
            QVERIFY2(origin.start(), origin.error().c_str());
            originAuthority = "127.0.0.1:" + std::to_string(origin.port());
            const json runtimes = json::array(
                {{{"id", "mirror-rt-a"},
                  {"kind", "source"},
                  {"version", "1"},
                  {"artifacts",
                   {fileArtifactAt(origin.url("/releases/v1/tool-a.bin"), bytesA, "a.bin")}}},
                 {{"id", "mirror-rt-b"},
                  {"kind", "source"},
                  {"version", "1"},
                  {"artifacts",
                   {fileArtifactAt(origin.url("/releases/v1/tool%20b.bin"), bytesB, "b.bin")}}}});
            writeAll(cat / "runtimes.json",
                     json{{"schema_version", 1}, {"runtimes", runtimes}}.dump(2));
            writeAll(cat / "workloads.json",
                     json{{"schema_version", 1},
                          {"workloads",
                           {{{"id", "mirror-wl"}, {"name", "Mirror"}, {"command", {"true"}}}}}}
                         .dump(2));
            writeAll(cat / "profiles.json", json{{"schema_version", 1},
                                                 {"profiles",
                                                  {profileOf("mirror-a", "mirror-rt-a"),
                                                   profileOf("mirror-b", "mirror-rt-b")}}}
                                                .dump(2));
            auto r = runCliInProcess({QStringLiteral("mirror"), QStringLiteral("export"),
                                      QStringLiteral("mirror-a"), QStringLiteral("mirror-b"),
                                      q(exported), QStringLiteral("--catalog-dir"), q(cat)});
            QVERIFY2(r.rc == 0, (r.out + r.err).c_str());
            QVERIFY2(r.out.find("2 of 2 artifact(s)") != std::string::npos, r.out.c_str());
            QCOMPARE(origin.stats("/releases/v1/tool-a.bin").requests, 1);
        } // the origin is gone from here on
        const std::string folder = "127.0.0.1_" + originAuthority.substr(10);
        QCOMPARE(readAll(exported / folder / "releases/v1/tool-a.bin"), bytesA);
        QCOMPARE(readAll(exported / folder / "releases/v1/tool b.bin"), bytesB);
        QCOMPARE(readAll(exported / "sha256" / Sha256::ofBytes(bytesB.data(), bytesB.size())),
                 bytesB);

        PythonServer mirror;
        QVERIFY(mirror.start(exported));
        const std::string base = "http://127.0.0.1:" + std::to_string(mirror.port);
        const json rules = json::parse(readAll(exported / "mirrors.json"));
        QVERIFY2(rules["mirrors"][originAuthority][0] == "BASE_URL/" + folder,
                 rules.dump().c_str());
        writeAll(homeB / "config" / "settings.json",
                 json{{"mirrors", {{originAuthority, {base + "/" + folder}}}}}.dump(2));
        for (const char* profile : {"mirror-a", "mirror-b"}) {
            auto r = cliIn(homeB, {QStringLiteral("install"), QString::fromLatin1(profile),
                                   QStringLiteral("--catalog-dir"), q(cat),
                                   QStringLiteral("--prefix-root"), q(homeB / "prefix"),
                                   QStringLiteral("--json")});
            QVERIFY2(r.rc == 0, (r.out + r.err).c_str());
            const json j = json::parse(r.out);
            const auto& art = j["runtimes"][0]["artifacts"][0];
            QVERIFY2(art["source"] == "network", r.out.c_str());
            QVERIFY2(art["origin"].get<std::string>().rfind(base + "/" + folder + "/", 0) == 0,
                     r.out.c_str());
        }
        QCOMPARE(readAll(homeB / "prefix" / "mirror-rt-a" / "a.bin"), bytesA);
        QCOMPARE(readAll(homeB / "prefix" / "mirror-rt-b" / "b.bin"), bytesB);
    }

    void placesOfUrls()
    {
        auto p = mirrorPlaceOf("https://GitHub.com/a/b%2Bc.zip?x=1");
        QVERIFY(p);
        QCOMPARE(p->authority, std::string("github.com"));
        QCOMPARE(p->folder, std::string("github.com"));
        QCOMPARE(p->path, std::string("/a/b+c.zip"));
        QVERIFY(!mirrorPlaceOf("https://h/a/../b.zip"));
        QVERIFY(!mirrorPlaceOf("https://h/a/%2e%2e/b.zip"));
        QVERIFY(!mirrorPlaceOf("https://h/"));
        QVERIFY(!mirrorPlaceOf("https://h"));
    }
};

QTEST_GUILESS_MAIN(TestMirrorExport)
#include "test_mirror_export.moc"
