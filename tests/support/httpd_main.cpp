// stackpilot-test-httpd: the test HTTP server as a process, for shell-driven tests
// and benchmarks.
//   stackpilot-test-httpd --root DIR --port-file FILE [--port N] [--fault PATH:KIND[:ARG...]]...
// Serves DIR's files by path on 127.0.0.1, writes the port to FILE once listening,
// and runs until SIGINT or SIGTERM. Fault kinds: see sp::test::Fault::parse.

#include "http_test_server.h"

#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

int main(int argc, char** argv)
{
    sp::test::HttpTestServer server;
    std::string portFile;
    std::string root;
    int port = 0;
    auto usage = [](const char* why) {
        std::fprintf(stderr,
                     "stackpilot-test-httpd: %s\nusage: stackpilot-test-httpd --root DIR "
                     "--port-file FILE [--port N] [--fault PATH:KIND[:ARG]]...\n",
                     why);
        return 2;
    };
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (i + 1 >= argc)
            return usage(("missing value for " + a).c_str());
        const std::string v = argv[++i];
        if (a == "--root") {
            root = v;
        } else if (a == "--port-file") {
            portFile = v;
        } else if (a == "--port") {
            port = std::atoi(v.c_str());
        } else if (a == "--fault") {
            const auto colon = v.find(':');
            const auto fault = colon == std::string::npos
                                   ? std::nullopt
                                   : sp::test::Fault::parse(v.substr(colon + 1));
            if (!fault)
                return usage(("bad --fault " + v).c_str());
            server.setFault(v.substr(0, colon), *fault);
        } else {
            return usage(("unknown option " + a).c_str());
        }
    }
    if (root.empty() || portFile.empty())
        return usage("--root and --port-file are required");
    server.serveDirectory(root);

    // Block the signals before any thread starts so only sigwait sees them.
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &set, nullptr);
    if (!server.start(static_cast<std::uint16_t>(port))) {
        std::fprintf(stderr, "stackpilot-test-httpd: %s\n", server.error().c_str());
        return 1;
    }
    // Written then renamed, so a script polling for the file never reads half a number.
    const std::string tmp = portFile + ".tmp";
    {
        std::ofstream out(tmp);
        out << server.port() << "\n";
    }
    std::filesystem::rename(tmp, portFile);
    int sig = 0;
    sigwait(&set, &sig);
    server.stop();
    return 0;
}
