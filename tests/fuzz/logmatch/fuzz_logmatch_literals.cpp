// libFuzzer target: the prefilter literals derived from a regex must occur in every
// text that std::regex says the regex matches. Input: "<regex>\n<text>".

#include "core/logmatch/literals.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <regex>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string input(reinterpret_cast<const char*>(data), size);
    const std::size_t nl = input.find('\n');
    if (nl == std::string::npos || nl > 48 || size - nl - 1 > 96)
        return 0; // small inputs keep std::regex's backtracking cheap
    const std::string pattern = input.substr(0, nl);
    const std::string text = input.substr(nl + 1);

    const auto literals = sp::logmatch::requiredLiterals(pattern);
    for (const auto& l : literals)
        if (l.empty() || l.find_first_of("\r\n") != std::string::npos)
            std::abort();

    bool matched = false;
    try {
#ifdef __GLIBCXX__
        // libstdc++'s breadth-first executor: polynomial time on any pattern.
        const std::regex re(pattern, std::regex::ECMAScript | std::regex_constants::__polynomial);
#else
        const std::regex re(pattern, std::regex::ECMAScript);
#endif
        matched = std::regex_search(text, re);
    } catch (const std::regex_error&) {
        return 0;
    }
    if (!matched || literals.empty())
        return 0;
    for (const auto& l : literals)
        if (text.find(l) != std::string::npos)
            return 0;
    std::abort(); // the regex matched a text holding none of its required literals
}
