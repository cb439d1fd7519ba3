// Secrets that span lines or are very short: a private key followed from line to line
// by the launch log's filter (and by the bundle's redactor on a whole text), whole, cut
// after its BEGIN, cut before its END, interleaved with another stream's lines and
// behind a logger's prefix; and a 1 to 3 character secret value, redacted where it is
// that variable's value or a word of its own, never inside other words.

#include "app/common/diag/log_filter.h"
#include "app/common/diag/redact.h"

#include <QTest>

using sp::diag::Identity;
using sp::diag::RedactionCounts;
using sp::diag::RedactionKind;
using sp::diag::Redactor;
using Lines = std::vector<std::string>;

namespace {

const std::string kMarker = Redactor::marker(RedactionKind::PrivateKey);

// The lines through a fresh launch-log filter, then its finish.
Lines throughLogFilter(const Lines& in, const sp::EnvMap& env = {})
{
    auto filter = sp::diag::launchLogFilter(env, {}, nlohmann::json::object());
    Lines out;
    for (const auto& l : in)
        filter->line(l, out);
    filter->finish(out);
    return out;
}

std::string joined(const Lines& lines)
{
    std::string s;
    for (const auto& l : lines)
        s += l + "\n";
    return s;
}

bool holds(const Lines& lines, const std::string& what)
{
    return joined(lines).find(what) != std::string::npos;
}

} // namespace

class TestKeyBlocks : public QObject
{
    Q_OBJECT

private slots:
    void keyLinesGoLineForLine_data()
    {
        QTest::addColumn<Lines>("in");
        QTest::addColumn<Lines>("want");
        const std::string m = kMarker;
        QTest::newRow("whole") << Lines{"a",
                                        "-----BEGIN RSA PRIVATE KEY-----",
                                        "MIIEowIBAAKCAQEAu1",
                                        "Zm9vYmFyYmF6cXV4",
                                        "-----END RSA PRIVATE KEY-----",
                                        "b"}
                               << Lines{"a", m, m, m, m, "b"};
        QTest::newRow("cut-after-begin")
            << Lines{"-----BEGIN OPENSSH PRIVATE KEY-----", "b3BlbnNzaC1rZXktdjEAAAAA", "",
                     "[INFO] model loaded", "done"}
            << Lines{m, m, m, "[INFO] model loaded", "done"};
        QTest::newRow("begin-cut-off")
            << Lines{"T3JwaGFuQm9keUxpbmVPbmU",
                     "T3JwaGFuQm9keUxpbmVUd28=", "-----END PRIVATE KEY-----", "after"}
            << Lines{m, m, m, "after"};
        QTest::newRow("base64-that-was-no-key")
            << Lines{"T3JwaGFuQm9keUxpbmVPbmU", "plain text", "-----END PRIVATE KEY-----"}
            << Lines{"T3JwaGFuQm9keUxpbmVPbmU", "plain text", m};
        QTest::newRow("another-stream-between")
            << Lines{"-----BEGIN PRIVATE KEY-----", "MIIEvQIBADANBgkqhkiG", "Loading weights...",
                     "9w0BAQEFAASCBKcwggSj", "-----END PRIVATE KEY-----"}
            << Lines{m, m, "Loading weights...", m, m};
        QTest::newRow("logger-prefix")
            << Lines{"12:00:01 INFO -----BEGIN EC PRIVATE KEY-----",
                     "12:00:01 INFO MHcCAQEEIBkg4LVWM9nuwNSk3yBv",
                     "12:00:01 INFO -----END EC PRIVATE KEY-----"}
            << Lines{"12:00:01 INFO " + m, "12:00:01 INFO " + m, "12:00:01 INFO " + m};
        QTest::newRow("logger-prefix-begin-cut-off")
            << Lines{"W 9w0BAQEFAASCBKcwggSjAgEAAoIB", "W QUJDREVGR0hJSktMTU5PUFFS",
                     "W -----END PRIVATE KEY-----", "W ok"}
            << Lines{"W " + m, "W " + m, "W " + m, "W ok"};
        QTest::newRow("cut-key-then-another") // fuzz_redact's find
            << Lines{"-----BEGIN OPENSSH PRIVATE KEY-----",   "b3BlbnNzaC1rZXktdjEAAAAA", "Loaded.",
                     "-----BEGIN PGP PRIVATE KEY BLOCK-----", "Version: GnuPG v2",        "=a1B2"}
            << Lines{m, m, "Loaded.", m, m, m};
        QTest::newRow("one-line") << Lines{"key=\"-----BEGIN PRIVATE KEY-----\\nMIIEv\\n-----END "
                                           "PRIVATE KEY-----\\n\" ok"}
                                  << Lines{"key=\"" + m + "\\n\" ok"};
        QTest::newRow("pgp") << Lines{"-----BEGIN PGP PRIVATE KEY BLOCK-----",
                                      "Version: GnuPG v2",
                                      "",
                                      "lQOYBF0xAbCdEfGh",
                                      "=a1B2",
                                      "-----END PGP PRIVATE KEY BLOCK-----"}
                             << Lines{m, m, m, m, m, m};
    }
    void keyLinesGoLineForLine()
    {
        QFETCH(Lines, in);
        QFETCH(Lines, want);
        QCOMPARE(throughLogFilter(in), want);
        // The bundle's redactor on the whole text says the same.
        RedactionCounts counts;
        QCOMPARE(Redactor(Identity{}).text(joined(in), counts), joined(want));
        QVERIFY(counts[RedactionKind::PrivateKey] >= 1);
    }

    // What may be a body whose BEGIN was cut off is held back, never lost, and bounded.
    void heldLinesComeOutInOrder()
    {
        Lines in;
        for (int i = 0; i < 200; ++i)
            in.push_back("QUJDREVGR0hJSktMTU5PUFFSU1RVVldY" + std::to_string(i));
        in.push_back("the end");
        QCOMPARE(throughLogFilter(in), in);
        const Lines unended = {"QUJDREVGR0hJSktMTU5PUFFS", "QUJDREVGR0hJSktMTU5PUFFS"};
        QCOMPARE(throughLogFilter(unended), unended); // finish lets them go
    }

    void twiceIsOnce()
    {
        const std::string in = "x -----BEGIN PRIVATE KEY-----\nMIIEv\n\nstray\nAAAA==\n"
                               "-----END PRIVATE KEY----- tail -----BEGIN RSA PRIVATE KEY-----\n"
                               "QUJD\n-----END RSA PRIVATE KEY-----\nQUJDREVGR0hJSktMTU5PUFFS\n";
        const Redactor r{Identity{}};
        RedactionCounts first, second;
        const std::string once = r.text(in, first);
        QCOMPARE(r.text(once, second), once);
        QCOMPARE(second.total(), std::size_t{0});
        QCOMPARE(first[RedactionKind::PrivateKey], std::size_t{2});
        QVERIFY2(once.find("tail") != std::string::npos, once.c_str());
    }

    void shortSecretValues()
    {
        Identity id;
        id.addSecretValues({{"MY_API_KEY", "k9"},
                            {"DB_PASS", "x"},
                            {"PIN_KEY", "12"},
                            {"SHORT_TOKEN", "Ab3"},
                            {"ANOTHER_KEY", "key"}});
        QCOMPARE(id.wordSecrets, (std::vector<std::string>{"k9", "Ab3"})); // "key": a marker's
        QVERIFY(id.secrets.empty());
        const Redactor r(id);
        RedactionCounts counts;
        const std::string out = r.text(
            "api key k9, k9x and xk9; Ab3/Ab3c; x86 x; DB_PASS=x; PIN_KEY=12 at 12:30", counts);
        const std::string known = Redactor::marker(RedactionKind::KnownSecret);
        QCOMPARE(out, "api key " + known + ", k9x and xk9; " + known +
                          "/Ab3c; x86 x; DB_PASS=<redacted:secret-variable>; PIN_KEY=12 at 12:30");
        // The launch log's filter takes the caller's environment the same way.
        const Lines logged =
            throughLogFilter({"api key k9", "MY_API_KEY=k9"}, {{"MY_API_KEY", "k9"}});
        QVERIFY2(!holds(logged, "k9"), joined(logged).c_str());
    }
};

QTEST_GUILESS_MAIN(TestKeyBlocks)
#include "test_key_blocks.moc"
