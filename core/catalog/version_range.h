#pragma once
// Dotted versions ("5.7.1", "6.1", "8.6") and ranges of them (">=6.1 <6.2"), as used
// by the catalog's `compute_capability`, `driver_version` and runtime `version`
// conditions. A range is a space-separated list of comparators that must all hold;
// a bare version is an exact match where missing trailing parts are wildcards, so
// "6.1" matches "6.1" and "6.1.3".

#include <optional>
#include <string>
#include <vector>

namespace sp {

using Version = std::vector<long>;

// Leading numeric dotted part only: "6.1.40093-abc" -> {6,1,40093}. Empty on no digits.
std::optional<Version> parseVersion(const std::string& text);
// -1, 0, 1; a missing part counts as 0.
int compareVersions(const Version& a, const Version& b);

// A `supported_cc` entry: "8.6" (device code for 8.x cards from 8.6 on) or "8.0+PTX"
// (also PTX, which the driver compiles for any card from 8.0 on). nullopt otherwise.
struct CcBuild
{
    Version cc; // major, minor
    bool ptx = false;
};
std::optional<CcBuild> parseCcBuild(const std::string& text);

class VersionRange
{
public:
    // Returns an error text (empty = ok) so the loader can report it with a position.
    static std::optional<VersionRange> parse(const std::string& text, std::string* error);
    bool contains(const Version& v) const;
    bool contains(const std::string& v) const;

private:
    enum class Op
    {
        Eq,
        Lt,
        Le,
        Gt,
        Ge
    };
    struct Term
    {
        Op op;
        Version v;
    };
    std::vector<Term> m_terms;
};

} // namespace sp
