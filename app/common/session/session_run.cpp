// The one-click path (`run`, the window's primary button): choose the profile, check
// its downloads, install, prove the stack with its smoke test, launch; a profile whose
// download is gone or whose smoke test fails gives way to the next one.

#include "app/common/session/session.h"
#include "core/launch/launch_prep.h"
#include "core/select/workload_overrides.h"
#include "installers/pin_store.h"

#include <algorithm>
#include <chrono>

namespace sp::session {

namespace {

// A workload has a handful of profiles per machine; this bounds a run whatever the
// catalog says.
constexpr int kMaxProfilesTried = 16;

std::vector<std::string> toInstall(const LaunchRequest& request)
{
    std::vector<std::string> ids = request.plan.repair;
    for (const std::string& id : missingRuntimes(request.plan))
        if (std::find(ids.begin(), ids.end(), id) == ids.end())
            ids.push_back(id);
    return ids;
}

} // namespace

Expected<SelectSettings> Session::selectBase() const
{
    SelectSettings base = hostSelectSettings(m_ctx.snapshot);
    // A damaged evidence file costs the ranking its local evidence, not the launch.
    if (auto verdicts = this->verdicts())
        base.localVerdicts = std::move(*verdicts);
    else
        send(Notice{Stage::Plan,
                    {},
                    verdicts.error().message + " (planning without this machine's records)"});
    base.excludeProfiles = m_skipped;
    base.pinnedHere = PinStore().urls();
    return base;
}

Preflight Session::preflight(const LaunchRequest& request, const InstallOptions& base)
{
    std::vector<const Runtime*> runtimes;
    for (const std::string& id : toInstall(request))
        if (const Runtime* rt = m_ctx.catalog->runtime(id))
            runtimes.push_back(rt);
    return preflight(runtimes, base, request.plan.profile);
}

Preflight Session::preflight(const std::vector<const Runtime*>& runtimes,
                             const InstallOptions& base, const std::string& profile)
{
    FetchOptions fo;
    fo.offlineDir = base.offlineDir;
    fo.allowNetwork = base.allowNetwork;
    if (auto s = settings())
        fo.settings = *s;
    fo.downloader = base.downloader;
    const auto start = std::chrono::steady_clock::now();
    Preflight p = sp::preflight(runtimes, fo);
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    send(PreflightChecked{profile, p.firstMissing() == nullptr, p.missingReason(),
                          int(p.artifacts.size()), p.downloadBytes, p.sizesKnown, took.count()});
    return p;
}

bool Session::needsVerify(const LaunchRequest& request, bool installedNow) const
{
    if (request.plan.verify.empty())
        return false;
    if (installedNow || request.rerunSteps)
        return true;
    auto verdicts = this->verdicts();
    if (!verdicts)
        return true;
    const auto it = verdicts->find(request.plan.profile);
    return it == verdicts->end() || it->second.state != LocalVerdict::State::Passed;
}

Expected<void> Session::skip(const std::string& profile, const std::string& reason,
                             const RunOptions& options, Stage stage)
{
    m_skipped.push_back(profile);
    auto next = pickProfile(options.workload, "");
    const std::string to = next ? *next : std::string();
    send(ProfileSwitched{profile, to, reason, options.autoFallback && !to.empty()});
    if (to.empty())
        return fail(Stage::Plan, Error::runtime(profile + " cannot be used (" + reason +
                                                ") and no other profile of " + options.workload +
                                                " fits this machine"));
    if (!options.autoFallback)
        return fail(stage,
                    Error::runtime(profile + " cannot be used on this machine (" + reason +
                                   "); StackPilot can switch to " + to +
                                   ": run again with --auto-fallback, or with --profile " + to));
    return {};
}

// Preflight, confirmation, repairs and installs; false when a download of the profile
// is gone (the caller moves on).
Expected<bool> Session::provision(LaunchRequest& request, const RunOptions& options,
                                  std::string& missing)
{
    const auto ids = toInstall(request);
    InstallPreview preview{ids, 0, true, {}};
    if (!ids.empty()) {
        const Preflight p = preflight(request, options.install);
        if (p.firstMissing()) {
            missing = p.missingReason();
            return false;
        }
        preview.downloadBytes = p.downloadBytes;
        preview.sizesKnown = p.sizesKnown;
        preview.unsized = p.unsizedRuntimes();
    }
    if (options.confirm && !ids.empty() && !options.confirm(request, preview))
        return fail(Stage::Install, Error::cancelled("nothing was installed"));
    if (auto ready = readyToLaunch(request, true, options.install); !ready)
        return ready.error();
    return true;
}

Expected<bool> Session::runProfile(const RunOptions& options, const std::string& profile,
                                   Expected<bool>& launched, std::filesystem::path* log)
{
    auto request = prepare(profile, options.extraArgs);
    if (!request)
        return request.error();
    request->rerunSteps = options.rerunSteps;
    const bool installing = !toInstall(*request).empty();
    std::string missing;
    auto ready = provision(*request, options, missing);
    if (!ready)
        return ready.error();
    if (!*ready) {
        if (auto next =
                skip(profile, "a download is missing: " + missing, options, Stage::Preflight);
            !next)
            return next.error();
        return false;
    }
    if (options.verify && needsVerify(*request, installing)) {
        auto v = verify(*request);
        if (!v)
            return v.error();
        if (!v->passed) {
            if (auto next =
                    skip(profile, "its smoke test failed: " + v->reason, options, Stage::Verify);
                !next)
                return next.error();
            return false;
        }
    }
    if (cancelled())
        return fail(Stage::Launch, Error::cancelled());
    launched = launch(std::move(*request), log);
    return true;
}

Expected<bool> Session::run(const RunOptions& options, std::filesystem::path* log)
{
    m_skipped.clear();
    std::string forced = options.profile;
    for (int tried = 0; tried < kMaxProfilesTried; ++tried) {
        auto profile = chooseProfile(options.workload, forced);
        if (!profile)
            return profile.error();
        Expected<bool> launched = false;
        auto done = runProfile(options, *profile, launched, log);
        if (!done)
            return done.error();
        if (*done)
            return launched;
        forced.clear(); // the user's choice was tried; the ranking picks the next
    }
    return fail(Stage::Plan, Error::runtime("gave up after " + std::to_string(kMaxProfilesTried) +
                                            " profiles of " + options.workload));
}

} // namespace sp::session
