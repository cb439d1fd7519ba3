// A bare machine's Python path end to end, with real parts: a stand-in Python runtime
// (an archive whose bin/python3 runs Debian's python3) installed by `stackpilot-cli
// install` over loopback; two profiles whose setup steps create their own venv and
// pip-install a wheel built here from a PEP 503 index on 127.0.0.1; the launched
// workload imports it. The second profile gets the wheel from the pip cache that
// every profile shares (PIP_CACHE_DIR under StackPilot's cache): the server sends the
// caching headers a real index sends, and counts the bytes it serves.

#include "archive_builder.h"
#include "core/snapshot.h"
#include "http_test_server.h"
#include "installers/sha256.h"

#include <QCryptographicHash>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

namespace fs = std::filesystem;
using namespace sp;
using sp::test::TestEntry;

namespace {

const char* kWheel = "standin_pkg-1.0.0-py3-none-any.whl";

// RECORD's hash form: sha256=<urlsafe base64, no padding>.
std::string recordHash(const std::string& bytes)
{
    const QByteArray digest = QCryptographicHash::hash(
        QByteArray(bytes.data(), static_cast<qsizetype>(bytes.size())), QCryptographicHash::Sha256);
    return "sha256=" +
           digest.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals)
               .toStdString();
}

// A pure-Python wheel as the wheel spec lays it out.
std::string buildWheel()
{
    const std::vector<std::pair<std::string, std::string>> files = {
        {"standin_pkg/__init__.py", "__version__ = \"1.0.0\"\n"},
        {"standin_pkg-1.0.0.dist-info/METADATA",
         "Metadata-Version: 2.1\nName: standin-pkg\nVersion: 1.0.0\n"},
        {"standin_pkg-1.0.0.dist-info/WHEEL",
         "Wheel-Version: 1.0\nGenerator: stackpilot-test\nRoot-Is-Purelib: true\nTag: "
         "py3-none-any\n"}};
    std::vector<TestEntry> entries;
    std::string record;
    for (const auto& [path, body] : files) {
        entries.push_back(TestEntry::file(path, body));
        record += path + "," + recordHash(body) + "," + std::to_string(body.size()) + "\n";
    }
    record += "standin_pkg-1.0.0.dist-info/RECORD,,\n";
    entries.push_back(TestEntry::file("standin_pkg-1.0.0.dist-info/RECORD", record));
    return sp::test::buildArchive(entries, "zip");
}

std::string catalogJson(const std::string& pythonUrl, const std::string& pythonArchive,
                        const std::string& index)
{
    using nlohmann::json;
    const json steps = {{"{base_python}", "-m", "venv", "{venv}"},
                        {"{python}", "-m", "pip", "install", "--no-input",
                         "--disable-pip-version-check", "--index-url", index,
                         // pip caches plain-http responses only from trusted hosts (its
                         // insecure adapter has no cache); a real index is https.
                         "--trusted-host", "127.0.0.1", "standin-pkg"}};
    json profiles = json::array();
    for (const char* id : {"pipcheck-a", "pipcheck-b"})
        profiles.push_back({{"id", id},
                            {"workload", "pipcheck"},
                            {"status", "tested"},
                            {"runtimes", {"standin-python"}},
                            {"venv", true},
                            {"match", {{"os", {"linux"}}}},
                            {"env", {{"PIP_CONFIG_FILE", "/dev/null"}}},
                            {"steps", steps},
                            {"references", {"https://peps.python.org/pep-0503/"}}});
    const json doc = {{"schema_version", 1},
                      {"runtimes",
                       {{{"id", "standin-python"},
                         {"kind", "python"},
                         {"version", "3.11.2"},
                         {"os", {"linux"}},
                         {"artifacts",
                          {{{"url", pythonUrl},
                            {"sha256", Sha256::ofBytes(pythonArchive.data(), pythonArchive.size())},
                            {"size", pythonArchive.size()},
                            {"format", "tar.gz"},
                            {"strip_components", 1}}}},
                         {"executable", {{"linux", "bin/python3"}}},
                         {"path_dirs", {"bin"}},
                         {"references", {"https://packages.debian.org/bookworm/python3"}}}}},
                      {"workloads",
                       {{{"id", "pipcheck"},
                         {"name", "pip check"},
                         {"command",
                          {"{python}", "-c",
                           "import standin_pkg; print('standin_pkg', standin_pkg.__version__)"}},
                         {"references",
                          {"https://packaging.python.org/en/latest/specifications/"
                           "binary-distribution-format/"}}}}},
                      {"profiles", profiles}};
    return doc.dump(2);
}

} // namespace

class TestVenvPip : public QObject
{
    Q_OBJECT

    sp::test::HttpTestServer m_server;
    QTemporaryDir m_tmp;
    fs::path m_base;
    QProcessEnvironment m_env;

    std::tuple<int, std::string, std::string> cli(const QStringList& args)
    {
        QProcess p;
        p.setProcessEnvironment(m_env);
        p.start(QStringLiteral(STACKPILOT_BINARY_DIR "/bin/stackpilot-cli"), args);
        p.waitForFinished(300000);
        return {p.exitCode(), p.readAllStandardOutput().toStdString(),
                p.readAllStandardError().toStdString()};
    }

    std::tuple<int, std::string, std::string> launch(const char* profile)
    {
        return cli({QStringLiteral("launch"), QString::fromLatin1(profile),
                    QStringLiteral("--json"), QStringLiteral("--hardware"),
                    QString::fromStdString((m_base / "snap.json").string()),
                    QStringLiteral("--catalog-dir"),
                    QString::fromStdString((m_base / "catalog").string())});
    }

private slots:
    void initTestCase()
    {
        if (!fs::exists("/usr/bin/python3"))
            QSKIP("Debian's python3 is not installed (.ci/install-deps installs it)");
        QProcess venvCheck;
        venvCheck.start(QStringLiteral("/usr/bin/python3"),
                        {QStringLiteral("-c"), QStringLiteral("import ensurepip, venv")});
        if (!venvCheck.waitForFinished(30000) || venvCheck.exitCode() != 0)
            QSKIP("python3-venv is not installed (.ci/install-deps installs it)");
        m_base = fs::path(m_tmp.path().toStdString());
        const std::string wheel = buildWheel();
        const std::string digest = Sha256::ofBytes(wheel.data(), wheel.size());
        m_server.addCachedBlob(
            "/simple/", "<html><body><a href=\"standin-pkg/\">standin-pkg</a></body></html>\n",
            "text/html");
        m_server.addCachedBlob("/simple/standin-pkg/",
                               std::string("<html><body><a href=\"/files/") + kWheel +
                                   "#sha256=" + digest + "\">" + kWheel + "</a></body></html>\n",
                               "text/html");
        m_server.addCachedBlob(std::string("/files/") + kWheel, wheel, "application/octet-stream");
        const std::string python = sp::test::buildArchive(
            {TestEntry::file("python/bin/python3", "#!/bin/sh\nexec /usr/bin/python3 \"$@\"\n",
                             0755)},
            "tar.gz");
        m_server.addBlob("/rt/python.tar.gz", python);
        QVERIFY2(m_server.start(), m_server.error().c_str());
        fs::create_directories(m_base / "catalog");
        std::ofstream(m_base / "catalog" / "pipcheck.json")
            << catalogJson(m_server.url("/rt/python.tar.gz"), python, m_server.url("/simple/"));
        HardwareSnapshot snap;
        snap.os.family = "linux";
        snap.home.path = "/home/u";
        snap.home.filesystem = "ext4";
        std::ofstream(m_base / "snap.json") << toJson(snap).dump();
        m_env = QProcessEnvironment::systemEnvironment();
        m_env.insert(QStringLiteral("STACKPILOT_HOME"),
                     QString::fromStdString((m_base / "home").string()));
        m_env.insert(QStringLiteral("STACKPILOT_RUN"),
                     QStringLiteral(STACKPILOT_BINARY_DIR "/bin/stackpilot-run"));
        for (const char* proxy :
             {"http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "PIP_INDEX_URL"})
            m_env.remove(QString::fromLatin1(proxy));
    }

    void venvAndPipFromTheLoopbackIndexWithASharedCache()
    {
        auto [rc, out, err] = cli({QStringLiteral("install"), QStringLiteral("standin-python"),
                                   QStringLiteral("--catalog-dir"),
                                   QString::fromStdString((m_base / "catalog").string())});
        QVERIFY2(rc == 0, err.c_str());
        const std::string wheelPath = std::string("/files/") + kWheel;
        const std::uint64_t wheelSize = m_server.stats(wheelPath).bodyBytes;
        QCOMPARE(wheelSize, std::uint64_t{0});

        std::tie(rc, out, err) = launch("pipcheck-a");
        QVERIFY2(rc == 0 && out.find("standin_pkg 1.0.0") != std::string::npos,
                 (out + err).c_str());
        const auto first = m_server.stats(wheelPath);
        qInfo("profile A: the wheel was served %d time(s), %llu body bytes", first.requests,
              static_cast<unsigned long long>(first.bodyBytes));
        QVERIFY(first.bodyBytes > 0);
        QVERIFY(fs::exists(m_base / "home" / "data" / "venvs" / "pipcheck-a" / "bin" / "python"));

        std::tie(rc, out, err) = launch("pipcheck-a");
        QVERIFY2(rc == 0 && out.find("\"state\":\"skipped\"") != std::string::npos, out.c_str());

        std::tie(rc, out, err) = launch("pipcheck-b");
        QVERIFY2(rc == 0 && out.find("standin_pkg 1.0.0") != std::string::npos,
                 (out + err).c_str());
        QVERIFY(fs::exists(m_base / "home" / "data" / "venvs" / "pipcheck-b" / "bin" / "python"));
        const auto second = m_server.stats(wheelPath);
        qInfo("after profile B: the wheel was requested %d time(s) in all, %llu body bytes in all, "
              "%d answered 304",
              second.requests, static_cast<unsigned long long>(second.bodyBytes),
              second.notModified);
        QCOMPARE(second.bodyBytes, first.bodyBytes); // none of its bytes downloaded again
        // Both venvs used the one cache under StackPilot's cache folder.
        QVERIFY(fs::exists(m_base / "home" / "cache" / "pip" / "http") ||
                fs::exists(m_base / "home" / "cache" / "pip" / "http-v2"));
    }

    // The venv is StackPilot's (marked before the first step), so `repair PROFILE`
    // rebuilds it from nothing and `uninstall PROFILE` removes it; runtimes stay.
    void repairRebuildsAndUninstallRemovesTheVenv()
    {
        const fs::path venv = m_base / "home" / "data" / "venvs" / "pipcheck-a";
        const QString catalog = QString::fromStdString((m_base / "catalog").string());
        QVERIFY(fs::exists(venv / ".stackpilot-owner"));
        std::ofstream(venv / "stale.txt") << "left by an earlier build\n";
        auto [rc, out, err] =
            cli({QStringLiteral("repair"), QStringLiteral("pipcheck-a"), QStringLiteral("--json"),
                 QStringLiteral("--catalog-dir"), catalog});
        QVERIFY2(rc == 0, (out + err).c_str());
        QCOMPARE(nlohmann::json::parse(out).at("venv_removed").get<bool>(), true);
        QVERIFY(!fs::exists(venv));
        std::tie(rc, out, err) = launch("pipcheck-a");
        QVERIFY2(rc == 0 && out.find("\"state\":\"started\"") != std::string::npos,
                 (out + err).c_str());
        QVERIFY(fs::exists(venv / "bin" / "python"));
        QVERIFY(!fs::exists(venv / "stale.txt"));

        std::tie(rc, out, err) = cli({QStringLiteral("uninstall"), QStringLiteral("pipcheck-a"),
                                      QStringLiteral("--catalog-dir"), catalog});
        QVERIFY2(rc == 0, (out + err).c_str());
        QVERIFY(!fs::exists(venv));
        QVERIFY(fs::exists(m_base / "home" / "data" / "runtimes" / "standin-python"));
    }

    // A folder of the user's where the venv would go is never claimed or removed.
    void aUsersFolderNamedLikeTheVenvIsLeftAlone()
    {
        const fs::path venv = m_base / "home" / "data" / "venvs" / "pipcheck-a";
        fs::create_directories(venv);
        std::ofstream(venv / "thesis.tex") << "mine\n";
        const QString catalog = QString::fromStdString((m_base / "catalog").string());
        auto [rc, out, err] = launch("pipcheck-a");
        QCOMPARE(rc, 1);
        QVERIFY2(err.find("was not created by StackPilot") != std::string::npos, err.c_str());
        for (const char* verb : {"repair", "uninstall"}) {
            std::tie(rc, out, err) = cli({QString::fromLatin1(verb), QStringLiteral("pipcheck-a"),
                                          QStringLiteral("--catalog-dir"), catalog});
            QVERIFY2(rc == 1 && err.find("was not created by StackPilot") != std::string::npos,
                     (verb + (": " + err)).c_str());
        }
        QVERIFY(fs::exists(venv / "thesis.tex"));
        QVERIFY(!fs::exists(venv / ".stackpilot-owner"));
        QVERIFY(!fs::exists(venv / "bin"));
    }
};

QTEST_GUILESS_MAIN(TestVenvPip)
#include "test_venv_pip.moc"
