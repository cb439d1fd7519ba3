// settings.json: defaults, round trip, mirror rewrite, and errors that name
// file:line:col.

#include "core/paths.h"
#include "core/settings.h"

#include <QtTest>
#include <fstream>

using namespace sp;
namespace fs = std::filesystem;

class TestSettings : public QObject
{
    Q_OBJECT

private slots:
    void missingFileMeansDefaults()
    {
        fs::remove(Settings::defaultFile());
        auto s = Settings::load();
        QVERIFY(s.ok());
        QVERIFY(!s->proxy);
        QVERIFY(s->mirrors.empty());
        QVERIFY(s->mirrorsFirst);
        QCOMPARE(s->parallelDownloads, 3);
        QCOMPARE(s->maxExtractSize, std::uint64_t(64) << 30);
        QVERIFY(Settings::defaultFile() == paths::configDir() / "settings.json");
    }

    void fileIsReadAndRoundTrips()
    {
        Settings s;
        s.proxy = "http://proxy.corp:3128";
        s.mirrors["github.com"] = {"https://mirror.example/github.com/"};
        s.mirrorsFirst = false;
        s.parallelDownloads = 5;
        s.maxExtractSize = 1234;
        QVERIFY(s.save(Settings::defaultFile()).ok());
        auto back = Settings::load();
        QVERIFY2(back.ok(), back.ok() ? "" : back.error().message.c_str());
        QVERIFY(back->proxy == s.proxy);
        QVERIFY(back->mirrors == s.mirrors);
        QCOMPARE(back->mirrorsFirst, false);
        QCOMPARE(back->parallelDownloads, 5);
        QCOMPARE(back->maxExtractSize, std::uint64_t(1234));
        fs::remove(Settings::defaultFile());
    }

    void mirrorRewrite()
    {
        auto s = Settings::parse(
            "{\"mirrors\": {\"github.com\": [\"https://mirror.example/github.com/\"],\n            "
            "                \"127.0.0.1:8080\": [\"http://127.0.0.1:9/m\"]}}",
            "s.json");
        QVERIFY(s.ok());
        const std::string url = "https://github.com/lshqqytiger/ZLUDA/releases/download/x.zip?a=1";
        const auto m = s->mirrorUrlsFor(url);
        QCOMPARE(int(m.size()), 1);
        QCOMPARE(m[0], std::string("https://mirror.example/github.com/lshqqytiger/ZLUDA/releases/"
                                   "download/x.zip?a=1"));
        QVERIFY(s->mirrorUrlsFor("https://example.org/x.zip").empty());
        QCOMPARE(s->mirrorUrlsFor("http://127.0.0.1:8080/a/b").at(0),
                 std::string("http://127.0.0.1:9/m/a/b"));
        QVERIFY(s->mirrorUrlsFor("http://127.0.0.1:8081/a/b").empty());

        auto urls = s->expandUrls({url, "https://other.example/x.zip"});
        QCOMPARE(int(urls.size()), 3);
        QCOMPARE(urls[0], m[0]); // mirrors_first defaults to true
        QCOMPARE(urls[1], url);
        s->mirrorsFirst = false;
        urls = s->expandUrls({url});
        QCOMPARE(urls[0], url);
        QCOMPARE(urls[1], m[0]);
    }

    void proxyValue()
    {
        auto s = Settings::parse("{\"proxy\": \"socks5h://127.0.0.1:1080\"}", "s.json");
        QVERIFY(s.ok());
        QCOMPARE(*s->proxy, std::string("socks5h://127.0.0.1:1080"));
        s = Settings::parse("{\"proxy\": \"\"}", "s.json");
        QVERIFY(s.ok() && !s->proxy);
    }

    void unknownKeysAreIgnored()
    {
        QVERIFY(Settings::parse("{\"future_thing\": [1, 2]}", "s.json").ok());
    }

    void badJsonNamesFileLineColumn()
    {
        const auto file = paths::configDir() / "settings.json";
        fs::create_directories(file.parent_path());
        std::ofstream(file) << "{\n  \"proxy\": \"x\",\n  \"mirrors\": {,}\n}\n";
        auto s = Settings::load();
        QVERIFY(!s.ok());
        QVERIFY(s.error().code == ErrorCode::InvalidInput);
        const std::string expect = paths::toUtf8(file) + ":3:15: invalid JSON";
        QVERIFY2(s.error().message.rfind(expect, 0) == 0, s.error().message.c_str());
        fs::remove(file);
    }

    void badValueNamesItsKey()
    {
        auto s = Settings::parse("{\n  \"parallel_downloads\": 0\n}", "s.json");
        QVERIFY(!s.ok());
        QVERIFY2(s.error().message.rfind("s.json:2:3: \"parallel_downloads\"", 0) == 0,
                 s.error().message.c_str());
        s = Settings::parse("{\"mirrors\": {\n \"github.com\": \"https://m\"}}", "s.json");
        QVERIFY(!s.ok());
        QVERIFY2(s.error().message.rfind("s.json:2:2: mirrors for \"github.com\"", 0) == 0,
                 s.error().message.c_str());
        s = Settings::parse("{\"mirrors\": {\"h\": [\"ftp://m\"]}}", "s.json");
        QVERIFY(!s.ok());
        s = Settings::parse("[1]", "s.json");
        QVERIFY(!s.ok());
        QVERIFY2(s.error().message.rfind("s.json:1:1:", 0) == 0, s.error().message.c_str());
    }
};

QTEST_GUILESS_MAIN(TestSettings)
#include "test_settings.moc"
