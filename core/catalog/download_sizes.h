#pragma once
// What a catalog knows about the size of its downloads (docs/CATALOG.md, "Sizes"): how
// many artifacts carry a size, which do not and why, and the total a plan downloads.
// `catalog check` reports the counts; the window's card and checklist show the total and
// name every part whose size is not known before it is downloaded.

#include "core/catalog/types.h"

#include <cstdint>
#include <string>
#include <vector>

namespace sp {

struct SizeCount
{
    int downloads = 0;  // artifacts fetched over HTTP (every one but git checkouts)
    int sized = 0;      // with a size (checked or not)
    int unverified = 0; // of them, "size_unverified": shown, not enforced
    int unknown = 0;    // "size_unknown": no public source gave one
    int unmarked = 0;   // neither a size nor the mark: a gap in the catalog
    int git = 0;        // git checkouts: what a fetch transfers is not known before it
    // Every download without a size, in catalog order: "runtime-id: file-name".
    std::vector<std::string> withoutSize;
    int withoutSizeCount() const { return unknown + unmarked; }
};

SizeCount countSizes(const Catalog& catalog);

// The download of one runtime: the sum of its artifacts' sizes, and whether that is all
// of it. A runtime whose packages pip picks from an index (no artifacts), one with a git
// checkout, or one with an artifact of unknown size is not fully known; a runtime the
// system provides is not downloaded at all.
struct RuntimeDownload
{
    std::uint64_t bytes = 0;
    bool complete = true;
    bool downloaded = true; // false: installed by the system or its own installer
};

RuntimeDownload runtimeDownload(const Runtime& runtime);

} // namespace sp
