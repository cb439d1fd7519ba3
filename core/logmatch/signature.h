#pragma once
// Known-issue signatures (and a workload's url_regex) compile with RE2, whose running
// time is linear in the text: a catalog file can never make a log view hang, whatever
// pattern it holds (`(a+)+$` over a long line of 'a's finishes like any other).
// Syntax: https://github.com/google/re2/wiki/Syntax (no backreferences or lookaround).

#include "core/expected.h"

#include <memory>
#include <string>

namespace re2 {
class RE2;
}

namespace sp::logmatch {

// Compiled; the error text names what RE2 refused (without the position: the caller
// adds the catalog's file:line:col). `captures` keeps capture groups (a url_regex).
Expected<std::shared_ptr<const re2::RE2>> compileSignature(const std::string& pattern,
                                                           bool captures = false);

} // namespace sp::logmatch
