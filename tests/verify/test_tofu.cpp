// Trust on first use (installers/pin_store.h) through real installs over TLS: the first
// install of an artifact the catalog does not pin records its digest; the same URL
// serving other bytes later is refused with the user's words and nothing is installed;
// accepting the change installs it and records the new digest.

#include "archive_builder.h"
#include "http_test_server.h"
#include "installers/installer.h"
#include "installers/pin_store.h"
#include "installers/sha256.h"

#include <QTemporaryDir>
#include <QTest>
#include <fstream>

using namespace sp;
using sp::test::HttpTestServer;
namespace fs = std::filesystem;

class TestTofu : public QObject
{
    Q_OBJECT

    QTemporaryDir m_tmp;
    fs::path m_dir = fs::path(m_tmp.path().toStdString());
    HttpTestServer m_tls;

    Runtime runtime() const
    {
        Runtime rt;
        rt.id = "tofu-rt";
        rt.kind = "tool";
        rt.version = "1.0";
        Artifact a;
        a.url = m_tls.url("/tool.tar.gz"); // no sha256: the catalog does not pin it
        a.format = "tar.gz";
        a.stripComponents = 1;
        rt.artifacts = {a};
        return rt;
    }

    InstallOptions options(bool acceptChanged = false) const
    {
        InstallOptions o;
        o.prefixRoot = m_dir / "prefix";
        o.force = true; // reinstall: each install downloads again
        o.pinFile = m_dir / "pins.json";
        o.acceptChangedDownloads = acceptChanged;
        o.downloader.cacheDir = m_dir / "cache";
        o.downloader.caFile = m_dir / "cert.pem";
        return o;
    }

    static std::string archive(const std::string& body)
    {
        return sp::test::buildArchive({sp::test::TestEntry::file("tool/bin/tool", body)}, "tar.gz");
    }

private slots:
    void initTestCase()
    {
        QVERIFY(HttpTestServer::writeSelfSignedCertificate(m_dir / "cert.pem", m_dir / "key.pem",
                                                           "IP:127.0.0.1"));
        QVERIFY2(m_tls.enableTls(m_dir / "cert.pem", m_dir / "key.pem"), m_tls.error().c_str());
        m_tls.addBlob("/tool.tar.gz", archive("version one\n"));
        QVERIFY2(m_tls.start(), m_tls.error().c_str());
    }

    void theFirstDigestIsKeptAndAChangeIsRefused()
    {
        const std::string one = archive("version one\n");
        auto first = Installer(options()).install(runtime());
        QVERIFY2(first.ok(), first.ok() ? "" : first.error().message.c_str());
        const PinStore pins(m_dir / "pins.json");
        auto pin = pins.find(runtime().artifacts[0].url);
        QVERIFY(pin.ok() && pin->has_value());
        QCOMPARE((*pin)->sha256, Sha256::ofBytes(one.data(), one.size()));

        // The publisher swapped the file behind the same address.
        const std::string two = archive("version two, silently\n");
        m_tls.addBlob("/tool.tar.gz", two);
        auto second = Installer(options()).install(runtime());
        QVERIFY(!second.ok());
        QVERIFY2(second.error().message.find("the file at this address changed since it was "
                                             "first installed on this machine") !=
                     std::string::npos,
                 second.error().message.c_str());
        // Nothing of the new bytes was installed; the first install is still there.
        std::ifstream tool(m_dir / "prefix" / "tofu-rt" / "bin" / "tool");
        const std::string installed((std::istreambuf_iterator<char>(tool)), {});
        QCOMPARE(installed, std::string("version one\n"));

        // Accepting the change installs it and pins the new digest.
        auto accepted = Installer(options(true)).install(runtime());
        QVERIFY2(accepted.ok(), accepted.ok() ? "" : accepted.error().message.c_str());
        pin = pins.find(runtime().artifacts[0].url);
        QCOMPARE((*pin)->sha256, Sha256::ofBytes(two.data(), two.size()));
        QVERIFY(Installer(options()).install(runtime()).ok()); // and it is trusted from now on
    }
};

QTEST_GUILESS_MAIN(TestTofu)
#include "test_tofu.moc"
