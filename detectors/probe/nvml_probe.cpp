#include "dynlib.h"
#include "probes.h"

#include <cstdio>
#include <string>
#include <vector>

namespace probe {
namespace {

// Declared here rather than taken from nvml.h: building needs no CUDA Toolkit.
// Layouts as in nvml.h (nvmlMemory_t v1; nvmlPciInfo_t as filled by the _v3 call).
struct NvmlMemory
{
    unsigned long long total;
    unsigned long long free;
    unsigned long long used;
};

struct NvmlPciInfo
{
    char busIdLegacy[16];
    unsigned int domain;
    unsigned int bus;
    unsigned int device;
    unsigned int pciDeviceId; // device id << 16 | vendor id
    unsigned int pciSubSystemId;
    char busId[32];
};

using NvmlDevice = void*;
using NvmlInit = int (*)();
using NvmlShutdown = int (*)();
using NvmlGetCount = int (*)(unsigned int*);
using NvmlGetHandle = int (*)(unsigned int, NvmlDevice*);
using NvmlGetName = int (*)(NvmlDevice, char*, unsigned int);
using NvmlGetCc = int (*)(NvmlDevice, int*, int*);
using NvmlGetMemory = int (*)(NvmlDevice, NvmlMemory*);
using NvmlGetPci = int (*)(NvmlDevice, NvmlPciInfo*);
using NvmlDriverVersion = int (*)(char*, unsigned int);
using NvmlCudaVersion = int (*)(int*);
using NvmlErrorString = const char* (*)(int);

std::vector<std::string> nvmlCandidates()
{
    const std::string over = envValue("STACKPILOT_NVML_LIB");
    if (!over.empty())
        return {over};
#ifdef _WIN32
    std::vector<std::string> c{systemDirectory() + "\\nvml.dll"};
    const std::string pf = envValue("ProgramFiles");
    if (!pf.empty())
        c.push_back(pf + "\\NVIDIA Corporation\\NVSMI\\nvml.dll");
    c.emplace_back("nvml.dll");
    return c;
#else
    return {"libnvidia-ml.so.1", "libnvidia-ml.so"};
#endif
}

struct NvmlDeviceApi
{
    NvmlGetName getName = nullptr;
    NvmlGetCc getCc = nullptr;
    NvmlGetMemory getMem = nullptr;
    NvmlGetPci getPci = nullptr;
};

nlohmann::json nvmlDeviceJson(const NvmlDeviceApi& api, NvmlDevice dev, unsigned int index)
{
    nlohmann::json d;
    d["index"] = index;
    char name[256] = {};
    if (api.getName && api.getName(dev, name, sizeof name) == 0)
        d["name"] = fixedString(name, sizeof name);
    int major = 0;
    int minor = 0;
    if (api.getCc && api.getCc(dev, &major, &minor) == 0 && major > 0)
        d["compute_capability"] = std::to_string(major) + "." + std::to_string(minor);
    NvmlMemory mem{};
    if (api.getMem && api.getMem(dev, &mem) == 0 && mem.total > 0)
        d["vram_mb"] = static_cast<long long>(mem.total / (1024 * 1024));
    NvmlPciInfo pci{};
    if (api.getPci && api.getPci(dev, &pci) == 0) {
        // busId is "00000000:01:00.0"; the snapshot uses the 4-digit domain form.
        char bus[32];
        std::snprintf(bus, sizeof bus, "%04x:%02x:%02x.0", pci.domain & 0xffffu, pci.bus & 0xffu,
                      pci.device & 0x1fu);
        d["pci_bus"] = std::string(bus);
        char id[16];
        std::snprintf(id, sizeof id, "%04x:%04x", pci.pciDeviceId & 0xffffu, pci.pciDeviceId >> 16);
        d["pci_id"] = std::string(id);
    }
    return d;
}

} // namespace

nlohmann::json probeNvml()
{
    nlohmann::json r = makeResult("nvml");
    DynLib lib;
    if (!openVendorLibrary(lib, r, nvmlCandidates(), {}))
        return r;

    const auto errStr = lib.get<NvmlErrorString>("nvmlErrorString");
    auto describe = [&](const char* what, int rc) {
        std::string s = std::string(what) + ": error " + std::to_string(rc);
        if (errStr) {
            if (const char* t = errStr(rc))
                s += " (" + std::string(t) + ")";
        }
        return s;
    };

    auto init = lib.get<NvmlInit>("nvmlInit_v2");
    if (!init)
        init = lib.get<NvmlInit>("nvmlInit");
    const auto shutdown = lib.get<NvmlShutdown>("nvmlShutdown");
    auto getCount = lib.get<NvmlGetCount>("nvmlDeviceGetCount_v2");
    if (!getCount)
        getCount = lib.get<NvmlGetCount>("nvmlDeviceGetCount");
    auto getHandle = lib.get<NvmlGetHandle>("nvmlDeviceGetHandleByIndex_v2");
    if (!getHandle)
        getHandle = lib.get<NvmlGetHandle>("nvmlDeviceGetHandleByIndex");
    if (!init || !getCount || !getHandle) {
        r["detail"] = "NVML entry points missing";
        return r;
    }
    if (const int rc = init(); rc != 0) {
        r["detail"] = describe("nvmlInit_v2", rc);
        r["error_code"] = rc;
        return r;
    }

    char ver[96] = {};
    if (auto f = lib.get<NvmlDriverVersion>("nvmlSystemGetDriverVersion");
        f && f(ver, sizeof ver) == 0)
        r["driver_version"] = fixedString(ver, sizeof ver);
    int cuda = 0;
    if (auto f = lib.get<NvmlCudaVersion>("nvmlSystemGetCudaDriverVersion_v2");
        f && f(&cuda) == 0 && cuda > 0)
        r["cuda_version"] = std::to_string(cuda / 1000) + "." + std::to_string((cuda % 1000) / 10);

    unsigned int count = 0;
    if (const int rc = getCount(&count); rc != 0) {
        r["detail"] = describe("nvmlDeviceGetCount_v2", rc);
        r["error_code"] = rc;
        if (shutdown)
            shutdown();
        return r;
    }

    NvmlDeviceApi api;
    api.getName = lib.get<NvmlGetName>("nvmlDeviceGetName");
    api.getCc = lib.get<NvmlGetCc>("nvmlDeviceGetCudaComputeCapability");
    api.getMem = lib.get<NvmlGetMemory>("nvmlDeviceGetMemoryInfo");
    api.getPci = lib.get<NvmlGetPci>("nvmlDeviceGetPciInfo_v3");
    if (!api.getPci)
        api.getPci = lib.get<NvmlGetPci>("nvmlDeviceGetPciInfo_v2");

    nlohmann::json devices = nlohmann::json::array();
    for (unsigned int i = 0; i < count && i < 64; ++i) {
        NvmlDevice dev = nullptr;
        if (getHandle(i, &dev) == 0)
            devices.push_back(nvmlDeviceJson(api, dev, i));
    }
    if (shutdown)
        shutdown();
    return finishDevices(r, std::move(devices));
}

} // namespace probe
