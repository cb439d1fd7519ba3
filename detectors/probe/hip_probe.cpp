#include "dynlib.h"
#include "hip_layout.h"
#include "probes.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace probe {
namespace {

using HipGetDeviceCount = int (*)(int*);
using HipGetDeviceProperties = int (*)(void*, int);
using HipGetVersion = int (*)(int*);
using HipDeviceGetPCIBusId = int (*)(char*, int, int);
using HipGetErrorString = const char* (*)(int);

std::vector<std::string> hipCandidates()
{
    std::vector<std::string> c;
    const std::string over = envValue("STACKPILOT_HIP_LIB");
    if (!over.empty())
        return {over};
#ifdef _WIN32
    // The HIP SDK installs amdhip64_<N>.dll (N = major version) into System32;
    // older drivers ship plain amdhip64.dll. Newest first.
    const std::string sys = systemDirectory();
    int best = -1;
    for (const auto& name : listDirectory(sys)) {
        std::string lower = name;
        std::transform(lower.begin(), lower.end(), lower.begin(),
                       [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
        const std::string prefix = "amdhip64_";
        if (lower.rfind(prefix, 0) != 0 || lower.size() <= prefix.size() + 4 ||
            lower.compare(lower.size() - 4, 4, ".dll") != 0)
            continue;
        const std::string digits = lower.substr(prefix.size(), lower.size() - prefix.size() - 4);
        if (digits.empty() || digits.size() > 4 ||
            !std::all_of(digits.begin(), digits.end(),
                         [](unsigned char ch) { return std::isdigit(ch); }))
            continue;
        best = std::max(best, std::stoi(digits));
    }
    if (best >= 0)
        c.push_back(sys + "\\amdhip64_" + std::to_string(best) + ".dll");
    c.push_back(sys + "\\amdhip64.dll");
    c.push_back("amdhip64.dll");
#else
    for (const char* n : {"libamdhip64.so", "libamdhip64.so.6", "libamdhip64.so.5"})
        c.emplace_back(n);
    for (const char* n : {"/opt/rocm/lib/libamdhip64.so", "/opt/rocm/lib/libamdhip64.so.6",
                          "/opt/rocm/lib/libamdhip64.so.5"})
        c.emplace_back(n);
#endif
    return c;
}

std::string hipVersionString(int v)
{
    return std::to_string(v / 10000000) + "." + std::to_string((v % 10000000) / 100000);
}

template <class T> T readAt(const std::vector<unsigned char>& buf, std::size_t offset)
{
    T v{};
    std::memcpy(&v, buf.data() + offset, sizeof(T));
    return v;
}

std::string errorText(HipGetErrorString errStr, int code)
{
    std::string s = "error " + std::to_string(code);
    if (errStr) {
        const char* t = errStr(code);
        if (t)
            s += " (" + std::string(t) + ")";
    }
    return s;
}

// Plain hipGetDeviceProperties has no layout in its name: trust the one expected,
// unless only the other layout holds a gfx target.
bool holdsR0600(const std::vector<unsigned char>& buf, bool expectR0600)
{
    namespace L = hip_layout;
    const auto archAt = [&](std::size_t off) {
        return fixedString(reinterpret_cast<const char*>(buf.data() + off), L::kGcnArchNameSize);
    };
    const std::string expected =
        archAt(expectR0600 ? L::r0600::gcnArchName : L::r0000::gcnArchName);
    const std::string other = archAt(expectR0600 ? L::r0000::gcnArchName : L::r0600::gcnArchName);
    if (expected.rfind("gfx", 0) != 0 && other.rfind("gfx", 0) == 0)
        return !expectR0600;
    return expectR0600;
}

std::string pciBus(const std::vector<unsigned char>& buf, int index, bool r0600,
                   HipDeviceGetPCIBusId getBusId)
{
    namespace L = hip_layout;
    char bus[64] = {};
    if (getBusId && getBusId(bus, static_cast<int>(sizeof bus), index) == 0 && bus[0])
        return fixedString(bus, sizeof bus);
    const int dom = readAt<int>(buf, r0600 ? L::r0600::pciDomainID : L::r0000::pciDomainID);
    const int b = readAt<int>(buf, r0600 ? L::r0600::pciBusID : L::r0000::pciBusID);
    const int dev = readAt<int>(buf, r0600 ? L::r0600::pciDeviceID : L::r0000::pciDeviceID);
    char s[32];
    std::snprintf(s, sizeof s, "%04x:%02x:%02x.0", static_cast<unsigned>(dom) & 0xffffu,
                  static_cast<unsigned>(b) & 0xffu, static_cast<unsigned>(dev) & 0x1fu);
    return s;
}

nlohmann::json hipDeviceJson(const std::vector<unsigned char>& buf, int index, bool r0600,
                             HipDeviceGetPCIBusId getBusId)
{
    namespace L = hip_layout;
    nlohmann::json d;
    d["index"] = index;
    d["name"] = fixedString(reinterpret_cast<const char*>(buf.data()), L::kNameSize);
    const std::size_t archOff = r0600 ? L::r0600::gcnArchName : L::r0000::gcnArchName;
    const std::string target =
        fixedString(reinterpret_cast<const char*>(buf.data() + archOff), L::kGcnArchNameSize);
    d["gfx_target"] = target;
    d["gfx"] = stripTargetFeatures(target);
    const auto mem =
        readAt<std::uint64_t>(buf, r0600 ? L::r0600::totalGlobalMem : L::r0000::totalGlobalMem);
    if (mem > 0)
        d["vram_mb"] = static_cast<std::int64_t>(mem / (1024 * 1024));
    const int cus =
        readAt<int>(buf, r0600 ? L::r0600::multiProcessorCount : L::r0000::multiProcessorCount);
    if (cus > 0)
        d["compute_units"] = cus;
    d["integrated"] = readAt<int>(buf, r0600 ? L::r0600::integrated : L::r0000::integrated) != 0;
    d["pci_bus"] = pciBus(buf, index, r0600, getBusId);
    return d;
}

} // namespace

nlohmann::json probeHip()
{
    nlohmann::json r = makeResult("hip");
    // The runtime reads these at initialisation: they could hide devices or make
    // it report an overridden target instead of the real one.
    DynLib lib;
    if (!openVendorLibrary(lib, r, hipCandidates(),
                           {"HIP_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES", "CUDA_VISIBLE_DEVICES",
                            "GPU_DEVICE_ORDINAL", "HSA_OVERRIDE_GFX_VERSION"}))
        return r;

    const auto errStr = lib.get<HipGetErrorString>("hipGetErrorString");
    int v = 0;
    if (auto f = lib.get<HipGetVersion>("hipDriverGetVersion"); f && f(&v) == 0 && v > 0)
        r["driver_version"] = hipVersionString(v);
    if (auto f = lib.get<HipGetVersion>("hipRuntimeGetVersion"); f && f(&v) == 0 && v > 0)
        r["runtime_version"] = hipVersionString(v);

    const auto getCount = lib.get<HipGetDeviceCount>("hipGetDeviceCount");
    if (!getCount) {
        r["detail"] = "hipGetDeviceCount not exported";
        return r;
    }
    int count = 0;
    if (const int rc = getCount(&count); rc != 0) {
        // hipErrorNoDevice (100) is how a runtime without a GPU answers.
        r["detail"] = rc == 100 ? "no device: " + errorText(errStr, rc)
                                : "hipGetDeviceCount: " + errorText(errStr, rc);
        r["error_code"] = rc;
        return r;
    }
    if (count <= 0) {
        r["detail"] = "no device";
        return r;
    }

    bool newLayout = true;
    auto getProps = lib.get<HipGetDeviceProperties>("hipGetDevicePropertiesR0600");
    if (!getProps) {
        newLayout = false;
        getProps = lib.get<HipGetDeviceProperties>("hipGetDevicePropertiesR0000");
        if (!getProps)
            getProps = lib.get<HipGetDeviceProperties>("hipGetDeviceProperties");
    }
    if (!getProps) {
        r["detail"] = "no hipGetDeviceProperties export";
        return r;
    }
    r["props_layout"] = newLayout ? "R0600" : "R0000";
    const auto getBusId = lib.get<HipDeviceGetPCIBusId>("hipDeviceGetPCIBusId");

    nlohmann::json devices = nlohmann::json::array();
    std::string firstError;
    for (int i = 0; i < count && i < 64; ++i) {
        // Zeroed and larger than any known layout, so a newer runtime writing more
        // fields cannot overrun it.
        std::vector<unsigned char> buf(hip_layout::kBufferSize, 0);
        if (const int rc = getProps(buf.data(), i); rc != 0) {
            if (firstError.empty())
                firstError = "device " + std::to_string(i) + ": " + errorText(errStr, rc);
            continue;
        }
        devices.push_back(hipDeviceJson(buf, i, holdsR0600(buf, newLayout), getBusId));
    }
    return finishDevices(r, std::move(devices), firstError);
}

} // namespace probe
