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

namespace sp::session {

namespace {

// The smoke test prints one JSON object with "ok"; the last such line counts.
bool looksLikeResult(const std::string& line)
{
    const auto start = line.find_first_not_of(" \t");
    return start != std::string::npos && line[start] == '{' &&
           line.find("\"ok\"") != std::string::npos;
}

std::string text(const nlohmann::json& j, const char* key)
{
    const auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

struct SmokeOutput
{
    std::string resultLine;
    std::string knownTitle;
    std::string exitText;
};

// Passed: the process exited 0, printed {"ok": true, ...} and matched no known issue.
void judge(StackVerified& v, bool exitedWell, const SmokeOutput& out)
{
    auto parsed = parseJsonText(out.resultLine, "smoke test output", {1u << 16, 8});
    if (parsed && parsed->is_object())
        v.result = *parsed;
    const auto ok = v.result.find("ok");
    const bool saysOk = ok != v.result.end() && ok->is_boolean() && ok->get<bool>();
    if (const auto s = v.result.find("seconds"); s != v.result.end() && s->is_number())
        v.seconds = s->get<double>();
    v.device = text(v.result, "device");
    v.arch = text(v.result, "arch");
    v.passed = exitedWell && saysOk && v.knownIssue.empty();
    if (!v.knownIssue.empty())
        v.reason = "known issue " + v.knownIssue + ": " + out.knownTitle;
    else if (!v.result.empty() && !saysOk)
        v.reason =
            text(v.result, "error").empty() ? "it reported \"ok\": false" : text(v.result, "error");
    else if (!exitedWell)
        v.reason = "the smoke test " + (out.exitText.empty() ? "failed" : out.exitText);
    else if (v.result.empty())
        v.reason = "the smoke test printed no result line";
}

std::string isoNow()
{
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                        Clock::system().now().time_since_epoch())
                        .count();
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(Qt::ISODate).toStdString();
}

} // namespace

Expected<StackVerified> Session::verify(const LaunchRequest& request, EvidenceKind kind)
{
    if (request.plan.verify.empty())
        return Error::usage("profile " + request.plan.profile +
                            " has no smoke test (neither it nor its workload declares \"verify\")");
    Plan smoke = request.plan;
    smoke.command = request.plan.verify;
    smoke.args.clear();
    LaunchRequest check = request;
    check.composed = composeLaunch(smoke, m_ctx.userEnv, m_ctx.snapshot.os.family);
    check.port.reset();
    check.urlRegex.clear();
    StackVerified v;
    v.profile = request.plan.profile;
    SmokeOutput out;
    auto sink = [&](const Event& e) {
        if (const auto* l = std::get_if<ConsoleLine>(&e); l && looksLikeResult(l->text))
            out.resultLine = l->text;
        if (const auto* k = std::get_if<KnownIssueSeen>(&e); k && v.knownIssue.empty()) {
            v.knownIssue = k->id;
            out.knownTitle = k->title;
        }
        if (const auto* x = std::get_if<WorkloadExited>(&e))
            out.exitText = x->text;
        send(e);
    };
    auto exitedWell = runLaunch(std::move(check), sink, nullptr);
    if (!exitedWell)
        return fail(Stage::Verify, exitedWell.error());
    if (cancelled())
        return fail(Stage::Verify, Error::cancelled("smoke test stopped"));
    judge(v, *exitedWell, out);
    record(request, v, kind);
    send(v);
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
    r.result = v.result;
    const EvidenceStore evidence(m_ctx.evidenceFile.empty() ? EvidenceStore::defaultFile()
                                                            : m_ctx.evidenceFile);
    if (auto added = evidence.add(r); !added)
        send(Notice{Stage::Verify, {}, "the result was not recorded: " + added.error().message});
}

Expected<std::map<std::string, LocalVerdict>> Session::verdicts() const
{
    const EvidenceStore evidence(m_ctx.evidenceFile.empty() ? EvidenceStore::defaultFile()
                                                            : m_ctx.evidenceFile);
    auto records = evidence.records();
    if (!records)
        return records.error();
    return verdictsFor(*records, fingerprintOf(m_ctx.snapshot, chooseGpu(m_ctx.snapshot)));
}

} // namespace sp::session
