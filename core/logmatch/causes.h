#pragma once
// A known issue's causes (KnownIssueCause) as signatures: a code is matched as a whole
// word, a name with its first letter in either case ("Unspecified launch failure" at the
// start of a sentence), both as plain text. Each comes with the literal the prefilter
// scans for, so causes cost what any signature costs.

#include "core/catalog/types.h"

#include <string>
#include <vector>

namespace sp::logmatch {

struct CauseSignature
{
    std::string pattern; // RE2 syntax
    std::string literal; // every match holds it
};

// One per code and per name, in that order.
std::vector<CauseSignature> causeSignatures(const KnownIssueCause& cause);

} // namespace sp::logmatch
