#pragma once
// The log matcher compiled from the shipped profiles/catalog/known-issues.json, once per
// fuzz process, for the targets that put arbitrary output through it. Aborts when the
// file does not load or compile: a fuzz run on a broken catalog would prove nothing.

#include "core/catalog/loader.h"
#include "core/logmatch/matcher.h"

#include <cstdlib>
#include <filesystem>

namespace sp::fuzz {

inline const sp::logmatch::LogMatcher& shippedMatcher()
{
    static const sp::logmatch::LogMatcher m = [] {
        sp::CatalogLoader loader;
        if (!loader.addFile(std::filesystem::path(STACKPILOT_SOURCE_DIR) /
                            "profiles/catalog/known-issues.json"))
            std::abort();
        auto c = sp::logmatch::LogMatcher::compile(loader.catalog().knownIssues);
        if (!c)
            std::abort();
        return std::move(c.value());
    }();
    return m;
}

} // namespace sp::fuzz
