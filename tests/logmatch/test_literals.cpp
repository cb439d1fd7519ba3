#include "core/logmatch/literals.h"

#include <QTest>
#include <regex>

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

    // The derived literals must occur in every match: check on strings the regex matches.
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
        };
        for (const auto& [re, text] : cases) {
            QVERIFY(std::regex_search(text, std::regex(re)));
            const auto lits = requiredLiterals(re);
            QVERIFY2(!lits.empty(), re.c_str());
            bool any = false;
            for (const auto& l : lits)
                any = any || text.find(l) != std::string::npos;
            QVERIFY2(any, re.c_str());
        }
    }
};

QTEST_APPLESS_MAIN(TestLiterals)
#include "test_literals.moc"
