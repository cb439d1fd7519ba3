// End to end with real parts: Debian's real rocminfo .deb is served over loopback,
// installed by `stackpilot-cli install`, then launched by `stackpilot-cli launch` as a
// profile's workload. On this GPU-less machine its real output is classified
// (no-gpu-visible) and its exit status decoded.

#include "core/snapshot.h"
#include "install_fixture.h"

#include <QTemporaryDir>
#include <QTest>

namespace fs = std::filesystem;
using namespace sp;
using namespace sp::test;

namespace {

fs::path findRocminfoDeb()
{
    std::vector<fs::path> dirs;
    if (const QString d = qEnvironmentVariable("STACKPILOT_TEST_DEBS"); !d.isEmpty())
        dirs.push_back(toPath(d));
    dirs.push_back("/var/cache/stackpilot-test-debs");
    dirs.push_back("/var/cache/apt/archives");
    for (const auto& d : dirs) {
        std::error_code ec;
        for (const auto& e : fs::directory_iterator(d, ec))
            if (e.path().filename().string().rfind("rocminfo_", 0) == 0 &&
                e.path().extension() == ".deb")
                return e.path();
    }
    return {};
}

// The workload and profile around the installed runtime.
void writeLaunchCatalog(const fs::path& dir)
{
    const nlohmann::json doc = {
        {"schema_version", 1},
        {"workloads",
         {{{"id", "rocminfo"},
           {"name", "rocminfo"},
           {"command", {"{runtime:rocminfo-deb}/usr/bin/rocminfo"}},
           {"references", {"https://packages.debian.org/bookworm/rocminfo"}}}}},
        {"profiles",
         {{{"id", "rocminfo-debian"},
           {"workload", "rocminfo"},
           {"status", "tested"},
           {"runtimes", {"rocminfo-deb"}},
           {"match", {{"os", {"linux"}}}},
           {"references", {"https://packages.debian.org/bookworm/rocminfo"}}}}},
        // A remedy that reinstalls the runtime, as for ZLUDA files an antivirus removed.
        {"known_issues",
         {{{"id", "rocminfo-files-damaged"},
           {"title", "rocminfo's files were changed after install"},
           {"applies", {{"workloads", {"rocminfo"}}}},
           {"signatures", {"stackpilot test: never printed"}},
           {"remedy",
            {{"action", "repair_runtime"},
             {"runtime", "rocminfo-deb"},
             {"text", "Reinstall rocminfo from its pinned package."}}},
           {"references", {"https://packages.debian.org/bookworm/rocminfo"}}}}}};
    std::ofstream(dir / "rocminfo-launch.json") << doc.dump(2);
}

} // namespace

class TestLaunchRocminfo : public QObject
{
    Q_OBJECT

    HttpTestServer m_server;

private slots:
    void debianRocminfoInstalledLaunchedAndClassified()
    {
        const fs::path deb = findRocminfoDeb();
        if (deb.empty())
            QSKIP("no rocminfo_*.deb found (.ci/install-deps runs `apt-get download rocminfo`)");
        if (fs::exists("/dev/kfd"))
            QSKIP("this machine has /dev/kfd: rocminfo would see a GPU");
        std::ifstream f(deb, std::ios::binary);
        const std::string bytes{std::istreambuf_iterator<char>(f), {}};
        m_server.addBlob("/debian/" + deb.filename().string(), bytes);
        QVERIFY2(m_server.start(), m_server.error().c_str());
        QTemporaryDir tmp;
        const fs::path base = toPath(tmp.path()), catalog = base / "catalog";
        writeCatalog(catalog,
                     {runtimeWith("rocminfo-deb",
                                  {artifactFor(m_server.url("/debian/" + deb.filename().string()),
                                               bytes, "deb")})});
        writeLaunchCatalog(catalog);
        HardwareSnapshot snap;
        snap.os.family = "linux";
        snap.home.path = "/home/u";
        snap.home.filesystem = "ext4";
        std::ofstream(base / "snapshot.json") << toJson(snap).dump();

        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("STACKPILOT_HOME"), qpath(base / "home"));
        env.insert(QStringLiteral("STACKPILOT_RUN"),
                   QStringLiteral(STACKPILOT_BINARY_DIR "/bin/stackpilot-run"));
        auto cli = [&](const QStringList& args) {
            QProcess p;
            p.setProcessEnvironment(env);
            p.start(cliPath(), args);
            p.waitForFinished(120000);
            return std::tuple{p.exitCode(), p.readAllStandardOutput().toStdString(),
                              p.readAllStandardError().toStdString()};
        };
        const QStringList common = {QStringLiteral("--catalog-dir"), qpath(catalog)};
        auto [rc, out, err] =
            cli(QStringList{QStringLiteral("install"), QStringLiteral("rocminfo-deb")} + common);
        QVERIFY2(rc == 0, err.c_str());
        std::tie(rc, out, err) =
            cli(QStringList{QStringLiteral("launch"), QStringLiteral("rocminfo-debian"),
                            QStringLiteral("--json"), QStringLiteral("--hardware"),
                            qpath(base / "snapshot.json")} +
                common);
        QCOMPARE(rc, 1); // rocminfo fails without a GPU, and launch says so
        std::vector<nlohmann::json> events;
        for (std::size_t start = 0, nl; (nl = out.find('\n', start)) != std::string::npos;
             start = nl + 1)
            events.push_back(nlohmann::json::parse(out.substr(start, nl - start)));
        const auto of = [&](const std::string& kind) {
            std::vector<nlohmann::json> r;
            for (const auto& e : events)
                if (e.value("event", "") == kind)
                    r.push_back(e);
            return r;
        };
        const auto issues = of("known_issue");
        QVERIFY2(issues.size() == 1, out.c_str());
        QCOMPARE(issues[0].value("known_issue", ""), std::string("no-gpu-visible"));
        QVERIFY(issues[0].value("excerpt", "").find("ROCk module is NOT loaded") !=
                std::string::npos);
        const auto exits = of("exit");
        QCOMPARE(exits.size(), std::size_t{1});
        qInfo("rocminfo: %s", exits[0].dump().c_str());
        QCOMPARE(exits[0].value("code", 0), 1);
        QVERIFY(exits[0].value("text", "").find("exited with code 1") != std::string::npos);
        // The line event keeps rocminfo's colours for a console; the match did not need them.
        bool coloured = false;
        for (const auto& e : of("line"))
            coloured = coloured || e.value("text", "").find("\x1b[31m") != std::string::npos;
        QVERIFY(coloured);

        // remedy apply repair_runtime, a damaged install, then launch: the launch
        // reinstalls it first, runs it, and the remedy is done.
        const fs::path exe =
            base / "home" / "data" / "runtimes" / "rocminfo-deb" / "usr" / "bin" / "rocminfo";
        QVERIFY(fs::exists(exe));
        std::tie(rc, out, err) =
            cli(QStringList{QStringLiteral("remedy"), QStringLiteral("apply"),
                            QStringLiteral("rocminfo-files-damaged"), QStringLiteral("--hardware"),
                            qpath(base / "snapshot.json")} +
                common);
        QVERIFY2(rc == 0, err.c_str());
        fs::remove(exe);
        std::tie(rc, out, err) =
            cli(QStringList{QStringLiteral("launch"), QStringLiteral("rocminfo-debian"),
                            QStringLiteral("--json"), QStringLiteral("--hardware"),
                            qpath(base / "snapshot.json")} +
                common);
        QCOMPARE(rc, 1);
        QVERIFY2(fs::exists(exe), err.c_str());
        QVERIFY2(out.find("\"known_issue\":\"no-gpu-visible\"") != std::string::npos, out.c_str());
        QVERIFY(fs::exists(base / "home" / "config" / "settings.json"));
        std::ifstream settingsFile(base / "home" / "config" / "settings.json");
        const std::string settings{std::istreambuf_iterator<char>(settingsFile), {}};
        QVERIFY2(settings.find("rocminfo-files-damaged") == std::string::npos, settings.c_str());
    }
};

QTEST_GUILESS_MAIN(TestLaunchRocminfo)
#include "test_launch_rocminfo.moc"
