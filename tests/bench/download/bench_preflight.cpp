// The preflight of a profile's downloads (installers/preflight.h) against a loopback
// server: a profile with 6 artifacts, checked the way `run` checks it before any byte is
// written, against `curl -I` of the same 6 URLs in the same run. Target: under 1 s.

#include "http_test_server.h"
#include "installers/preflight.h"

#include <QProcess>
#include <QStringList>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

using namespace sp;
using Clock = std::chrono::steady_clock;

namespace {

double seconds(Clock::time_point since)
{
    return std::chrono::duration<double>(Clock::now() - since).count();
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

} // namespace

int main()
{
    test::HttpTestServer server;
    Runtime rt;
    rt.id = "six";
    QStringList curlArgs{QStringLiteral("-sS"), QStringLiteral("-I"), QStringLiteral("-o"),
                         QStringLiteral("/dev/null")};
    for (int i = 0; i < 6; ++i) {
        const std::string path = "/a" + std::to_string(i) + ".tar.gz";
        server.addBlob(path, std::string(1 << 20, char('a' + i)));
        Artifact a;
        a.sha256 = std::string(64, 'a');
        a.format = "tar.gz";
        rt.artifacts.push_back(a);
    }
    if (!server.start()) {
        std::fprintf(stderr, "bench_preflight: %s\n", server.error().c_str());
        return 1;
    }
    for (int i = 0; i < 6; ++i) {
        rt.artifacts[std::size_t(i)].url = server.url("/a" + std::to_string(i) + ".tar.gz");
        curlArgs << QString::fromStdString(rt.artifacts[std::size_t(i)].url);
    }
    std::vector<double> ours, curl;
    for (int run = 0; run < 15; ++run) {
        auto start = Clock::now();
        const Preflight p = preflight({&rt}, FetchOptions{});
        ours.push_back(seconds(start));
        if (p.firstMissing() || p.downloadBytes != 6u << 20) {
            std::fprintf(stderr, "bench_preflight: wrong answer\n");
            return 1;
        }
        start = Clock::now();
        QProcess::execute(QStringLiteral("curl"), curlArgs);
        curl.push_back(seconds(start));
    }
    const double a = median(ours), b = median(curl);
    std::printf("preflight of 6 loopback artifacts: %.4f s (median of 15; target < 1 s)\n", a);
    std::printf("curl -I of the same 6 URLs:        %.4f s\n", b);
    std::printf("ratio preflight / curl: %.2f; target < 1 s %s\n", b > 0 ? a / b : 0.0,
                a < 1.0 ? "met" : "NOT met");
    return 0;
}
