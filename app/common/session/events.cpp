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

// As `launch --json` has always printed a step: its index and argv when about one step,
// "reason" for skipped steps and "text" for a warning.
json eventJson(const StepChanged& x)
{
    json j = {{"event", "step"}, {"state", toString(x.state)}, {"of", x.of}};
    if (x.index > 0) {
        j["index"] = x.index;
        j["argv"] = x.argv;
    }
    if (x.exit)
        j["exit"] = toJson(*x.exit);
    if (x.state == StepState::Failed || x.state == StepState::Stopped)
        j["last_lines"] = x.lastLines;
    if (!x.text.empty())
        j[x.state == StepState::Skipped ? "reason" : "text"] = x.text;
    return j;
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
    json j = toJson(x.end);
    j["event"] = "exit";
    j["stopped_by"] = x.end.stoppedBy;
    if (x.timedOut)
        j["timed_out"] = true;
    if (x.leftoversStopped)
        j["leftovers_stopped"] = true;
    if (!x.knownIssues.empty())
        j["known_issues"] = x.knownIssues;
    return j;
}

json eventJson(const SharedGpu& x)
{
    json j = {{"event", "shared_gpu"},
              {"workload", x.workload},
              {"other", x.other},
              {"gpu", x.gpu},
              {"pci_bus", x.pciBus}};
    for (const auto& [key, mb] :
         {std::pair{"memory_mb", x.memoryMb}, std::pair{"need_mb", x.needMb},
          std::pair{"other_need_mb", x.otherNeedMb}})
        j[key] = mb ? json(*mb) : json(nullptr);
    return j;
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
            {"advice", x.advice},
            {"model", x.model},
            {"model_bytes", x.modelBytes}};
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

} // namespace sp::session
