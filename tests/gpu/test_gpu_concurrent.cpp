// Issue 31: two workloads at once, each on its own GPU of the recorded RTX 4090 + RTX 3060
// PC, each on its own port with its own launch lock. Real processes: two `stackpilot-cli
// launch --gpu` runs of stand-in workloads (python3 serving HTTP) that print which CUDA
// device they were given. Stopping one (Ctrl-C to its CLI) ends its tree and leaves the
// other serving.

#include "tests/support/cli_runner.h"
#include "tests/support/loopback.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <csignal>
#include <fstream>
#include <nlohmann/json.hpp>
#include <unistd.h>

using nlohmann::json;
using sp::test::acceptsConnections;

namespace {

const std::string kPcs = GPU_PCS_DIR;

const char* const kStandIn = R"PY(import http.server, os, socketserver, sys
port = int(sys.argv[1])
print("stand-in sees CUDA_VISIBLE_DEVICES=%s CUDA_DEVICE_ORDER=%s" % (
    os.environ.get("CUDA_VISIBLE_DEVICES"), os.environ.get("CUDA_DEVICE_ORDER")), flush=True)
socketserver.TCPServer.allow_reuse_address = True
with socketserver.TCPServer(("127.0.0.1", port), http.server.SimpleHTTPRequestHandler) as s:
    print("Serving on http://127.0.0.1:%d/" % port, flush=True)
    s.serve_forever()
)PY";

json fixtureCatalog(const std::string& script, int portA, int portB)
{
    const json cuda = {{"variable", "CUDA_VISIBLE_DEVICES"},
                       {"api", "cuda"},
                       {"with", {{"CUDA_DEVICE_ORDER", "PCI_BUS_ID"}}},
                       {"why", "CUDA exposes only the listed devices "
                               "(https://docs.nvidia.com/cuda/cuda-programming-guide/05-appendices/"
                               "environment-variables.html)"}};
    json doc = {{"schema_version", 1},
                {"runtimes",
                 {{{"id", "standin-cuda"},
                   {"kind", "cuda-driver"},
                   {"version", "13.0"},
                   {"system", true},
                   {"os", {"linux"}},
                   {"visible_devices", {cuda}},
                   {"references", {"https://docs.nvidia.com/cuda/"}}}}},
                {"workloads", json::array()},
                {"profiles", json::array()}};
    for (const auto& [w, port] : {std::pair{"standin-a", portA}, std::pair{"standin-b", portB}}) {
        doc["workloads"].push_back({{"id", w},
                                    {"name", w},
                                    {"command", {"python3", script, std::to_string(port)}},
                                    {"url_regex", "Serving on *(\\S+)"},
                                    {"default_port", port},
                                    {"references", {"https://example.org/standin"}}});
        doc["profiles"].push_back({{"id", std::string(w) + "-cuda"},
                                   {"workload", w},
                                   {"status", "community"},
                                   {"match", {{"os", {"linux"}}, {"vendor", "nvidia"}}},
                                   {"runtimes", {"standin-cuda"}},
                                   {"references", {"https://example.org/standin"}}});
    }
    return doc;
}

} // namespace

class TestGpuConcurrent : public QObject
{
    Q_OBJECT
private slots:
    void twoWorkloadsOnTwoGpusAndStopOne()
    {
        QTemporaryDir dir;
        const std::string d = dir.path().toStdString();
        qputenv("STACKPILOT_HOME", dir.path().toUtf8() + "/home");
        std::ofstream(d + "/standin.py") << kStandIn;
        const int portA = sp::test::freePort(), portB = sp::test::freePort();
        std::filesystem::create_directories(d + "/catalog");
        std::ofstream(d + "/catalog/fixture-two.json")
            << fixtureCatalog(d + "/standin.py", portA, portB).dump(1);
        const std::string pc = kPcs + "/rtx4090-rtx3060/";
        const auto imported =
            sp::test::runCliBinary({QStringLiteral("snapshot"), QStringLiteral("import"),
                                    QString::fromStdString(pc + "nvidia-smi.txt"),
                                    QString::fromStdString(pc + "lspci.txt"),
                                    QStringLiteral("--os"), QStringLiteral("linux"),
                                    QStringLiteral("-o"), QString::fromStdString(d + "/pc.json")});
        QVERIFY2(imported.rc == 0, imported.err.c_str());

        QProcess a, b;
        for (auto [p, profile, gpu] : {std::tuple{&a, "standin-a-cuda", "RTX 4090"},
                                       std::tuple{&b, "standin-b-cuda", "RTX 3060"}}) {
            p->setProcessChannelMode(QProcess::MergedChannels);
            p->start(QStringLiteral(STACKPILOT_BINARY_DIR "/bin/stackpilot-cli"),
                     {QStringLiteral("launch"), QString::fromLatin1(profile),
                      QStringLiteral("--hardware"), QString::fromStdString(d + "/pc.json"),
                      QStringLiteral("--gpu"), QString::fromLatin1(gpu),
                      QStringLiteral("--catalog-dir"), QString::fromStdString(d + "/catalog")});
            QVERIFY(p->waitForStarted());
        }
        // The CLI relays the workload's lines as they come: wait for both, and both ports.
        QByteArray outA, outB;
        QVERIFY(QTest::qWaitFor(
            [&] {
                outA += a.readAll();
                outB += b.readAll();
                return outA.contains("Serving on") && outB.contains("Serving on") &&
                       acceptsConnections(portA) && acceptsConnections(portB);
            },
            30000));
        // Each sees only its own card, by CUDA's PCI-bus number (3060 at 01:00.0 is 0).
        QVERIFY2(outA.contains("CUDA_VISIBLE_DEVICES=1 CUDA_DEVICE_ORDER=PCI_BUS_ID"),
                 outA.constData());
        QVERIFY2(outB.contains("CUDA_VISIBLE_DEVICES=0 CUDA_DEVICE_ORDER=PCI_BUS_ID"),
                 outB.constData());

        ::kill(pid_t(a.processId()), SIGINT); // Stop, as Ctrl-C in a terminal
        QVERIFY(a.waitForFinished(20000));
        QVERIFY(QTest::qWaitFor([&] { return !acceptsConnections(portA); }, 10000));
        QVERIFY(acceptsConnections(portB)); // the other workload runs on
        QCOMPARE(b.state(), QProcess::Running);
        QVERIFY2(!outA.contains("already runs on"), outA.constData());

        // A again, on B's card: allowed, and the CLI says what both need of it.
        a.start(QStringLiteral(STACKPILOT_BINARY_DIR "/bin/stackpilot-cli"),
                {QStringLiteral("launch"), QStringLiteral("standin-a-cuda"),
                 QStringLiteral("--hardware"), QString::fromStdString(d + "/pc.json"),
                 QStringLiteral("--gpu"), QStringLiteral("RTX 3060"),
                 QStringLiteral("--catalog-dir"), QString::fromStdString(d + "/catalog")});
        QByteArray again;
        QVERIFY(QTest::qWaitFor(
            [&] {
                again += a.readAll();
                return again.contains("Serving on") && acceptsConnections(portA);
            },
            30000));
        QVERIFY2(again.contains("standin-b already runs on NVIDIA GeForce RTX 3060 (12.0 GiB of "
                                "memory). Both share it"),
                 again.constData());
        QVERIFY2(again.contains("CUDA_VISIBLE_DEVICES=0"), again.constData());
        ::kill(pid_t(a.processId()), SIGINT);
        QVERIFY(a.waitForFinished(20000));
        QVERIFY(QTest::qWaitFor([&] { return !acceptsConnections(portA); }, 10000));
        ::kill(pid_t(b.processId()), SIGINT);
        QVERIFY(b.waitForFinished(20000));
        QVERIFY(QTest::qWaitFor([&] { return !acceptsConnections(portB); }, 10000));
    }
};

QTEST_GUILESS_MAIN(TestGpuConcurrent)
#include "test_gpu_concurrent.moc"
