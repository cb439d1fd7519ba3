// The loop of issue 34 on loopback: twenty StackPilot homes, each with its own install id,
// share a passing stand-in smoke test to a real nginx with WebDAV PUT; `ledger ingest` and
// `ledger propose` raise the stand-in profile to `tested`. Also: what is shown without
// --yes is what is sent, private text never leaves, and a ledger that is down costs nothing
// (the records wait, and the backoff defers the next try).

#include "app/common/ledger/share.h"
#include "tests/support/cli_runner.h"
#include "tests/support/loopback.h"

#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <fstream>
#include <set>
#include <unistd.h>

using namespace sp;
using namespace sp::ledger;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

// nginx with `dav_methods PUT` under /ledger/, in a temporary folder, on a free port.
class Nginx
{
public:
    explicit Nginx(const std::string& dir) : m_dir(dir), m_port(sp::test::freePort())
    {
        fs::create_directories(dir + "/www/ledger");
        fs::create_directories(dir + "/tmp");
        std::ofstream(dir + "/nginx.conf")
            << (::geteuid() == 0 ? "user root;\n" : "") << "daemon off;\npid " << dir
            << "/nginx.pid;\nerror_log " << dir << "/error.log;\nevents {}\nhttp {\n"
            << "  access_log off;\n  client_body_temp_path " << dir << "/tmp;\n"
            << "  server {\n    listen 127.0.0.1:" << m_port << ";\n"
            << "    location /ledger/ {\n      root " << dir << "/www;\n"
            << "      dav_methods PUT;\n      create_full_put_path on;\n    }\n  }\n}\n";
        const QString nginx = QStandardPaths::findExecutable(
            QStringLiteral("nginx"), {QStringLiteral("/usr/sbin"), QStringLiteral("/usr/bin")});
        if (nginx.isEmpty())
            return;
        m_process.start(nginx, {QStringLiteral("-c"), QString::fromStdString(dir + "/nginx.conf"),
                                QStringLiteral("-p"), QString::fromStdString(dir)});
        m_started = m_process.waitForStarted() &&
                    QTest::qWaitFor([&] { return fs::exists(dir + "/nginx.pid"); }, 10000);
    }
    ~Nginx()
    {
        m_process.terminate();
        m_process.waitForFinished(5000);
    }
    bool started() const { return m_started; }
    std::string url() const { return "http://127.0.0.1:" + std::to_string(m_port) + "/ledger"; }
    std::size_t stored() const
    {
        std::size_t n = 0;
        for (const auto& e : fs::directory_iterator(m_dir + "/www/ledger"))
            n += e.path().extension() == ".json" ? 1 : 0;
        return n;
    }
    std::string folder() const { return m_dir + "/www/ledger"; }

private:
    std::string m_dir;
    std::uint16_t m_port;
    QProcess m_process;
    bool m_started = false;
};

EvidenceRecord passing(const std::string& reason = {}, bool passed = true)
{
    EvidenceRecord e;
    e.kind = EvidenceKind::Verify;
    e.at = "2026-11-20T10:00:00Z";
    e.machine = {"1002:73df rev c0", "gfx1031", "6.8.5", "linux", "24.04"};
    e.workload = "standin";
    e.profile = "standin-rocm";
    e.catalog = "shipped";
    e.passed = passed;
    e.reason = reason;
    e.seconds = 1.5;
    return e;
}

void writeFixtureCatalog(const std::string& dir)
{
    fs::create_directories(dir);
    const json doc = {{"schema_version", 1},
                      {"workloads",
                       {{{"id", "standin"},
                         {"name", "Stand-in"},
                         {"command", {"true"}},
                         {"references", {"https://example.org/standin"}}}}},
                      {"profiles",
                       {{{"id", "standin-rocm"},
                         {"workload", "standin"},
                         {"status", "community"},
                         {"match", {{"os", {"linux"}}}},
                         {"references", {"https://example.org/standin"}}}}}};
    std::ofstream(dir + "/fixture-standin.json") << doc.dump(2) << "\n";
}

// `stackpilot-cli evidence share ...` as the real binary, in `home`.
sp::test::CliRun share(const std::string& home, const QStringList& extra)
{
    qputenv("STACKPILOT_HOME", QByteArray::fromStdString(home));
    QStringList args = {QStringLiteral("evidence"), QStringLiteral("share"),
                        QStringLiteral("--no-probes"), QStringLiteral("--sysfs-root"),
                        QString::fromStdString(home + "/no-sys")};
    return sp::test::runCliBinary(args + extra);
}

} // namespace

class TestShare : public QObject
{
    Q_OBJECT
private slots:
    void twentyHomesShareAndTheProfileBecomesTested()
    {
        QTemporaryDir dir;
        const std::string d = dir.path().toStdString();
        Nginx nginx(d + "/nginx");
        if (!nginx.started())
            QSKIP("no nginx (Debian's nginx-core; .ci/install-deps has it)");
        std::set<std::string> installs;
        for (int i = 0; i < 20; ++i) {
            const std::string home = d + "/home" + std::to_string(i);
            qputenv("STACKPILOT_HOME", QByteArray::fromStdString(home));
            QVERIFY(EvidenceStore().add(passing()).ok());
            const auto shown = share(home, {});
            QVERIFY2(shown.rc == 0, (shown.out + shown.err).c_str());
            QCOMPARE(nginx.stored(), std::size_t(i)); // shown, not sent
            const auto sent = share(home, {QStringLiteral("--yes"), QStringLiteral("--ledger"),
                                           QString::fromStdString(nginx.url())});
            QVERIFY2(sent.rc == 0 && sent.out.find("1 sent") != std::string::npos,
                     (sent.out + sent.err).c_str());
            std::ifstream idFile(home + "/config/install-id.json");
            installs.insert(json::parse(idFile)["id"].get<std::string>());
            // Shared once: a second --yes sends nothing new.
            const auto again = share(home, {QStringLiteral("--yes"), QStringLiteral("--ledger"),
                                            QString::fromStdString(nginx.url())});
            QVERIFY2(again.out.find("0 record(s) queued") != std::string::npos, again.out.c_str());
        }
        QCOMPARE(installs.size(), std::size_t(20));
        QCOMPARE(nginx.stored(), std::size_t(20));

        writeFixtureCatalog(d + "/catalog");
        const QString db = QString::fromStdString(d + "/ledger.db");
        const QString catalog = QString::fromStdString(d + "/catalog");
        const auto in =
            sp::test::runCliBinary({QStringLiteral("ledger"), QStringLiteral("ingest"),
                                    QString::fromStdString(nginx.folder()), QStringLiteral("--db"),
                                    db, QStringLiteral("--catalog-dir"), catalog});
        QVERIFY2(in.rc == 0 && in.out.find("20 added") != std::string::npos,
                 (in.out + in.err).c_str());
        const auto proposed = sp::test::runCliBinary(
            {QStringLiteral("ledger"), QStringLiteral("propose"), QStringLiteral("--db"), db,
             QStringLiteral("--catalog-dir"), catalog, QStringLiteral("-o"),
             QString::fromStdString(d + "/proposed"), QStringLiteral("--now"),
             QStringLiteral("2026-11-28")});
        QVERIFY2(proposed.rc == 0, (proposed.out + proposed.err).c_str());
        QVERIFY2(proposed.out.find("standin-rocm: community -> tested (20 installs passed") !=
                     std::string::npos,
                 proposed.out.c_str());
    }

    void privateTextNeverLeaves()
    {
        const auto line = shareableLine(
            R"(OSError: [WinError 126] C:\Users\Zorbulon\sd\torch\lib\c10_hip.dll; token hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123 from https://bob.example.org/x)");
        QVERIFY2(line.find("Zorbulon") == std::string::npos &&
                     line.find("hf_AbCd") == std::string::npos &&
                     line.find("example.org") == std::string::npos && !line.empty(),
                 line.c_str());
        QVERIFY2(line.find("WinError 126") != std::string::npos, line.c_str());
        auto r = shareable(
            passing("loading /home/zorbulon/models/llama-3.2-3b.Q4_K_M.gguf failed", false),
            randomHex32(), 12288);
        QVERIFY(r.ok());
        QVERIFY2(r->decisiveLine.find("zorbulon") == std::string::npos &&
                     r->decisiveLine.find("gguf") == std::string::npos,
                 r->decisiveLine.c_str());
        QCOMPARE(r->vramClassGib, 12);
        QCOMPARE(r->pciId, std::string("1002:73df"));
        QCOMPARE(r->revision, std::string("c0"));
    }

    void aLedgerThatIsDownCostsNothing()
    {
        QTemporaryDir dir;
        const fs::path queue = dir.path().toStdString() + "/queue";
        auto r = shareable(passing(), randomHex32(), 0);
        QVERIFY(r.ok());
        QVERIFY(enqueue(queue, *r).ok());
        const std::string closed =
            "http://127.0.0.1:" + std::to_string(sp::test::freePort()) + "/ledger";
        const auto now = std::chrono::system_clock::now();
        const auto first = sendQueue(queue, closed, now, false);
        QCOMPARE(first.sent, std::size_t(0));
        QCOMPARE(first.waiting, std::size_t(1));
        QCOMPARE(first.errors.size(), std::size_t(1));
        // Within the backoff nothing is tried; after it, it is.
        QVERIFY(sendQueue(queue, closed, now + std::chrono::seconds(30), false).deferred);
        QVERIFY(!sendQueue(queue, closed, now + std::chrono::seconds(61), false).deferred);
        QVERIFY(fs::exists(queue / (r->recordId + ".json"))); // still there
        QVERIFY(!sendableUrl("http://ledger.example.org/x"));
        QVERIFY(sendableUrl("https://ledger.example.org/x"));
        QVERIFY(sendableUrl("http://127.0.0.1:8080/ledger"));
    }

    void theInstallIdIsRotatedYearly()
    {
        QTemporaryDir dir;
        const fs::path file = dir.path().toStdString() + "/install-id.json";
        auto a = installId(file, 2026);
        auto b = installId(file, 2026);
        auto c = installId(file, 2027);
        QVERIFY(a.ok() && b.ok() && c.ok());
        QCOMPARE(*a, *b);
        QVERIFY(*c != *a);
    }
};

QTEST_GUILESS_MAIN(TestShare)
#include "test_share.moc"
