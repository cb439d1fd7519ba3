#pragma once
// Required literals of an ECMAScript regex: substrings of which at least one must
// occur in any text the regex matches. The log matcher tests a line with the regex
// only when one of them is there, because std::regex is far too slow to run on
// every line of a large log.

#include <string>
#include <vector>

namespace sp::logmatch {

// One literal per top-level alternative (the longest run of plain characters that
// every match of that alternative contains). Empty when some alternative has no
// such run (e.g. "\\d+|foo"): the caller must then always run the regex. The
// result is deduplicated; a literal is never empty and never holds '\n' or '\r'.
std::vector<std::string> requiredLiterals(const std::string& regex);

} // namespace sp::logmatch
