#include "detectors/parsers/tool_parsers.h"

#include <cctype>
#include <cstdio>

namespace sp {

using namespace parse_util;

namespace {

bool available(std::string_view v)
{
    const std::string l = lower(trim(v));
    return !l.empty() && l != "[n/a]" && l != "n/a" && l.find("not supported") == std::string::npos;
}

// "00000000:01:00.0" -> "0000:01:00.0"; empty when it does not look like a bus id.
std::string normalizeBus(std::string_view v)
{
    std::string s = lower(trim(v));
    const auto colon = s.find(':');
    if (colon == std::string::npos || colon < 4 || s.size() - colon != 8)
        return {};
    s = s.substr(colon - 4);
    for (std::size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        const bool sep = i == 4 || i == 7 || i == 10;
        if (sep ? (c != (i == 10 ? '.' : ':')) : !std::isxdigit(static_cast<unsigned char>(c)))
            return {};
    }
    return s;
}

bool looksLikeComputeCap(std::string_view v)
{
    v = trim(v);
    const auto dot = v.find('.');
    if (dot == std::string_view::npos || dot == 0 || dot + 1 >= v.size() || v.size() > 6)
        return false;
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (i != dot && !std::isdigit(static_cast<unsigned char>(v[i])))
            return false;
    }
    return true;
}

} // namespace

ParsedProbe parseNvidiaSmiCsv(std::string_view text, int exitCode, bool withComputeCap)
{
    ParsedProbe out;
    out.probe.name = "nvidia-smi";
    out.probe.status = ProbeStatus::Failed;
    const std::size_t columns = withComputeCap ? 5 : 4;

    std::string firstOther;
    std::string driver;
    for (std::string_view raw : splitLines(text)) {
        const std::string_view line = trim(raw);
        if (line.empty())
            continue;
        std::vector<std::string_view> f;
        std::string_view rest = line;
        while (f.size() < 16) {
            const auto comma = rest.find(',');
            f.push_back(trim(rest.substr(0, comma)));
            if (comma == std::string_view::npos)
                break;
            rest.remove_prefix(comma + 1);
        }
        const std::string bus = f.size() == columns ? normalizeBus(f[1]) : std::string();
        if (bus.empty()) {
            // Not a data row: "No devices were found", "NVIDIA-SMI has failed ...".
            if (firstOther.empty())
                firstOther = std::string(line);
            continue;
        }
        GpuInfo g;
        g.vendor = Vendor::Nvidia;
        g.name = clip(f[0]);
        g.pciBus = bus;
        if (available(f[2])) {
            if (const auto mb = leadingInt(f[2]); mb && *mb > 0 && *mb < (1LL << 30))
                g.vramMb = *mb;
        }
        if (withComputeCap && looksLikeComputeCap(f[3]))
            g.computeCapability = std::string(trim(f[3]));
        const std::string_view drv = f[columns - 1];
        if (available(drv)) {
            g.driverVersion = clip(drv, 32);
            driver = *g.driverVersion;
        }
        g.sources = {"nvidia-smi"};
        out.gpus.push_back(std::move(g));
    }

    if (!out.gpus.empty()) {
        out.probe.status = ProbeStatus::Ok;
        out.probe.detail = std::to_string(out.gpus.size()) + " device(s)";
        if (!driver.empty())
            out.probe.extra["driver_version"] = driver;
    } else {
        const std::string why = firstOther.empty() && exitCode != 0
                                    ? "exit code " + std::to_string(exitCode)
                                    : clip(firstOther);
        out.probe.detail = why.empty() ? "no device" : "no device: " + why;
    }
    out.probe.extra["exit_code"] = exitCode;
    return out;
}

} // namespace sp
