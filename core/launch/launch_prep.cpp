#include "core/launch/launch_prep.h"

#include "core/launch/port_check.h"
#include "core/paths.h"
#include "core/select/workload_overrides.h"

#include <QProcessEnvironment>

#ifndef _WIN32
#include <unistd.h>
#endif

namespace sp {

namespace {

std::string rejectionReasons(const Plan& plan, const std::string& profile)
{
    std::string out;
    for (const PlanAlternative& a : plan.alternatives)
        if (a.profile == profile)
            for (const PlanReason& r : a.reasons)
                out += (out.empty() ? "" : "; ") + r.text;
    return out;
}

} // namespace

logmatch::LogContext planLogContext(const Plan& plan, const std::string& osFamily)
{
    logmatch::LogContext c;
    c.windows = osFamily == "windows";
    c.linux = osFamily == "linux";
    auto add = [&](const char* r) {
        if (std::find(c.runtimes.begin(), c.runtimes.end(), r) == c.runtimes.end())
            c.runtimes.emplace_back(r);
    };
    // Kinds name the runtime family; wheels and llama.cpp builds name it in their id.
    for (const PlanRuntime& rt : plan.runtimes) {
        const std::string& id = rt.id;
        if (rt.kind == "rocm" || rt.kind == "hip-sdk" || rt.kind == "rocblas-library" ||
            id.find("rocm") != std::string::npos || id.find("hip") != std::string::npos)
            add("rocm");
        if (rt.kind == "zluda")
            add("zluda");
        if (id.find("cuda") != std::string::npos || id.find("cu12") != std::string::npos ||
            id.find("cu11") != std::string::npos)
            add("cuda");
        if (id.find("vulkan") != std::string::npos)
            add("vulkan");
    }
    return c;
}

Expected<LaunchRequest> prepareLaunch(const LaunchSetup& setup)
{
    const Catalog& catalog = *setup.catalog;
    const Profile* profile = catalog.profile(setup.profile);
    if (!profile)
        return Error::usage("unknown profile '" + setup.profile +
                            "' (stackpilot-cli profiles lists them)");
    SelectSettings select = setup.select;
    select.profile = setup.profile;
    select = selectSettingsFor(setup.settings, profile->workload, std::move(select));
    auto plan = makePlan(setup.snapshot, catalog, profile->workload, select);
    if (!plan)
        return plan.error();
    if (plan->profile != setup.profile)
        return Error::runtime("profile '" + setup.profile + "' does not fit this machine: " +
                              rejectionReasons(*plan, setup.profile));
    auto matcher = logmatch::LogMatcher::compile(catalog.knownIssues);
    if (!matcher)
        return matcher.error();
    LaunchRequest r;
    r.composed = composeLaunch(*plan, setup.userEnv, setup.snapshot.os.family, setup.extraArgs);
    if (const Workload* w = catalog.workload(profile->workload)) {
        r.urlRegex = w->urlRegex;
        r.port = portFromArgs(r.composed.argv, w->defaultPort);
    }
    r.plan = std::move(*plan);
    r.logsRoot = setup.logsRoot;
    r.dataDir = setup.dataDir;
    r.graceMs = setup.settings.stopGraceMs;
    r.keepLaunches = setup.settings.keepLaunches;
    r.codePage = setup.settings.consoleCodePage > 0
                     ? static_cast<unsigned>(setup.settings.consoleCodePage)
                     : defaultConsoleCodePage();
    r.matcher = std::make_shared<const logmatch::LogMatcher>(std::move(*matcher));
    r.logContext = planLogContext(r.plan, setup.snapshot.os.family);
    return r;
}

std::vector<std::string> missingRuntimes(const Plan& plan)
{
    std::vector<std::string> out;
    for (const PlanRuntime& rt : plan.runtimes) {
        std::error_code ec;
        if (!rt.system && !rt.dir.empty() &&
            !std::filesystem::is_directory(paths::fromUtf8(rt.dir), ec))
            out.push_back(rt.id);
    }
    return out;
}

nlohmann::json dryRunJson(const LaunchRequest& request)
{
    nlohmann::json changes = nlohmann::json::array();
    for (const EnvChange& c : request.composed.changes) {
        nlohmann::json j = {{"name", c.name}, {"change", toString(c.kind)}, {"reason", c.reason}};
        if (c.kind != EnvChange::Added)
            j["before"] = c.before;
        if (c.kind != EnvChange::Removed)
            j["after"] = c.after;
        changes.push_back(std::move(j));
    }
    return {{"profile", request.plan.profile}, {"workload", request.plan.workload},
            {"env", request.composed.env},     {"argv", request.composed.argv},
            {"cwd", request.composed.cwd},     {"steps", request.plan.steps},
            {"changes", std::move(changes)}};
}

EnvMap currentEnvironment()
{
    EnvMap out;
#ifndef _WIN32
    // Bytes as they are: a value that is not UTF-8 reaches the workload unchanged.
    for (char** e = environ; e && *e; ++e) {
        const std::string entry(*e);
        const auto eq = entry.find('=');
        if (eq != std::string::npos && eq > 0)
            out.emplace(entry.substr(0, eq), entry.substr(eq + 1));
    }
#else
    const QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const QString& key : env.keys())
        out[key.toStdString()] = env.value(key).toStdString();
#endif
    return out;
}

} // namespace sp
