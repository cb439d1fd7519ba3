#include "installers/preflight.h"

#include "core/paths.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

namespace sp {

namespace fs = std::filesystem;

namespace {

// The offline folder holds the artifact under the URL's last segment (install
// --offline looks there first; a file found only by its digest is found at install).
bool inOfflineFolder(const Artifact& a, const fs::path& dir)
{
    std::error_code ec;
    return fs::is_regular_file(dir / paths::fromUtf8(a.displayName()), ec);
}

bool inCache(const Artifact& a, const Fetcher& fetcher)
{
    if (!a.sha256)
        return false;
    std::error_code ec;
    return fs::is_regular_file(fetcher.downloader().cachedFile(*a.sha256), ec);
}

// The network URLs in the order an install tries them: the first that answers wins;
// a missing answer from every one makes the artifact missing.
void probeNetwork(PreflightArtifact& out, const Artifact& a, const Fetcher& fetcher,
                  const CancelToken& cancel)
{
    const auto urls = fetcher.urlsFor(a);
    UrlProbe last;
    for (const std::string& url : urls) {
        if (cancel.cancelled())
            break;
        last = probeUrl(url, fetcher.downloader().options(), a.pinned(), cancel);
        if (last.state == UrlState::Present) {
            out.url = url;
            out.state = UrlState::Present;
            out.size = a.size ? a.size : last.size ? last.size : a.unverifiedSize;
            return;
        }
        if (out.url.empty() || last.state == UrlState::Missing)
            out.url = url;
        if (last.state == UrlState::Unknown)
            out.state = UrlState::Unknown; // one unknown answer keeps it from being "missing"
    }
    if (out.state != UrlState::Unknown)
        out.state = last.state;
    out.unresolved = out.state == UrlState::Missing && last.unresolved;
    out.reason = last.reason + " at " + out.url;
    out.size = a.expectedSize();
}

PreflightArtifact checkArtifact(const Runtime& rt, const Artifact& a, const Fetcher& fetcher,
                                const FetchOptions& o, const CancelToken& cancel)
{
    PreflightArtifact out;
    out.runtime = rt.id;
    out.name = a.displayName();
    out.url = a.url;
    out.size = a.expectedSize();
    out.state = UrlState::Missing; // until a source answers
    if (a.isGit()) {
        // The commit is fetched by git at install; its reachability is git's to tell.
        out.source = "git";
        out.state = UrlState::Unknown;
        out.reason = "a git checkout is checked when it is fetched";
    } else if (o.offlineDir && inOfflineFolder(a, *o.offlineDir)) {
        out.source = "offline";
        out.state = UrlState::Present;
    } else if (inCache(a, fetcher)) {
        out.source = "cache";
        out.state = UrlState::Present;
    } else if (!o.allowNetwork) {
        out.source = "offline";
        out.reason =
            "not in the offline folder " + paths::toUtf8(o.offlineDir.value_or(fs::path{}));
    } else {
        out.source = "network";
        probeNetwork(out, a, fetcher, cancel);
    }
    return out;
}

bool dnsFailure(const PreflightArtifact& a)
{
    return a.state == UrlState::Missing && a.unresolved;
}

} // namespace

const PreflightArtifact* Preflight::firstMissing() const
{
    if (offline || cancelled)
        return nullptr;
    for (const auto& a : artifacts)
        if (a.state == UrlState::Missing)
            return &a;
    return nullptr;
}

std::string Preflight::missingReason() const
{
    const PreflightArtifact* a = firstMissing();
    return a ? a->runtime + ": " + a->name + ": " + a->reason : std::string();
}

std::vector<std::string> Preflight::unsizedRuntimes() const
{
    std::vector<std::string> ids;
    for (const auto& a : artifacts)
        if ((a.source == "network" || a.source == "git") && !a.size &&
            std::find(ids.begin(), ids.end(), a.runtime) == ids.end())
            ids.push_back(a.runtime);
    return ids;
}

Preflight preflight(const std::vector<const Runtime*>& runtimes, const FetchOptions& options,
                    const CancelToken& cancel)
{
    const Fetcher fetcher(options);
    Preflight p;
    for (const Runtime* rt : runtimes) {
        if (rt->system)
            continue;
        for (const Artifact& a : rt->artifacts) {
            if ((p.cancelled = cancel.cancelled()))
                return p;
            p.artifacts.push_back(checkArtifact(*rt, a, fetcher, options, cancel));
            const auto& last = p.artifacts.back();
            if (last.source == "network" || last.source == "git")
                last.size ? void(p.downloadBytes += *last.size) : void(p.sizesKnown = false);
        }
    }
    // A host that does not resolve while others do is gone; when none resolves, this
    // machine is offline and nothing can be concluded about the catalog.
    const bool anyNetwork = std::any_of(p.artifacts.begin(), p.artifacts.end(),
                                        [](const auto& a) { return a.source == "network"; });
    p.offline = anyNetwork &&
                std::all_of(p.artifacts.begin(), p.artifacts.end(),
                            [](const auto& a) { return a.source != "network" || dnsFailure(a); });
    p.cancelled = cancel.cancelled();
    return p;
}

} // namespace sp
