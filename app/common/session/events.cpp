#include "app/common/session/events.h"

#include "core/paths.h"

namespace sp::session {

namespace {

using nlohmann::json;

json optional(const std::optional<std::uint64_t>& v)
{
    return v ? json(*v) : json(nullptr);
}

} // namespace

const char* toString(Stage s)
{
    switch (s) {
    case Stage::Plan:
        return "plan";
    case Stage::Preflight:
        return "preflight";
    case Stage::Verify:
        return "verify";
    case Stage::Recover:
        return "recover";
    case Stage::Install:
        return "install";
    case Stage::Repair:
        return "repair";
    case Stage::Launch:
        return "launch";
    }
    return "?";
}

const char* toString(StepState s)
{
    switch (s) {
    case StepState::Started:
        return "started";
    case StepState::Done:
        return "done";
    case StepState::Skipped:
        return "skipped";
    case StepState::Failed:
        return "failed";
    case StepState::Stopped:
        return "stopped";
    case StepState::Warning:
        return "warning";
    }
    return "?";
}

namespace {

// The launch's step states, read once here.
StepState stepState(const std::string& s)
{
    for (auto state : {StepState::Started, StepState::Done, StepState::Skipped, StepState::Failed,
                       StepState::Stopped})
        if (s == toString(state))
            return state;
    return StepState::Warning;
}

} // namespace

namespace {

json eventJson(const RuntimeStarted& x)
{
    return {
        {"event", "runtime_started"}, {"runtime", x.runtime}, {"index", x.index}, {"of", x.count}};
}

json eventJson(const ArtifactProgress& x)
{
    return {{"event", "progress"},     {"runtime", x.runtime},   {"artifact", x.artifact},
            {"name", x.name},          {"received", x.received}, {"total", optional(x.total)},
            {"rate", x.bytesPerSecond}};
}

json eventJson(const ArtifactDone& x)
{
    return {{"event", "artifact_done"},
            {"runtime", x.runtime},
            {"artifact", x.artifact},
            {"name", x.name}};
}

json eventJson(const RuntimeInstalled& x)
{
    return {{"event", "runtime_installed"},
            {"runtime", x.runtime},
            {"dir", paths::toUtf8(x.dir)},
            {"files", x.files},
            {"already_installed", x.alreadyInstalled}};
}

json eventJson(const Notice& x)
{
    return {{"event", "notice"},
            {"stage", toString(x.stage)},
            {"runtime", x.runtime},
            {"text", x.text}};
}

json eventJson(const StepChanged& x)
{
    return x.detail;
}

json eventJson(const ConsoleLine& x)
{
    return {{"event", "line"}, {"stream", x.isStderr ? "stderr" : "stdout"}, {"text", x.text}};
}

json eventJson(const UrlAnnounced& x)
{
    return {{"event", "url"}, {"url", x.url}};
}

json eventJson(const KnownIssueSeen& x)
{
    return {{"event", "known_issue"}, {"known_issue", x.id}, {"title", x.title},  {"line", x.line},
            {"excerpt", x.excerpt},   {"remedy", x.remedy},  {"action", x.action}};
}

json eventJson(const WorkloadExited& x)
{
    return x.detail;
}

json eventJson(const Failed& x)
{
    return {{"event", "error"},
            {"stage", toString(x.stage)},
            {"kind", int(x.kind)},
            {"message", x.message},
            {"cause", toString(x.cause)}};
}

json eventJson(const PreflightChecked& x)
{
    return {{"event", "preflight"},        {"profile", x.profile},
            {"available", x.available},    {"reason", x.reason},
            {"artifacts", x.artifacts},    {"download_bytes", x.downloadBytes},
            {"sizes_known", x.sizesKnown}, {"seconds", x.seconds}};
}

json eventJson(const StackVerified& x)
{
    return {{"event", "verified"},
            {"profile", x.profile},
            {"passed", x.passed},
            {"reason", x.reason},
            {"known_issue", x.knownIssue},
            {"seconds", x.seconds ? json(*x.seconds) : json(nullptr)},
            {"device", x.device},
            {"arch", x.arch},
            {"result", x.result},
            {"cause", toString(x.cause)},
            {"device_check", x.deviceCheck},
            {"deadline_s", x.deadlineS}};
}

json eventJson(const ProfileSwitched& x)
{
    return {{"event", "profile_switch"},
            {"from", x.from},
            {"to", x.to},
            {"reason", x.reason},
            {"switched", x.switched}};
}

json eventJson(const ConfirmInstall& x)
{
    return {{"event", "confirm_install"},
            {"workload", x.workload},
            {"profile", x.profile},
            {"runtimes", x.runtimes},
            {"download_bytes", x.downloadBytes},
            {"catalog_bytes", x.catalogBytes},
            {"sizes_known", x.sizesKnown},
            {"unsized", x.unsized},
            {"unpinned", x.unpinned},
            {"disk_needed", x.diskNeeded},
            {"disk_free", x.diskFree ? json(*x.diskFree) : json(nullptr)},
            {"needs_admin", x.needsAdmin},
            {"advice", x.advice}};
}

json eventJson(const LaunchStarted& x)
{
    return {{"event", "launch_started"},
            {"profile", x.profile},
            {"log", paths::toUtf8(x.log)},
            {"smoke_test", x.smokeTest}};
}

} // namespace

json toJson(const Event& e)
{
    return std::visit([](const auto& x) { return eventJson(x); }, e);
}

Event fromLaunchEvent(const LaunchEvent& e)
{
    const json& d = e.data;
    switch (e.kind) {
    case LaunchEvent::Line:
        return ConsoleLine{std::string_view(e.stream) == "stderr", e.text};
    case LaunchEvent::Url:
        return UrlAnnounced{d.value("url", "")};
    case LaunchEvent::KnownIssue:
        return KnownIssueSeen{d.value("known_issue", ""), d.value("title", ""),
                              d.value("line", 0LL),       d.value("excerpt", ""),
                              d.value("remedy", ""),      d.value("action", "")};
    case LaunchEvent::Step:
        return StepChanged{stepState(d.value("state", "")), d.value("index", 0), d.value("of", 0),
                           d};
    case LaunchEvent::Exit:
        break;
    }
    return WorkloadExited{d.value("text", ""), d};
}

} // namespace sp::session
