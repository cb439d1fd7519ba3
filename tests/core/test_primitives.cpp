// The shared primitives in their new home: strings, OS family, printable text, the
// injectable clock, the cancel token and the owner marker.

#include "core/cancel_token.h"
#include "core/clock.h"
#include "core/format.h"
#include "core/json_file.h"
#include "core/os_family.h"
#include "core/ownership.h"
#include "core/strings.h"
#include "core/text.h"

#include <QTemporaryDir>
#include <QTest>
#include <fstream>

namespace fs = std::filesystem;

class TestPrimitives : public QObject
{
    Q_OBJECT
private slots:
    // The CLI and the window print sizes the same way (format.h).
    void formatting()
    {
        using namespace sp::format;
        QCOMPARE(bytes(0), std::string("0 B"));
        QCOMPARE(bytes(1023), std::string("1023 B"));
        QCOMPARE(bytes(1024 * 980), std::string("980 KiB"));
        QCOMPARE(bytes(512ull << 20), std::string("512 MiB"));
        QCOMPARE(bytes(1536ull << 20), std::string("1.5 GiB"));
        QCOMPARE(vramMb(512), std::string("512 MiB"));
        QCOMPARE(vramMb(12288), std::string("12.0 GiB"));
        QCOMPARE(vramMb(std::nullopt), std::string("-"));
        QCOMPARE(rate(3.5 * 1024 * 1024), std::string("3 MiB/s"));
        QCOMPARE(duration(45), std::string("45 s"));
        QCOMPARE(duration(185), std::string("3 min 05 s"));
        QCOMPARE(duration(7800), std::string("2 h 10 min"));
        QCOMPARE(duration(-1), std::string("-"));
        sp::GpuInfo g;
        QCOMPARE(gpuTarget(g), std::string("-"));
        g.computeCapability = "8.6";
        QCOMPARE(gpuTarget(g), std::string("sm 8.6"));
        g.gfx = "gfx1031";
        QCOMPARE(gpuTarget(g), std::string("gfx1031"));
    }

    void strings()
    {
        QCOMPARE(std::string(sp::trim(" \t x y \r\n")), std::string("x y"));
        QCOMPARE(std::string(sp::trim("   ")), std::string());
        QCOMPARE(sp::lower("GFX1031 ABC"), std::string("gfx1031 abc"));
        QVERIFY(sp::startsWithNoCase("PCI\\VEN_1002", "pci\\"));
        QVERIFY(!sp::startsWithNoCase("PC", "pci"));
        QCOMPARE(sp::join({"a", "b", "c"}, ", "), std::string("a, b, c"));
        QCOMPARE(sp::join({"x", "a", "b"}, "/", 1), std::string("a/b"));
        QCOMPARE(sp::join({}, ", "), std::string());
        QCOMPARE(sp::hex(0x73df, 4), std::string("73df"));
        QCOMPARE(sp::hex(0x3, 2), std::string("03"));
        QCOMPARE(sp::hex(0x12345, 4), std::string("12345")); // never truncated
    }

    void osFamily()
    {
#ifdef _WIN32
        QCOMPARE(std::string(sp::toString(sp::hostOs())), std::string("windows"));
#else
        QCOMPARE(std::string(sp::toString(sp::hostOs())), std::string("linux"));
#endif
        QVERIFY(sp::osFamilyFromString("windows") == sp::OsFamily::Windows);
        QVERIFY(!sp::osFamilyFromString("macos"));
    }

    void printableText()
    {
        QCOMPARE(sp::printable("ok\tline\n"), std::string("ok\tline\n"));
        QCOMPARE(sp::printable("a\x1b[31mb"), std::string("a\\x1b[31mb"));
        QCOMPARE(sp::printable("\x07\x7f"), std::string("\\x07\\x7f"));
        QCOMPARE(sp::printable("\xc2\x9b"
                               "2J"),
                 std::string("\\u009b2J")); // C1 CSI
        QCOMPARE(sp::printable("\xc2\xa9 \xe6\x98\xbe\xe5\x8d\xa1"),
                 std::string("\xc2\xa9 \xe6\x98\xbe\xe5\x8d\xa1")); // UTF-8 kept
        sp::PrintableFilter f; // a C1 control split across chunks
        std::string out = f.feed("x\xc2");
        out += f.feed("\x9b"
                      "y");
        out += f.finish();
        QCOMPARE(out, std::string("x\\u009by"));
        // The log's fast path: text with nothing to escape is written as it is.
        QVERIFY(!sp::mayNeedEscaping("ok\tline \xe6\x98\xbe\n"));
        for (const char* s : {"a\x1b[31mb", "\x07", "\x7f", "\r", "\xc2\x9b", "\xc2\xa9"})
            QVERIFY(sp::mayNeedEscaping(s));
    }

    // What a workload or a bundle prints reaches a terminal with only its
    // colours; the rest is shown escaped, and the result is valid UTF-8.
    void terminalSafeText()
    {
        using sp::terminalSafe;
        QCOMPARE(terminalSafe("\x1b[1;31mred\x1b[0m \x1b[38:5:2mx\x1b[m"),
                 std::string("\x1b[1;31mred\x1b[0m \x1b[38:5:2mx\x1b[m"));
        QCOMPARE(terminalSafe("\x1b[1;31mred\x1b[0m", false), std::string("red"));
        // OSC 52 (clipboard), OSC 0 (title), a screen clear, DCS: ESC shown, text kept.
        QCOMPARE(terminalSafe("\x1b]52;c;ZXZpbA==\x07x"), std::string("\\x1b]52;c;ZXZpbA==\\x07x"));
        QCOMPARE(terminalSafe("\x1b]0;pwned\x1b\\"), std::string("\\x1b]0;pwned\\x1b\\"));
        QCOMPARE(terminalSafe("\x1b[2J\x1b[H"), std::string("\\x1b[2J\\x1b[H"));
        QCOMPARE(terminalSafe("\x1bP1$qm\x1b\\"), std::string("\\x1bP1$qm\\x1b\\"));
        // C1 controls, as UTF-8 and as raw bytes; other bytes that are not UTF-8.
        QCOMPARE(terminalSafe("\xc2\x9b"
                              "2J \x9b"
                              "2J \xff"),
                 std::string("\\u009b2J \\x9b2J \\xff"));
        QCOMPARE(terminalSafe("a\rb\x7f\tc\n"), std::string("a\\x0db\\x7f\tc\n"));
        // An escape right before a multi-byte character leaves the character whole.
        QCOMPARE(terminalSafe("\x1b\xc3\xa9t\xc3\xa9"), std::string("\\x1b\xc3\xa9t\xc3\xa9"));
        QCOMPARE(terminalSafe("\xe6\x98\xbe\xe5\x8d\xa1"), std::string("\xe6\x98\xbe\xe5\x8d\xa1"));
    }

    // JSON followed by a NUL and junk is not JSON.
    void jsonWithANulIsRefused()
    {
        const auto r = sp::parseJsonText(std::string("{\"a\": 1}\0junk", 13), "t.json", {});
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.find("t.json:1:9") != std::string::npos,
                 r.error().message.c_str());
        QVERIFY(sp::parseJsonText("{\"a\": 1}", "t.json", {}).ok());
    }

    void fixedClock()
    {
        const auto t = std::chrono::system_clock::time_point(std::chrono::hours(1000));
        sp::FixedClock c(t);
        QVERIFY(c.now() == t);
        c.set(t + std::chrono::hours(1));
        QVERIFY(c.now() - t == std::chrono::hours(1));
        QVERIFY(sp::Clock::system().now() > t);
    }

    void cancelToken()
    {
        sp::CancelToken a;
        const sp::CancelToken b = a; // copies share the flag
        QVERIFY(!b.cancelled());
        a.cancel();
        QVERIFY(b.cancelled());
    }

    void ownership()
    {
        QTemporaryDir tmp;
        const fs::path root = tmp.path().toStdString();
        QVERIFY(sp::ownership::createOwned(root / "ours", "test").ok());
        QVERIFY(sp::ownership::isOwned(root / "ours"));
        QVERIFY(!sp::ownership::createOwned(root / "ours", "again").ok()); // never claims
        fs::create_directories(root / "users" / "photos");
        std::ofstream(root / "users" / "photos" / "a.jpg") << "x";
        const auto refused = sp::ownership::removeOwned(root / "users");
        QVERIFY(!refused.ok());
        QVERIFY(refused.error().message.find("not created by StackPilot") != std::string::npos);
        QVERIFY(fs::exists(root / "users" / "photos" / "a.jpg"));
        // A symlink to an owned folder is not proof: the link itself is not a folder.
        fs::create_directory_symlink(root / "ours", root / "link");
        QVERIFY(!sp::ownership::isOwned(root / "link"));
        QVERIFY(sp::ownership::removeOwned(root / "ours").ok());
        QVERIFY(!fs::exists(root / "ours"));
        QVERIFY(sp::ownership::removeOwned(root / "never-was").ok());
    }
};

QTEST_GUILESS_MAIN(TestPrimitives)
#include "test_primitives.moc"
