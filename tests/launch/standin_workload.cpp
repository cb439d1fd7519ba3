// A stand-in for a UI workload, built by the tests: it behaves like the real ones in
// the ways that matter to a launcher, with real processes.
//
//   standin_workload [--env-out FILE] [--pids-out FILE] [--quote FILE:LINE]
//                    [--cache-var NAME] [--mode crash|exit-early|serve] [--child-ms N]
//                    [--lines N] [--chatty N]
//
// It writes its environment (NAME=VALUE, NUL-separated) to --env-out; prints a URL on
// 0.0.0.0 like Gradio does; prints line LINE of FILE (a real failure line from a
// public report, kept in tests/logmatch/logs) to stderr; writes a file into the folder
// named by the --cache-var variable; starts two children, the second of which leaves
// the session with setsid(), and writes all three PIDs to --pids-out. Then:
//   crash       dies by SIGSEGV (the children live on for --child-ms);
//   exit-early  exits with 3 while both children live on for --child-ms;
//   serve       sleeps until killed (the children too).
// --lines N instead prints N numbered lines as fast as it can and exits 0 (benchmark).
// --chatty N first prints N start-up lines with ANSI colours, as Python UIs log.
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <sys/resource.h>
#include <sys/types.h>
#include <unistd.h>

extern char** environ;

namespace {

struct Args
{
    std::string envOut, pidsOut, quote, cacheVar, mode = "serve";
    int childMs = 60000;
    long lines = -1;
    int chatty = 0;
};

Args parse(int argc, char** argv)
{
    Args a;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string k = argv[i], v = argv[i + 1];
        if (k == "--env-out")
            a.envOut = v;
        else if (k == "--pids-out")
            a.pidsOut = v;
        else if (k == "--quote")
            a.quote = v;
        else if (k == "--cache-var")
            a.cacheVar = v;
        else if (k == "--mode")
            a.mode = v;
        else if (k == "--child-ms")
            a.childMs = std::atoi(v.c_str());
        else if (k == "--lines")
            a.lines = std::atol(v.c_str());
        else if (k == "--chatty")
            a.chatty = std::atoi(v.c_str());
    }
    return a;
}

void writeEnvironment(const std::string& file)
{
    std::ofstream out(file, std::ios::binary);
    for (char** e = environ; *e; ++e)
        out << *e << '\0';
}

std::string quotedLine(const std::string& spec)
{
    const auto colon = spec.rfind(':');
    std::ifstream in(spec.substr(0, colon));
    const int want = std::atoi(spec.c_str() + colon + 1);
    std::string line;
    for (int n = 1; std::getline(in, line); ++n)
        if (n == want)
            return line;
    return "standin: no line " + std::to_string(want) + " in " + spec;
}

// A child that sleeps `ms` and exits 0; with `detach` it first leaves our session.
pid_t sleeper(int ms, bool detach)
{
    const pid_t pid = fork();
    if (pid != 0)
        return pid;
    if (detach)
        setsid();
    usleep(static_cast<useconds_t>(ms) * 1000);
    _exit(0);
}

// Start-up chatter in the colours Python loggers use (rich, colorama).
void chatter(int n)
{
    static const char* lines[] = {
        "\x1b[32mINFO\x1b[0m     Starting the stand-in UI",
        "\x1b[32mINFO\x1b[0m     Python 3.11.15 on Linux",
        "\x1b[36mDEBUG\x1b[0m    Torch allocator: garbage_collection_threshold:0.8",
        "\x1b[33mWARNING\x1b[0m  xformers is not installed; using the default attention",
        "\x1b[32mINFO\x1b[0m     Device: \x1b[1mAMD Radeon RX 7900 XTX\x1b[0m (gfx1100) 24.0 GiB",
        "\x1b[32mINFO\x1b[0m     Loading model: sd_xl_base_1.0.safetensors",
        "\x1b[31mERROR\x1b[0m    Extension sd-webui-controlnet failed to load: no module cv2",
        "\x1b[32mINFO\x1b[0m     Model loaded in 4.2 s"};
    for (int i = 0; i < n; ++i)
        std::printf("%s\n", lines[i % 8]);
}

int benchmark(long lines)
{
    // First line: when the workload started (CLOCK_REALTIME, ns), for the launch latency.
    const auto now = std::chrono::system_clock::now().time_since_epoch();
    std::printf(
        "started_ns %lld\n",
        static_cast<long long>(std::chrono::duration_cast<std::chrono::nanoseconds>(now).count()));
    for (long i = 1; i <= lines; ++i)
        std::printf("line %ld: step %ld of the benchmark, loss 0.%06ld\n", i, i, i % 1000000);
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    const Args a = parse(argc, argv);
    if (a.lines >= 0)
        return benchmark(a.lines);
    if (!a.envOut.empty())
        writeEnvironment(a.envOut);
    chatter(a.chatty);
    std::printf("Running on local URL:  http://0.0.0.0:7860\n");
    std::fflush(stdout);
    if (!a.quote.empty())
        std::fprintf(stderr, "%s\n", quotedLine(a.quote).c_str());
    if (const char* dir = a.cacheVar.empty() ? nullptr : std::getenv(a.cacheVar.c_str())) {
        std::string cmd = std::string("mkdir -p '") + dir + "'";
        if (std::system(cmd.c_str()) == 0)
            std::ofstream(std::string(dir) + "/standin-cache.txt") << "cached\n";
    }
    std::fflush(stdout);
    std::fflush(stderr);
    const pid_t first = sleeper(a.childMs, false);
    const pid_t detached = sleeper(a.mode == "serve" ? 600000 : a.childMs, true);
    if (!a.pidsOut.empty()) {
        std::ofstream tmp(a.pidsOut + ".tmp");
        tmp << getpid() << ' ' << first << ' ' << detached << '\n';
        tmp.close();
        std::rename((a.pidsOut + ".tmp").c_str(), a.pidsOut.c_str());
    }
    if (a.mode == "crash") {
        const rlimit noCore{0, 0}; // a test crash leaves no core file behind
        setrlimit(RLIMIT_CORE, &noCore);
        std::signal(SIGSEGV, SIG_DFL);
        std::raise(SIGSEGV);
    }
    if (a.mode == "exit-early")
        return 3;
    for (;;)
        pause();
}
