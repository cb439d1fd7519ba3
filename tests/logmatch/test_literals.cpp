#include "core/logmatch/literals.h"
#include "core/logmatch/signature.h"

#include <QTest>
#include <re2/re2.h>

using sp::logmatch::requiredLiterals;
using List = std::vector<std::string>;

class TestLiterals : public QObject
{
    Q_OBJECT
private slots:
    void plainAndEscaped()
    {
        QVERIFY(requiredLiterals("HIPBLAS_STATUS_UNKNOWN") == List{"HIPBLAS_STATUS_UNKNOWN"});
        QVERIFY(requiredLiterals("a\\.b") == List{"a.b"});
        QVERIFY(requiredLiterals("\\[WinError 362\\]") == List{"[WinError 362]"});
        QVERIFY(requiredLiterals("\\x41BC") == List{"ABC"});
        QVERIFY(requiredLiterals("rocblas\\.dll(\\(0x[0-9A-Fa-f]+\\)|\\+0x)") ==
                List{"rocblas.dll"});
    }

    void quantifiersBreakRuns()
    {
        QVERIFY(requiredLiterals("colou?r") == List{"colo"});
        QVERIFY(requiredLiterals("ab+c") == List{"ab"});
        QVERIFY(requiredLiterals("x{0,3}yz") == List{"yz"});
        QVERIFY(requiredLiterals("ab*?cd") == List{"cd"});
        QVERIFY(requiredLiterals("ab{2}cde") == List{"cde"});
        QVERIFY(requiredLiterals("[abc]def(gh|ij)klmn") == List{"klmn"});
        QVERIFY(requiredLiterals("sm_[0-9]+ is not compatible") == List{" is not compatible"});
    }

    void alternatives()
    {
        QVERIFY(requiredLiterals("foo|barbaz") == (List{"foo", "barbaz"}));
        QVERIFY(requiredLiterals("foo|foo") == List{"foo"});
        // One alternative without a literal: no prefilter is possible.
        QVERIFY(requiredLiterals("\\d+|foo").empty());
        QVERIFY(requiredLiterals("foo|").empty());
        // A '|' inside a group or class is not top-level.
        QVERIFY(requiredLiterals("(a|b)cde") == List{"cde"});
        QVERIFY(requiredLiterals("[|]xyz") == List{"xyz"});
    }

    void nothingDerivable()
    {
        QVERIFY(requiredLiterals("").empty());
        QVERIFY(requiredLiterals(".*").empty());
        QVERIFY(requiredLiterals("(foo|bar)").empty());
        QVERIFY(requiredLiterals("\\d\\s\\w").empty());
        QVERIFY(requiredLiterals("a\\nb") == List{"a"});
        // Found by fuzz_logmatch_literals: libstdc++ accepts stacked quantifiers with
        // counts that overflow, and reads "[]" differently from ECMAScript.
        QVERIFY(requiredLiterals("a{2,}{999999999999992,}b|[b|[]V]yz").empty());
        QVERIFY(requiredLiterals("xyz{2,}{3}").empty());
        QVERIFY(requiredLiterals("[]abc]def").empty());
        QVERIFY(requiredLiterals("abc{99999}").empty());
    }

    // RE2's syntax, which the matcher runs: each of these gave a literal that a
    // matching text does not contain while the literals were read as ECMAScript.
    void re2Syntax()
    {
        QVERIFY(requiredLiterals("\\101BC") == List{"BC"});        // octal \101 is 'A'
        QVERIFY(requiredLiterals("\\pLxyz") == List{"xyz"});       // a Unicode class
        QVERIFY(requiredLiterals("\\p{Greek}xyz") == List{"xyz"}); // not "p{Greek}xyz"
        QVERIFY(requiredLiterals("ab\\Acd\\zef") == List{"ab"});   // anchors, not letters
        QVERIFY(requiredLiterals("\\ax") == List{"\ax"});          // bell
        QVERIFY(requiredLiterals("\\x{41}BC") == List{"ABC"});
        QVERIFY(requiredLiterals("\\xE9abc") == List{"abc"});      // U+00E9 is two bytes in UTF-8
        QVERIFY(requiredLiterals("caf\xC3\xA9?s") == List{"caf"}); // '?' takes the whole é
        QVERIFY(requiredLiterals("[[:alpha:]]]xy|z") == (List{"]xy", "z"}));
        QVERIFY(requiredLiterals("(?i)rocblas").empty());
        QVERIFY(requiredLiterals("\\Qa|b\\E").empty());
        QVERIFY(requiredLiterals("a{,2}b") == List{"a{,2}b"}); // not a count to RE2
    }

    // fuzz_logmatch_literals' find (tests/fuzz/seeds/logmatch_literals/flag-group-quantifier,
    // "\0(?)?(?)" then the text "o"): a group of flags alone matches nothing, so the '?'
    // after "(?)" makes the NUL before it optional, and RE2 matches "o".
    void flagGroupPassesTheQuantifierBack()
    {
        const std::string input("\0(?)?(?)\no", 10);
        const std::string pattern = input.substr(0, input.find('\n'));
        const std::string text = input.substr(input.find('\n') + 1);
        QCOMPARE(pattern.size(), std::size_t{8}); // the NUL is part of the pattern
        const auto re = sp::logmatch::compileSignature(pattern);
        QVERIFY(re.ok());
        QVERIFY(re2::RE2::PartialMatch(text, **re)); // RE2 reads "\0?": "o" matches
        for (const auto& l : requiredLiterals(pattern))
            QVERIFY2(text.find(l) != std::string::npos, "a literal the match does not hold");
        QVERIFY(requiredLiterals("colour(?)?s") == List{"colou"});
        QVERIFY(requiredLiterals("ab(?s)cd") == List{"abcd"}); // flags alone end no run
        QVERIFY(requiredLiterals("x?(?)?yz") == List{});       // stacked through the group
    }

    // The derived literals must occur in every match RE2 (compiled as the matcher
    // compiles a signature) finds.
    void literalsOccurInMatches()
    {
        const std::vector<std::pair<std::string, std::string>> cases = {
            {"rocblas\\.dll(\\(0x[0-9A-Fa-f]+\\)|\\+0x[0-9A-Fa-f]+)", "x\\rocblas.dll+0x1f"},
            {"OutOfMemoryError: (CUDA|HIP) out of memory",
             "torch.OutOfMemoryError: HIP out of memory"},
            {"colou?r", "color"},
            {"ab+c", "abbbc"},
            {"0xC0000005.*rocblas\\.dll|rocblas\\.dll.*0xC0000005",
             "rocblas.dll crashed 0xC0000005"},
            {"\\101BC", "ABC"},
            {"\\p{Greek}xyz", "\xCE\xB1xyz"},
            {"caf\xC3\xA9?s", "cafs"},
            {"[[:alpha:]]]xy|z", "q]xy"},
            {"a{,2}b", "a{,2}b"},
        };
        for (const auto& [pattern, text] : cases) {
            const auto re = sp::logmatch::compileSignature(pattern);
            QVERIFY2(re.ok(), pattern.c_str());
            QVERIFY2(re2::RE2::PartialMatch(text, **re), pattern.c_str());
            const auto lits = requiredLiterals(pattern);
            QVERIFY2(!lits.empty(), pattern.c_str());
            bool any = false;
            for (const auto& l : lits)
                any = any || text.find(l) != std::string::npos;
            QVERIFY2(any, pattern.c_str());
        }
    }
};

QTEST_APPLESS_MAIN(TestLiterals)
#include "test_literals.moc"
