#pragma once
// Before any byte of an install is written: is every artifact of these runtimes still
// where the catalog (or the user's mirrors, or the offline folder) says, and how much
// will be downloaded? A profile with a missing artifact is unavailable now, with the
// reason, and selection moves on before anything is fetched.

#include "core/catalog/types.h"
#include "installers/fetcher.h"
#include "installers/url_probe.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sp {

struct PreflightArtifact
{
    std::string runtime;
    std::string name; // the artifact's display name
    std::string url;  // the URL that answered, or the first one tried
    UrlState state = UrlState::Unknown;
    std::string source; // "network" | "cache" | "offline" | "git"
    std::optional<std::uint64_t> size;
    std::string reason;      // why it is missing or unknown
    bool unresolved = false; // missing because its host did not resolve
};

struct Preflight
{
    std::vector<PreflightArtifact> artifacts;
    std::uint64_t downloadBytes = 0; // from the network, sizes known
    bool sizesKnown = true;          // false when an artifact's size could not be learned
    bool offline = false;            // every host failed to resolve: nothing concluded
    bool cancelled = false;          // stopped by a cancel: the answers are incomplete

    // The first missing artifact, or null when the runtimes can be installed.
    const PreflightArtifact* firstMissing() const;
    // "rocm-7.2: rocm-wheels.tar.gz: HTTP 404 at https://..." for the first missing one.
    std::string missingReason() const;
    // The runtimes (ids, in order, once each) with a download neither the catalog nor the
    // server gave a size for: what downloadBytes leaves out, to be named, not hidden.
    std::vector<std::string> unsizedRuntimes() const;
};

// Checks every artifact of `runtimes` (the ones still to install) the way an install
// would fetch it: offline folder, download cache, then the network URLs in order.
// A cancel stops it between requests and inside one (`cancelled` is then set).
Preflight preflight(const std::vector<const Runtime*>& runtimes, const FetchOptions& options,
                    const CancelToken& cancel = {});

} // namespace sp
