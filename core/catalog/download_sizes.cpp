#include "core/catalog/download_sizes.h"

namespace sp {

SizeCount countSizes(const Catalog& catalog)
{
    SizeCount c;
    for (const Runtime& rt : catalog.runtimes)
        for (const Artifact& a : rt.artifacts) {
            if (a.isGit()) {
                ++c.git;
                continue;
            }
            ++c.downloads;
            if (a.expectedSize()) {
                ++c.sized;
                c.unverified += a.unverifiedSize ? 1 : 0;
                continue;
            }
            ++(a.sizeUnknown ? c.unknown : c.unmarked);
            c.withoutSize.push_back(rt.id + ": " + a.displayName());
        }
    return c;
}

RuntimeDownload runtimeDownload(const Runtime& runtime)
{
    RuntimeDownload d;
    if (runtime.system) {
        d.downloaded = false;
        return d;
    }
    // Packages pip fetches from an index (PyTorch wheels) are chosen at install time.
    d.complete = !runtime.artifacts.empty();
    for (const Artifact& a : runtime.artifacts) {
        if (const auto n = a.expectedSize())
            d.bytes += *n;
        else
            d.complete = false;
    }
    return d;
}

} // namespace sp
