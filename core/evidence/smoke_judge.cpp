#include "core/evidence/smoke_judge.h"

#include "core/evidence/evidence.h"
#include "core/json_file.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <set>

namespace sp {

namespace {

std::string resultText(const nlohmann::json& j, const char* key)
{
    const auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::string lowered(std::string s)
{
    for (char& c : s)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// "gfx90a:sramecc+:xnack-" -> "gfx90a", "SM_8.9" -> "sm_89".
std::string normalArch(const std::string& arch)
{
    std::string a = lowered(arch.substr(0, arch.find(':')));
    a.erase(std::remove_if(a.begin(), a.end(),
                           [](unsigned char c) { return c == '.' || std::isspace(c); }),
            a.end());
    return a;
}

// HSA_OVERRIDE_GFX_VERSION "10.3.0" makes ROCm report gfx1030: major, minor, and the
// stepping as one hex digit (9.0.10 is gfx90a).
std::string overrideArch(const std::string& version)
{
    int major = 0, minor = 0, stepping = 0;
    if (std::sscanf(version.c_str(), "%d.%d.%d", &major, &minor, &stepping) != 3 || major < 1 ||
        major > 99 || minor < 0 || minor > 9 || stepping < 0 || stepping > 15)
        return {};
    const char hex[] = "0123456789abcdef";
    return "gfx" + std::to_string(major) + std::to_string(minor) + hex[stepping];
}

std::vector<std::string> nameWords(const std::string& name)
{
    std::vector<std::string> out;
    std::string w;
    for (const char c : name + " ") {
        if (std::isalnum(static_cast<unsigned char>(c))) {
            w += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        } else if (!w.empty()) {
            out.push_back(w);
            w.clear();
        }
    }
    return out;
}

// The vendor a device name says, or "" when it says none.
std::string vendorOfName(const std::string& name)
{
    static const std::set<std::string> nvidia = {"nvidia", "geforce", "quadro", "tesla",
                                                 "titan",  "rtx",     "gtx"};
    static const std::set<std::string> amd = {"amd", "radeon", "instinct", "firepro", "ati"};
    static const std::set<std::string> intel = {"intel", "arc", "iris", "uhd"};
    for (const std::string& w : nameWords(name)) {
        if (nvidia.count(w))
            return "nvidia";
        if (amd.count(w))
            return "amd";
        if (intel.count(w))
            return "intel";
    }
    return {};
}

// The model numbers in a name: runs of three or more digits ("7900", "780" of "780M").
std::set<std::string> modelNumbers(const std::string& name)
{
    std::set<std::string> out;
    std::string run;
    for (const char c : name + " ") {
        if (std::isdigit(static_cast<unsigned char>(c))) {
            run += c;
            continue;
        }
        if (run.size() >= 3)
            out.insert(run);
        run.clear();
    }
    return out;
}

bool namesDiffer(const std::string& reported, const ExpectedDevice& want)
{
    const std::string vendor = vendorOfName(reported);
    if (!vendor.empty() && !want.vendor.empty() && vendor != want.vendor)
        return true;
    const auto got = modelNumbers(reported);
    const auto planned = modelNumbers(want.name);
    return !got.empty() && !planned.empty() &&
           std::none_of(got.begin(), got.end(), [&](const auto& n) { return planned.count(n); });
}

std::string deviceWords(const std::string& device, const std::string& arch)
{
    const std::string d = device.empty() ? "an unnamed device" : device;
    return arch.empty() ? d : d + " (" + arch + ")";
}

// "matched", "not reported", "not checked: ...", or the mismatch in words (failed set).
std::string checkDevice(const SmokeVerdict& v, const ExpectedDevice& want, bool& failed)
{
    failed = false;
    if (!want.check)
        return "not checked: no GPU was planned (a CPU fallback)";
    if (v.device.empty() && v.arch.empty())
        return "not reported: the smoke test named neither its device nor its arch";
    const std::string arch = normalArch(v.arch);
    const bool translatedArch = want.translated && arch.rfind("sm_", 0) == 0;
    const bool archDiffers = !arch.empty() && !translatedArch && !want.arch.empty() &&
                             std::find(want.arch.begin(), want.arch.end(), arch) == want.arch.end();
    failed = archDiffers || (!v.device.empty() && namesDiffer(v.device, want));
    if (failed)
        return "the smoke test ran on " + deviceWords(v.device, v.arch) +
               ", not on the GPU the profile was planned for: " +
               deviceWords(want.name, want.arch.empty() ? std::string() : want.arch.front());
    if (v.device.empty())
        return "matched by arch; the smoke test did not name its device";
    if (arch.empty())
        return "matched by name; the smoke test did not name its arch";
    return translatedArch ? "matched by name (ZLUDA reports a CUDA arch)" : "matched";
}

// The reason for a failure, from its cause.
std::string smokeReason(SmokeCause cause, const SmokeVerdict& v, const SmokeEnd& end,
                        const SmokeOutput& out)
{
    switch (cause) {
    case SmokeCause::TimedOut:
        return "the smoke test did not finish within " + std::to_string(end.deadlineS) + " s";
    case SmokeCause::KnownIssue:
        return "known issue " + end.knownIssue + ": " + end.knownTitle;
    case SmokeCause::ReportedFailure:
        return resultText(v.result, "error").empty() ? "it reported \"ok\": false"
                                                     : resultText(v.result, "error");
    case SmokeCause::ExitedBadly:
        return "the smoke test " + (end.exitText.empty() ? "failed" : end.exitText);
    case SmokeCause::NoResult:
        return out.tooLong() ? "the smoke test's result line was longer than 64 KiB"
                             : "the smoke test printed no result line";
    case SmokeCause::DeviceMismatch:
        return v.deviceCheck;
    case SmokeCause::None:
        break;
    }
    return {};
}

} // namespace

const char* toString(SmokeCause c)
{
    switch (c) {
    case SmokeCause::TimedOut:
        return "timeout";
    case SmokeCause::KnownIssue:
        return "known-issue";
    case SmokeCause::ReportedFailure:
        return "reported-failure";
    case SmokeCause::ExitedBadly:
        return "exit";
    case SmokeCause::NoResult:
        return "no-result";
    case SmokeCause::DeviceMismatch:
        return "device-mismatch";
    case SmokeCause::None:
        break;
    }
    return "";
}

ExpectedDevice expectedDevice(const HardwareSnapshot& snap, const Plan& plan, bool fallback)
{
    ExpectedDevice want;
    if (fallback || !plan.gpu || *plan.gpu < 0 || *plan.gpu >= static_cast<int>(snap.gpus.size()))
        return want;
    const GpuInfo& g = snap.gpus[static_cast<std::size_t>(*plan.gpu)];
    want.check = true;
    want.vendor = g.vendor == Vendor::Other ? std::string() : toString(g.vendor);
    want.name = g.name;
    if (const std::string arch = fingerprintOf(snap, plan.gpu).arch; !arch.empty())
        want.arch.push_back(normalArch(arch));
    if (const auto o = plan.env.find("HSA_OVERRIDE_GFX_VERSION"); o != plan.env.end())
        if (const std::string arch = overrideArch(o->second); !arch.empty())
            want.arch.push_back(arch);
    want.translated = std::any_of(plan.runtimes.begin(), plan.runtimes.end(),
                                  [](const PlanRuntime& r) { return r.kind == "zluda"; });
    return want;
}

void SmokeOutput::line(const std::string& text)
{
    // The smoke test prints one JSON object with "ok"; the last such line counts.
    const auto start = text.find_first_not_of(" \t");
    if (start == std::string::npos || text[start] != '{' ||
        text.find("\"ok\"") == std::string::npos)
        return;
    m_tooLong = text.size() > kMaxResultLine;
    m_result = m_tooLong ? std::string() : text;
}

// Passed: the process exited 0 within its deadline, printed {"ok": true, ...}, matched no
// known issue and ran on the planned GPU.
SmokeVerdict judgeSmoke(const SmokeOutput& out, const SmokeEnd& end, const ExpectedDevice& want)
{
    SmokeVerdict v;
    auto parsed =
        parseJsonText(out.resultLine(), "smoke test output", {SmokeOutput::kMaxResultLine, 8});
    if (parsed && parsed->is_object())
        v.result = boundedResult(*parsed);
    const auto ok = v.result.find("ok");
    const bool saysOk = ok != v.result.end() && ok->is_boolean() && ok->get<bool>();
    if (const auto s = v.result.find("seconds"); s != v.result.end() && s->is_number())
        v.seconds = s->get<double>();
    v.device = resultText(v.result, "device");
    v.arch = resultText(v.result, "arch");
    bool mismatch = false;
    v.deviceCheck = checkDevice(v, want, mismatch);
    if (end.timedOut)
        v.cause = SmokeCause::TimedOut;
    else if (!end.knownIssue.empty())
        v.cause = SmokeCause::KnownIssue;
    else if (!v.result.empty() && !saysOk)
        v.cause = SmokeCause::ReportedFailure;
    else if (!end.exitedWell)
        v.cause = SmokeCause::ExitedBadly;
    else if (v.result.empty())
        v.cause = SmokeCause::NoResult;
    else if (mismatch)
        v.cause = SmokeCause::DeviceMismatch;
    v.passed = v.cause == SmokeCause::None;
    v.reason = smokeReason(v.cause, v, end, out);
    return v;
}

} // namespace sp
