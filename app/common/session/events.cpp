#include "app/common/session/events.h"

#include "core/paths.h"

namespace sp::session {

namespace {

using nlohmann::json;

template <class... F> struct Overloaded : F...
{
    using F::operator()...;
};
template <class... F> Overloaded(F...) -> Overloaded<F...>;

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

json toJson(const Event& e)
{
    return std::visit(Overloaded{
                          [](const RuntimeStarted& x) -> json {
                              return {{"event", "runtime_started"},
                                      {"runtime", x.runtime},
                                      {"index", x.index},
                                      {"of", x.count}};
                          },
                          [](const ArtifactProgress& x) -> json {
                              return {{"event", "progress"},     {"runtime", x.runtime},
                                      {"artifact", x.artifact},  {"name", x.name},
                                      {"received", x.received},  {"total", optional(x.total)},
                                      {"rate", x.bytesPerSecond}};
                          },
                          [](const ArtifactDone& x) -> json {
                              return {{"event", "artifact_done"},
                                      {"runtime", x.runtime},
                                      {"artifact", x.artifact},
                                      {"name", x.name}};
                          },
                          [](const RuntimeInstalled& x) -> json {
                              return {{"event", "runtime_installed"},
                                      {"runtime", x.runtime},
                                      {"dir", paths::toUtf8(x.dir)},
                                      {"files", x.files},
                                      {"already_installed", x.alreadyInstalled}};
                          },
                          [](const Notice& x) -> json {
                              return {{"event", "notice"},
                                      {"stage", toString(x.stage)},
                                      {"runtime", x.runtime},
                                      {"text", x.text}};
                          },
                          [](const StepChanged& x) -> json { return x.detail; },
                          [](const ConsoleLine& x) -> json {
                              return {{"event", "line"},
                                      {"stream", x.isStderr ? "stderr" : "stdout"},
                                      {"text", x.text}};
                          },
                          [](const UrlAnnounced& x) -> json {
                              return {{"event", "url"}, {"url", x.url}};
                          },
                          [](const KnownIssueSeen& x) -> json {
                              return {{"event", "known_issue"}, {"known_issue", x.id},
                                      {"title", x.title},       {"line", x.line},
                                      {"excerpt", x.excerpt},   {"remedy", x.remedy},
                                      {"action", x.action}};
                          },
                          [](const WorkloadExited& x) -> json { return x.detail; },
                          [](const Failed& x) -> json {
                              return {{"event", "error"},
                                      {"stage", toString(x.stage)},
                                      {"kind", int(x.kind)},
                                      {"message", x.message}};
                          },
                      },
                      e);
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
