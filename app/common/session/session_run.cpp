// The one-click path (`run`, the window's primary button, the Profiles menu and the
// tray): choose the profile, check its downloads, ask (ConfirmInstall), install, prove
// the stack with its smoke test, launch; a profile whose download is gone or whose smoke
// test fails gives way to the next one. It runs on the worker, one step after another;
// the confirmation and the launches are waited for on the worker's loop, not in it.

#include "app/common/session/session.h"
#include "core/launch/launch_prep.h"
#include "core/paths.h"
#include "installers/prefix_store.h"

#include <QDateTime>
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

// The free space where the runtimes go (the nearest folder that exists).
std::optional<std::uint64_t> freeSpace(std::filesystem::path dir)
{
    std::error_code ec;
    while (!dir.empty() && !std::filesystem::exists(dir, ec) && dir.has_parent_path() &&
           dir.parent_path() != dir)
        dir = dir.parent_path();
    const auto s = std::filesystem::space(dir, ec);
    if (ec)
        return std::nullopt;
    return std::uint64_t(s.available);
}

} // namespace

struct Session::Pending
{
    LaunchRequest request;
    bool installing = false;
};

bool Session::startRun(RunOptions options)
{
    return begin([this, options = std::move(options)]() mutable {
        m_run = std::move(options);
        if (auto model = resolveRunModel(); !model)
            return finish(fail(Stage::Plan, model.error()));
        // Said once per run, not once per profile tried.
        if (auto settings = this->settings())
            for (const auto& line : gpuNotes(m_ctx, &*settings, m_run.workload))
                send(Notice{Stage::Plan, {}, line});
        m_skipped.clear();
        m_forced = m_run.profile;
        m_tried = 0;
        runNext();
    });
}

bool Session::startInstall(InstallWork work)
{
    return begin([this, work = std::move(work)] { runInstall(work); });
}

bool Session::startLaunch(LaunchRequest request, bool installMissing)
{
    return begin([this, request = std::move(request), installMissing]() mutable {
        if (auto ready = readyToLaunch(request, installMissing); !ready)
            return finish(ready.error());
        launchWorkload(std::move(request));
    });
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
    CancelToken cancel;
    {
        std::lock_guard lock(m_cancelLock);
        cancel = m_installCancel;
    }
    const auto start = std::chrono::steady_clock::now();
    Preflight p = sp::preflight(runtimes, fo, cancel);
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    if (!p.cancelled) // a cancelled check concludes nothing
        send(PreflightChecked{profile, p.firstMissing() == nullptr, p.missingReason(),
                              int(p.artifacts.size()), p.downloadBytes, p.sizesKnown,
                              took.count()});
    return p;
}

bool Session::needsVerify(const LaunchRequest& request, bool installedNow) const
{
    if (request.plan.verify.empty())
        return false;
    if (installedNow || request.rerunSteps)
        return true;
    auto verdicts = this->verdicts(request.plan.gpu); // a pass on another card is no pass here
    if (!verdicts)
        return true;
    const auto it = verdicts->find(request.plan.profile);
    return it == verdicts->end() || it->second.state != LocalVerdict::State::Passed;
}

bool Session::skip(const std::string& profile, const std::string& reason, Stage stage)
{
    m_skipped.push_back(profile);
    auto next = pickProfile(m_run.workload, "");
    const std::string to = next ? *next : std::string();
    send(ProfileSwitched{profile, to, reason, m_run.autoFallback && !to.empty()});
    // Skipped at the preflight: a download is not where the catalog says.
    const Cause cause = stage == Stage::Preflight ? Cause::NotFound : Cause::Unknown;
    if (to.empty()) {
        finish(fail(Stage::Plan, Error::runtime(profile + " cannot be used (" + reason +
                                                ") and no other profile of " + m_run.workload +
                                                " fits this machine")
                                     .withCause(cause)));
        return false;
    }
    if (!m_run.autoFallback) {
        finish(fail(stage, Error::runtime(profile + " cannot be used on this machine (" + reason +
                                          "); StackPilot can switch to " + to +
                                          ": run again with --auto-fallback, or with "
                                          "--profile " +
                                          to)
                               .withCause(cause)));
        return false;
    }
    return true;
}

// What the user is asked before an install, from the plan and the preflight.
ConfirmInstall Session::confirmation(const LaunchRequest& request, const Preflight& p) const
{
    ConfirmInstall c;
    c.workload = request.plan.workload;
    c.profile = request.plan.profile;
    c.runtimes = toInstall(request);
    c.downloadBytes = p.downloadBytes;
    c.sizesKnown = p.sizesKnown && !p.offline;
    // Online the preflight knows which downloads no one sized; offline the catalog says.
    const bool fromCatalog = p.offline || p.artifacts.empty();
    if (!fromCatalog)
        c.unsized = p.unsizedRuntimes();
    for (const std::string& id : c.runtimes) {
        const Runtime* r = m_ctx.catalog->runtime(id);
        if (!r)
            continue;
        bool sized = !r->artifacts.empty() || r->system; // pip picks wheels: no size before
        for (const Artifact& a : r->artifacts) {
            sized = sized && (!fromCatalog || a.expectedSize());
            c.unpinned += a.pinned() ? 0 : 1;
            c.catalogBytes += a.expectedSize().value_or(0);
        }
        if (!sized)
            c.unsized.push_back(id);
        if (r->system || r->installDir.find("Program Files") != std::string::npos)
            c.needsAdmin.push_back(id);
    }
    if (fromCatalog)
        c.downloadBytes = c.catalogBytes;
    // An archive is downloaded, then unpacked beside it: about twice its size at once.
    c.diskNeeded = c.downloadBytes * 2;
    c.diskFree =
        freeSpace(m_ctx.prefixRoot.empty() ? PrefixStore::defaultRoot() : m_ctx.prefixRoot);
    if (const Profile* prof = m_ctx.catalog->profile(request.plan.profile))
        c.advice = prof->warnings;
    if (m_pullModel) { // pinned by digest and size: its size is known, and not unpacked
        c.model = m_pullModel->id;
        c.modelBytes = m_pullModel->bytes();
        c.downloadBytes += c.modelBytes;
        c.diskNeeded += c.modelBytes;
    }
    return c;
}

// One profile of the run, up to the confirmation.
void Session::runNext()
{
    if (++m_tried > kMaxProfilesTried)
        return finish(
            fail(Stage::Plan, Error::runtime("gave up after " + std::to_string(kMaxProfilesTried) +
                                             " profiles of " + m_run.workload)));
    auto profile = chooseProfile(m_run.workload, std::exchange(m_forced, {}));
    if (!profile)
        return finish(profile.error());
    auto request = prepare(*profile, m_run.extraArgs);
    if (!request)
        return finish(request.error());
    request->rerunSteps = m_run.rerunSteps;
    const bool installing = !toInstall(*request).empty();
    if (!installing && !m_pullModel)
        return runProvisioned(std::move(*request), false);
    const Preflight p = installing ? preflight(*request, m_run.install) : Preflight{};
    if (p.cancelled)
        return finish(fail(Stage::Preflight, Error::cancelled("nothing was downloaded")));
    if (p.firstMissing()) {
        if (skip(*profile, "a download is missing: " + p.missingReason(), Stage::Preflight))
            runNext();
        return;
    }
    if (m_run.confirm) {
        send(confirmation(*request, p));
        m_pending = std::make_unique<Pending>(Pending{std::move(*request), installing});
        return; // confirm() goes on
    }
    runProvisioned(std::move(*request), installing);
}

void Session::confirm(bool yes)
{
    post([this, yes] {
        if (!m_pending)
            return;
        auto pending = std::move(m_pending);
        if (!yes || cancelled())
            return finish(fail(Stage::Install, Error::cancelled("nothing was installed")));
        runProvisioned(std::move(pending->request), pending->installing);
    });
}

// Repairs and installs, the smoke test when due, then the launch.
void Session::runProvisioned(LaunchRequest request, bool installing)
{
    if (auto pulled = pullRunModel(request); !pulled)
        return finish(pulled.error());
    if (installing && !m_run.journal.empty())
        (void)writePendingInstall(
            m_run.journal,
            PendingInstall{m_run.workload,
                           request.plan.profile,
                           toInstall(request),
                           QDateTime::currentDateTimeUtc().toString(Qt::ISODate).toStdString(),
                           {}});
    if (auto ready = readyToLaunch(request, true, m_run.install); !ready) {
        if (installing && !m_run.journal.empty()) {
            if (!cancelled())
                markPendingInstallFailed(m_run.journal, ready.error().message);
            else if (!m_closing)
                clearPendingInstall(m_run.journal);
        }
        return finish(ready.error());
    }
    if (installing && !m_run.journal.empty())
        clearPendingInstall(m_run.journal);
    auto launch = [this](LaunchRequest r) {
        if (cancelled())
            return finish(fail(Stage::Launch, Error::cancelled()));
        launchWorkload(std::move(r));
    };
    if (!m_run.verify || !needsVerify(request, installing))
        return launch(std::move(request));
    auto shared = std::make_shared<LaunchRequest>(std::move(request));
    verifyThen(
        *shared, EvidenceKind::Verify, [this, shared, launch](Expected<StackVerified> v) mutable {
            if (!v)
                return finish(v.error());
            if (v->passed)
                return launch(std::move(*shared));
            if (skip(shared->plan.profile, "its smoke test failed: " + v->reason, Stage::Verify))
                runNext();
        });
}

} // namespace sp::session
