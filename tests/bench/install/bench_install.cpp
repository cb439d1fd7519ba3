// Benchmark: (a) stackpilot-cli install of a 256 MiB tar.gz over loopback,
// (b) curl -o f && sha256sum f && bsdtar -xf f, (c) bsdtar -xf on the local file;
// ratios a/b and a/c, peak RSS of the install for 256 MiB and 64 MiB artifacts
// (wait4's ru_maxrss of exactly that child), and the bytes a resumed download
// transfers. Targets: a/b <= 0.8, a/c <= 1.15, RSS <= 64 MiB; reported, not asserted.

#include "archive_builder.h"
#include "http_test_server.h"
#include "install_fixture.h"
#include "installers/sha256.h"

#include <QTemporaryDir>
#include <QTest>
#include <archive.h>
#include <archive_entry.h>
#include <chrono>
#include <cstdlib>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace sp;
using namespace sp::test;

namespace {

// Mixed text-like and random content, written entry by entry so the generator's
// memory stays small; about 60% of its bytes are incompressible, which makes
// gzip do real work as in a real runtime archive.
bool generate(const fs::path& out, std::uint64_t targetCompressed)
{
    if (fs::exists(out) && fs::file_size(out) >= targetCompressed)
        return true;
    const fs::path tmp = out.string() + ".tmp";
    archive* a = archive_write_new();
    archive_write_set_format_pax_restricted(a);
    archive_write_add_filter_gzip(a);
    if (archive_write_open_filename(a, tmp.c_str()) != ARCHIVE_OK)
        return false;
    const std::size_t fileSize = 4 << 20;
    for (int i = 0; fs::exists(tmp) && fs::file_size(tmp) < targetCompressed; ++i) {
        const std::string data = mixedBytes(fileSize - i % 4096, 1000 + i);
        archive_entry* e = archive_entry_new();
        const std::string name = "bench/lib/part" + std::to_string(i) + ".bin";
        archive_entry_set_pathname(e, name.c_str());
        archive_entry_set_filetype(e, AE_IFREG);
        archive_entry_set_perm(e, 0644);
        archive_entry_set_size(e, static_cast<la_int64_t>(data.size()));
        archive_write_header(a, e);
        archive_write_data(a, data.data(), data.size());
        archive_entry_free(e);
    }
    archive_write_close(a);
    archive_write_free(a);
    fs::rename(tmp, out);
    return true;
}

struct Measured
{
    int status = -1;
    double seconds = 0;
    long maxRssKiB = 0;
    double cpuSeconds = 0; // user + system: what the work costs, whatever the load
};

// fork + exec + wait4: the rusage of exactly this child (and its own children are
// not included unless it waited for them, as sh does).
Measured runMeasured(const std::vector<std::string>& argv, const std::vector<std::string>& env = {})
{
    Measured m;
    const auto t0 = std::chrono::steady_clock::now();
    const pid_t pid = fork();
    if (pid == 0) {
        for (const auto& kv : env)
            putenv(const_cast<char*>(kv.c_str()));
        std::vector<char*> args;
        for (const auto& s : argv)
            args.push_back(const_cast<char*>(s.c_str()));
        args.push_back(nullptr);
        execvp(args[0], args.data());
        _exit(127);
    }
    int status = 0;
    rusage ru{};
    wait4(pid, &status, 0, &ru);
    m.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    m.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    m.maxRssKiB = ru.ru_maxrss;
    m.cpuSeconds = double(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
                   double(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
    return m;
}

std::string fileSha(const fs::path& p)
{
    auto r = Sha256::ofFile(p);
    return r ? *r : std::string();
}

} // namespace

class BenchInstall : public QObject
{
    Q_OBJECT

private slots:
    void installVersusCurlAndBsdtar()
    {
        for (const char* tool : {"curl", "sha256sum", "bsdtar"})
            if (std::system((std::string("command -v ") + tool + " >/dev/null").c_str()) != 0)
                QSKIP("curl, sha256sum and bsdtar are needed (.ci/install-deps installs them)");
        const fs::path data = STACKPILOT_TEST_BINARY_DIR;
        const fs::path big = data / "bench-256m.tar.gz";
        const fs::path small = data / "bench-64m.tar.gz";
        QVERIFY(generate(big, std::uint64_t(256) << 20));
        QVERIFY(generate(small, std::uint64_t(64) << 20));

        HttpTestServer server;
        server.addFile("/big.tar.gz", big);
        server.addFile("/small.tar.gz", small);
        QVERIFY(server.start());

        QTemporaryDir tmp;
        const fs::path base = toPath(tmp.path());
        const std::string bigSha = fileSha(big), smallSha = fileSha(small);
        // Named fields, not positional: Artifact grows (commit, tag for git sources).
        auto tarball = [](const std::string& url, const std::string& sha, std::uint64_t size) {
            Artifact a;
            a.url = url;
            a.sha256 = sha;
            a.size = size;
            a.format = "tar.gz";
            return a;
        };
        const Artifact ab = tarball(server.url("/big.tar.gz"), bigSha, fs::file_size(big));
        const Artifact as = tarball(server.url("/small.tar.gz"), smallSha, fs::file_size(small));
        writeCatalog(base / "catalog",
                     {runtimeWith("bench-big", {ab}), runtimeWith("bench-small", {as})});

        const std::string cli = STACKPILOT_BINARY_DIR "/bin/stackpilot-cli";
        auto install = [&](const std::string& id, const std::string& home) {
            return runMeasured({cli, "install", id, "--prefix-root",
                                (base / home / "prefix").string(), "--catalog-dir",
                                (base / "catalog").string()},
                               {"STACKPILOT_HOME=" + (base / home).string()});
        };

        // (c) bsdtar alone on the local file
        fs::create_directories(base / "c");
        const Measured c =
            runMeasured({"bsdtar", "-xf", big.string(), "-C", (base / "c").string()});
        QCOMPARE(c.status, 0);
        // (b) curl + sha256sum + bsdtar
        fs::create_directories(base / "b");
        const std::string bcmd =
            "curl -s -o '" + (base / "b.tar.gz").string() + "' '" + server.url("/big.tar.gz") +
            "' && sha256sum '" + (base / "b.tar.gz").string() + "' >/dev/null && bsdtar -xf '" +
            (base / "b.tar.gz").string() + "' -C '" + (base / "b").string() + "'";
        const Measured b = runMeasured({"sh", "-c", bcmd});
        QCOMPARE(b.status, 0);
        // (a) StackPilot, fresh cache
        server.resetStats();
        const Measured a = install("bench-big", "home-a");
        QCOMPARE(a.status, 0);
        QCOMPARE(server.stats("/big.tar.gz").bodyBytes, std::uint64_t(fs::file_size(big)));
        QVERIFY(fs::exists(base / "home-a/prefix/bench-big/bench/lib/part0.bin"));
        const Measured aSmall = install("bench-small", "home-s");
        QCOMPARE(aSmall.status, 0);

        // Resume: the connection drops halfway; the retry asks for the rest only.
        const std::uint64_t smallSize = fs::file_size(small);
        server.resetStats();
        server.setFault("/small.tar.gz", Fault::dropAfter(smallSize / 2));
        const Measured r = install("bench-small", "home-r");
        server.clearFaults();
        QCOMPARE(r.status, 0);
        const auto st = server.stats("/small.tar.gz");

        const double mib = double(fs::file_size(big)) / (1 << 20);
        qInfo("artifact: %.1f MiB tar.gz (%s)", mib, big.filename().c_str());
        qInfo("(a) stackpilot-cli install        %7.2f s  %6.1f MiB/s  cpu %5.2f s  peak RSS %.1f "
              "MiB",
              a.seconds, mib / a.seconds, a.cpuSeconds, a.maxRssKiB / 1024.0);
        qInfo("(b) curl && sha256sum && bsdtar   %7.2f s  %6.1f MiB/s  cpu %5.2f s", b.seconds,
              mib / b.seconds, b.cpuSeconds);
        qInfo("(c) bsdtar -xf local file         %7.2f s  %6.1f MiB/s  cpu %5.2f s", c.seconds,
              mib / c.seconds, c.cpuSeconds);
        double load[3] = {0, 0, 0};
        if (getloadavg(load, 3) > 0)
            qInfo("machine load average while measuring: %.1f (%ld cores)", load[0],
                  sysconf(_SC_NPROCESSORS_ONLN));
        qInfo("ratio a/b = %.2f (target <= 0.80)   ratio a/c = %.2f (target <= 1.15)",
              a.seconds / b.seconds, a.seconds / c.seconds);
        qInfo(
            "peak RSS: %.1f MiB for 256 MiB, %.1f MiB for 64 MiB (target <= 64 MiB, flat in size)",
            a.maxRssKiB / 1024.0, aSmall.maxRssKiB / 1024.0);
        qInfo("resume after a drop at %llu of %llu bytes: %d requests, %llu body bytes sent in all "
              "(%.2f x the artifact)",
              (unsigned long long)(smallSize / 2), (unsigned long long)smallSize, st.requests,
              (unsigned long long)st.bodyBytes, double(st.bodyBytes) / double(smallSize));
        QVERIFY(st.bodyBytes <= smallSize + (1 << 20));
    }
};

QTEST_GUILESS_MAIN(BenchInstall)
#include "bench_install.moc"
