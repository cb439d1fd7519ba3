// Proving a stack on this card: the smoke test (the profile's `verify`, run like the
// workload after the setup steps), the evidence it leaves, and what is built on that
// evidence: the verdicts selection ranks by, `rollback` and `bench`.

#include "app/common/session/session.h"
#include "core/clock.h"
#include "core/json_file.h"
#include "core/launch/env_composer.h"
#include "installers/prefix_store.h"

#include <QDateTime>
#include <algorithm>
#include <cstdlib>

namespace sp::session {

namespace {

// What a smoke test's tree gets after its first process exited, and how long a stop
// waits before it kills: it has said its word by then (docs/VERIFY.md).
constexpr int kAfterMainMs = 3000;
constexpr int kSmokeGraceMs = 2000;

// The smoke test's deadline: STACKPILOT_VERIFY_TIMEOUT_S (a slow machine, a test), else
// the profile's, else the workload's, else the default.
int deadlineSeconds(const Catalog& catalog, const Plan& plan, const EnvMap& userEnv)
{
    if (const auto e = userEnv.find("STACKPILOT_VERIFY_TIMEOUT_S"); e != userEnv.end()) {
        const int s = std::atoi(e->second.c_str());
        if (s >= 1 && s <= kMaxVerifyTimeoutS)
            return s;
    }
    const Profile* p = catalog.profile(plan.profile);
    const Workload* w = catalog.workload(plan.workload);
    if (p && p->verifyTimeoutS)
        return *p->verifyTimeoutS;
    return w && w->verifyTimeoutS ? *w->verifyTimeoutS : kDefaultVerifyTimeoutS;
}

std::string isoNow()
{
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                        Clock::system().now().time_since_epoch())
                        .count();
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(Qt::ISODate).toStdString();
}

} // namespace

bool Session::startVerify(LaunchRequest request, EvidenceKind kind)
{
    return begin([this, request = std::move(request), kind] {
        verifyThen(request, kind, [this](Expected<StackVerified> v) {
            Outcome o;
            o.result = v ? Expected<bool>(v->passed) : Expected<bool>(v.error());
            finish(std::move(o));
        });
    });
}

void Session::verifyThen(const LaunchRequest& request, EvidenceKind kind,
                         std::function<void(Expected<StackVerified>)> then)
{
    if (request.plan.verify.empty())
        return then(Error::usage("profile " + request.plan.profile +
                                 " has no smoke test (neither it nor its workload declares "
                                 "\"verify\")"));
    Plan smoke = request.plan;
    smoke.command = request.plan.verify;
    smoke.args.clear();
    LaunchRequest check = request;
    check.composed = composeLaunch(smoke, m_ctx.userEnv, m_ctx.snapshot.os.family);
    check.port.reset();
    check.urlRegex.clear();
    const int deadlineS = deadlineSeconds(*m_ctx.catalog, request.plan, m_ctx.userEnv);
    check.deadlineMs = deadlineS * 1000;
    check.afterMainMs = kAfterMainMs;
    check.graceMs = std::min(check.graceMs, kSmokeGraceMs);
    // What the smoke test said, gathered from its events as they pass to the front end.
    auto out = std::make_shared<SmokeOutput>();
    auto end = std::make_shared<SmokeEnd>();
    end->deadlineS = deadlineS;
    auto sink = [this, out, end](Event&& e) {
        if (const auto* l = std::get_if<ConsoleLine>(&e))
            out->line(l->text);
        if (const auto* k = std::get_if<KnownIssueSeen>(&e); k && end->knownIssue.empty()) {
            end->knownIssue = k->id;
            end->knownTitle = k->title;
        }
        if (const auto* x = std::get_if<WorkloadExited>(&e))
            end->exitText = x->end.text;
        send(std::move(e));
    };
    launchThen(
        std::move(check), sink,
        [this, out, end, request, kind, deadlineS, then = std::move(then)](LaunchEnd l) {
            if (!l.ok)
                return then(fail(Stage::Verify, l.ok.error()));
            if (cancelled())
                return then(fail(Stage::Verify, Error::cancelled("smoke test stopped")));
            end->timedOut = l.timedOut;
            end->exitedWell = *l.ok;
            then(judge(request, *out, *end, kind, deadlineS));
        },
        true);
}

StackVerified Session::judge(const LaunchRequest& request, const SmokeOutput& out,
                             const SmokeEnd& end, EvidenceKind kind, int deadlineS)
{
    const Profile* profile = m_ctx.catalog->profile(request.plan.profile);
    const SmokeVerdict j = judgeSmoke(
        out, end, expectedDevice(m_ctx.snapshot, request.plan, profile && profile->fallback));
    StackVerified v{request.plan.profile,
                    j.passed,
                    j.reason,
                    end.knownIssue,
                    j.seconds,
                    j.device,
                    j.arch,
                    j.result,
                    j.cause,
                    j.deviceCheck,
                    deadlineS};
    record(request, v, kind);
    send(v);
    m_verified.push_back(v);
    return v;
}

void Session::record(const LaunchRequest& request, const StackVerified& v, EvidenceKind kind) const
{
    EvidenceRecord r;
    r.kind = kind;
    r.at = isoNow();
    r.machine = fingerprintOf(m_ctx.snapshot, request.plan.gpu);
    r.workload = request.plan.workload;
    r.profile = request.plan.profile;
    r.catalog = m_ctx.catalogVersion.empty() ? "shipped" : m_ctx.catalogVersion;
    const PrefixStore store(m_ctx.prefixRoot);
    for (const auto& rt : request.plan.runtimes) {
        EvidenceRuntime e{rt.id, rt.version, {}};
        if (auto receipt = store.receipt(rt.id))
            for (const auto& a : receipt->artifacts)
                e.sha256.push_back(a.sha256);
        r.runtimes.push_back(std::move(e));
    }
    r.passed = v.passed;
    r.seconds = v.seconds;
    r.knownIssue = v.knownIssue;
    r.reason = v.reason;
    r.cause = toString(v.cause);
    r.deviceCheck = v.deviceCheck;
    r.result = v.result;
    const EvidenceStore evidence(m_ctx.evidenceFile.empty() ? EvidenceStore::defaultFile()
                                                            : m_ctx.evidenceFile);
    if (auto added = evidence.add(r); !added)
        send(Notice{Stage::Verify, {}, "the result was not recorded: " + added.error().message});
}

Expected<std::map<std::string, LocalVerdict>> Session::verdicts() const
{
    return machineVerdicts(m_ctx, chooseGpu(m_ctx.snapshot));
}

Expected<std::map<std::string, LocalVerdict>> Session::verdicts(std::optional<int> gpu) const
{
    return machineVerdicts(m_ctx, gpu);
}

} // namespace sp::session
