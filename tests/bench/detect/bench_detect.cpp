// How much `detect --no-probes` costs over bare process start (`--version`).
// Runs are interleaved so that load on the machine hits both alike; medians are
// printed with their ratio (target: at most 1.5x). A second pair runs detect on a
// fake sysfs tree holding an AMD card, which adds the PCI table parse.
#include "detectors/fake_sysfs.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#ifdef __unix__
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
extern char** environ;
#else
#include <QProcess>
#endif

namespace {

const char* kCli = STACKPILOT_BINARY_DIR "/bin/stackpilot-cli";

// Wall time of one run in milliseconds, or -1 if it did not exit 0. posix_spawn
// keeps the harness's own cost out of the figure as far as possible.
double timeRun(const std::vector<std::string>& args)
{
    QElapsedTimer t;
#ifdef __unix__
    std::vector<char*> argv;
    argv.push_back(const_cast<char*>(kCli));
    for (const auto& a : args)
        argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    t.start();
    pid_t pid = 0;
    const int rc = posix_spawn(&pid, kCli, &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0)
        return -1;
    int status = 0;
    waitpid(pid, &status, 0);
    const double ms = double(t.nsecsElapsed()) / 1e6;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? ms : -1;
#else
    QStringList qargs;
    for (const auto& a : args)
        qargs << QString::fromStdString(a);
    QProcess p;
    t.start();
    p.start(QString::fromUtf8(kCli), qargs);
    p.waitForFinished(30000);
    const double ms = double(t.nsecsElapsed()) / 1e6;
    return p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0 ? ms : -1;
#endif
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    const int runs = argc > 1 ? std::max(5, std::atoi(argv[1])) : 60;

    QTemporaryDir tmp;
    sp::test::FakeSysfs fs(std::filesystem::path(tmp.path().toStdString()) / "sys");
    sp::test::FakeSysfs::Card card;
    card.vramBytes = std::to_string(12ull << 30);
    card.gttBytes = std::to_string(16ull << 30);
    fs.addCard(card);
    fs.addCpuNode(0);
    fs.addGpuNode(1, 100301, 0x73df, 0x300, 80);

    const std::vector<std::vector<std::string>> commands = {
        {"--version"},
        {"detect", "--no-probes"},
        {"detect", "--no-probes", "--json", "--sysfs-root", fs.root().string()},
    };
    std::vector<std::vector<double>> times(commands.size());
    for (auto& c : commands) // warm the page cache once
        timeRun(c);
    for (int i = 0; i < runs; ++i) {
        for (std::size_t c = 0; c < commands.size(); ++c) {
            const double ms = timeRun(commands[c]);
            if (ms < 0) {
                std::fprintf(stderr, "bench_detect: run %zu of command %zu failed\n",
                             std::size_t(i), c);
                return 1;
            }
            times[c].push_back(ms);
        }
    }
    const double base = median(times[0]);
    const double detect = median(times[1]);
    const double amd = median(times[2]);
    std::printf("runs per command: %d (interleaved)\n", runs);
    std::printf("stackpilot-cli --version                          median %7.2f ms\n", base);
    std::printf("stackpilot-cli detect --no-probes                 median %7.2f ms  ratio %.2fx "
                "(target <= 1.5x)\n",
                detect, detect / base);
    std::printf("stackpilot-cli detect --no-probes (fake AMD sysfs) median %7.2f ms  ratio %.2fx\n",
                amd, amd / base);
    return 0;
}
