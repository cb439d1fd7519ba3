// The manifest parser's limits and one-line errors, and minisign verification against
// signatures made by the real minisign tool.

#include "core/catalog/feed/manifest.h"
#include "core/catalog/feed/minisign.h"
#include "core/catalog/feed/update.h"
#include "feed_fixture.h"

#include <QtTest>

using namespace sp;
using namespace sp::test;

namespace {

const std::string kSha(64, 'a');

std::string manifestText(const std::string& filesJson = "")
{
    return "{\"feed\":\"stackpilot\",\"version\":7,\"published\":\"2026-11-20T10:00:00Z\","
           "\"expires\":\"2027-01-01T00:00:00Z\",\"min_stackpilot\":\"0.1.0\",\"files\":" +
           (filesJson.empty()
                ? "[{\"path\":\"runtimes.json\",\"size\":12,\"sha256\":\"" + kSha + "\"}]"
                : filesJson) +
           "}";
}

std::string errorOf(const std::string& text)
{
    auto m = feed::parseManifest(text, "manifest.json");
    return m ? std::string("(parsed)") : m.error().message;
}

} // namespace

class TestFeedManifest : public QObject
{
    Q_OBJECT

    fs::path dir;

private slots:
    void initTestCase()
    {
        dir = fs::path(qEnvironmentVariable("STACKPILOT_HOME").toStdString()) / "manifest";
        fs::remove_all(dir);
        fs::create_directories(dir);
    }

    void parsesAndWritesBack()
    {
        auto m = feed::parseManifest(manifestText(), "manifest.json");
        QVERIFY2(m, m ? "" : m.error().message.c_str());
        QCOMPARE(m->version, std::int64_t{7});
        QCOMPARE(m->files.size(), std::size_t{1});
        QCOMPARE(m->files[0].size, std::uint64_t{12});
        auto again = feed::parseManifest(feed::toJsonText(*m), "manifest.json");
        QVERIFY(again);
        QCOMPARE(feed::toJsonText(*again), feed::toJsonText(*m));
    }

    // Where users' results go (issue 34): the ledger and the report form, written back as
    // read; an address that is not https (or http on loopback, for a ledger) is refused.
    void carriesWhereResultsGo()
    {
        std::string text = manifestText();
        text.insert(1, "\"sharing\":{\"ledger\":\"https://ledger.example.org/r\","
                       "\"report_form\":\"https://github.com/o/r/issues/new?template=r.yml\"},");
        auto m = feed::parseManifest(text, "manifest.json");
        QVERIFY2(m, m ? "" : m.error().message.c_str());
        QCOMPARE(m->sharing.ledger, std::string("https://ledger.example.org/r"));
        QCOMPARE(m->sharing.reportForm,
                 std::string("https://github.com/o/r/issues/new?template=r.yml"));
        auto again = feed::parseManifest(feed::toJsonText(*m), "manifest.json");
        QVERIFY(again);
        QCOMPARE(again->sharing.reportForm, m->sharing.reportForm);
        QVERIFY(feed::toJsonText(*feed::parseManifest(manifestText(), "m")).find("sharing") ==
                std::string::npos);
        QVERIFY(feed::checkSharing({"http://127.0.0.1:8080/r", ""}));
        const auto plain = feed::checkSharing({"", "http://example.org/form"});
        QVERIFY(!plain);
        QCOMPARE(plain.error().message,
                 std::string("catalog publish: --report-form: expected an https:// address"));
    }

    void errorsAreOneLineWithFileAndPosition_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        QTest::newRow("syntax") << QString::fromStdString("{\n  \"feed\": ,\n}")
                                << QStringLiteral("manifest.json:2:");
        QTest::newRow("unknown field")
            << QString::fromStdString(manifestText().insert(1, "\"extra\":1,"))
            << QStringLiteral("manifest.json: /extra: unknown field");
        QTest::newRow("path escapes")
            << QString::fromStdString(manifestText(
                   "[{\"path\":\"../x.json\",\"size\":1,\"sha256\":\"" + kSha + "\"}]"))
            << QStringLiteral("manifest.json: /files/0/path:");
        QTest::newRow("bad digest") << QString::fromStdString(manifestText(
                                           "[{\"path\":\"a.json\",\"size\":1,\"sha256\":\"ABC\"}]"))
                                    << QStringLiteral("manifest.json: /files/0/sha256:");
        QTest::newRow("negative size")
            << QString::fromStdString(
                   manifestText("[{\"path\":\"a.json\",\"size\":-1,\"sha256\":\"" + kSha + "\"}]"))
            << QStringLiteral("manifest.json: /files/0/size:");
        QTest::newRow("twice") << QString::fromStdString(manifestText(
                                      "[{\"path\":\"a.json\",\"size\":1,\"sha256\":\"" + kSha +
                                      "\"},{\"path\":\"a.json\",\"size\":1,\"sha256\":\"" + kSha +
                                      "\"}]"))
                               << QStringLiteral("manifest.json: /files/1/path: listed twice");
        QTest::newRow("not utc") << QString::fromStdString([] {
            std::string t = manifestText();
            t.replace(t.find("2027-01-01T00:00:00Z"), 20, "2027-01-01T00:00:00+02:00");
            return t;
        }()) << QStringLiteral("manifest.json: /expires:");
        QTest::newRow("too deep") << QString::fromStdString(std::string(20, '[') +
                                                            std::string(20, ']'))
                                  << QStringLiteral("manifest.json:1:");
        QTest::newRow("sharing: unknown field")
            << QString::fromStdString(manifestText().insert(1, "\"sharing\":{\"forum\":\"x\"},"))
            << QStringLiteral("manifest.json: /sharing/forum: unknown field");
        QTest::newRow("sharing: plain http ledger")
            << QString::fromStdString(
                   manifestText().insert(1, "\"sharing\":{\"ledger\":\"http://example.org\"},"))
            << QStringLiteral("manifest.json: /sharing/ledger: expected an https:// address");
        QTest::newRow("sharing: a space")
            << QString::fromStdString(
                   manifestText().insert(1, "\"sharing\":{\"report_form\":\"https://x.org/a b\"},"))
            << QStringLiteral("manifest.json: /sharing/report_form: a space");
        QTest::newRow("sharing: empty")
            << QString::fromStdString(manifestText().insert(1, "\"sharing\":{},"))
            << QStringLiteral("manifest.json: /sharing: expected");
        QTest::newRow("too large")
            << QString::fromStdString(std::string(feed::kMaxManifestBytes + 1, ' '))
            << QStringLiteral("manifest.json: larger than");
    }
    void errorsAreOneLineWithFileAndPosition()
    {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        const std::string e = errorOf(text.toStdString());
        QVERIFY2(e.rfind(expected.toStdString(), 0) == 0, e.c_str());
        QVERIFY2(e.find('\n') == std::string::npos, e.c_str());
    }

    void comparesVersions()
    {
        QCOMPARE(feed::compareVersions("0.1.0", "0.1"), 0);
        QCOMPARE(feed::compareVersions("0.2.0", "0.10.0"), -1);
        QCOMPARE(feed::compareVersions("1.0", "0.99.99"), 1);
    }

    void verifiesSignaturesOfTheRealTool()
    {
        if (!haveMinisign())
            QSKIP("minisign is not installed (.ci/install-deps)");
        KeyPair a, b;
        QVERIFY(a.generate(dir, "a"));
        QVERIFY(b.generate(dir, "b"));
        const std::string message = manifestText();
        for (const bool legacy : {false, true}) {
            const fs::path file = dir / (legacy ? "legacy.json" : "prehashed.json");
            writeAll(file, message);
            QVERIFY(a.sign(file, legacy));
            const std::string sig = readAll(fs::path(file).concat(".minisig"));
            auto ok = feed::verifySignature(message, sig, {b.publicKey(), a.publicKey()}, "m");
            QVERIFY2(ok, ok ? "" : ok.error().message.c_str());
            QCOMPARE(ok->key.text, a.line());
            std::string changed = message;
            changed[10] ^= 1;
            auto bad = feed::verifySignature(changed, sig, {a.publicKey()}, "m");
            QVERIFY(!bad);
            QVERIFY2(bad.error().message.find("does not match") != std::string::npos,
                     bad.error().message.c_str());
            auto unknown = feed::verifySignature(message, sig, {b.publicKey()}, "m");
            QVERIFY(!unknown);
            QVERIFY(unknown.error().message.find("unknown key") != std::string::npos);
            std::string tampered = sig;
            tampered.insert(tampered.find("\ntrusted comment: ") + 18, "x");
            auto comment = feed::verifySignature(message, tampered, {a.publicKey()}, "m");
            QVERIFY(!comment);
            QVERIFY(comment.error().message.find("trusted comment") != std::string::npos);
        }
        QVERIFY(feed::parsePublicKey(readAll(a.pub))); // the whole .pub file
        QVERIFY(!feed::verifySignature(message, "garbage", {a.publicKey()}, "m"));
        QVERIFY(!feed::parsePublicKey("RWnotakey"));
    }

    void twoKeysShip() { QCOMPARE(feed::shippedKeys().size(), std::size_t{2}); }
};

QTEST_GUILESS_MAIN(TestFeedManifest)
#include "test_feed_manifest.moc"
