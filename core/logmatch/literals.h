#pragma once
// Required literals of a known-issue signature, read with RE2's syntax (the matcher
// the product runs, core/logmatch/signature.h): substrings of which at least one
// must occur in any text the pattern matches. The log matcher runs RE2 on a line only
// when one of them is there: one pass of a multi-literal scanner over a line is far
// cheaper than running each of ~50 signatures on it.
//
// Conservative by construction: anything whose meaning is not certain (classes,
// groups, \pN, octal and non-ASCII escapes, \Q...\E, case-folding flags, stacked or
// huge counts) ends a literal run or gives no literal at all, never a wrong one.
// tests/fuzz/logmatch/fuzz_logmatch_literals checks that against RE2 itself.

#include <string>
#include <vector>

namespace sp::logmatch {

// One literal per top-level alternative (the longest run of plain characters that
// every match of that alternative contains; a non-ASCII character is its UTF-8
// bytes). Empty when some alternative has no such run (e.g. "\\d+|foo"): the caller
// must then always run the pattern. The result is deduplicated; a literal is never
// empty and never holds '\n' or '\r'.
std::vector<std::string> requiredLiterals(const std::string& regex);

} // namespace sp::logmatch
