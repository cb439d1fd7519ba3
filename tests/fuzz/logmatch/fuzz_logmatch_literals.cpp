// libFuzzer target: the prefilter literals derived from a signature must occur in
// every text that RE2, compiled exactly as the product compiles a signature
// (compileSignature), matches. Input: "<pattern>\n<text>".

#include "core/logmatch/literals.h"
#include "core/logmatch/signature.h"
#include "tests/support/fuzz_input.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <re2/re2.h>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const sp::fuzz::Cut cut = sp::fuzz::cutAt(sp::fuzz::bytesOf(data, size), '\n');
    if (!cut.rest || cut.head.size() > 256 || cut.rest->size() > 4096)
        return 0; // RE2 is linear, but compiling huge counts still costs time
    const std::string pattern(cut.head);
    const std::string text(*cut.rest);

    const auto literals = sp::logmatch::requiredLiterals(pattern);
    for (const auto& l : literals)
        if (l.empty() || l.find_first_of("\r\n") != std::string::npos)
            std::abort();

    const auto re = sp::logmatch::compileSignature(pattern);
    if (!re)
        return 0; // the catalog loader refuses it; the matcher never sees it
    if (!re2::RE2::PartialMatch(text, **re) || literals.empty())
        return 0;
    for (const auto& l : literals)
        if (text.find(l) != std::string::npos)
            return 0;
    std::abort(); // RE2 matched a text holding none of the pattern's required literals
}
