#include "dynlib.h"
#include "probes.h"

#include <cctype>
#include <string>
#include <vector>

namespace probe {
namespace {

using CuDevice = int;
using CuInit = int (*)(unsigned int);
using CuDriverGetVersion = int (*)(int*);
using CuDeviceGetCount = int (*)(int*);
using CuDeviceGet = int (*)(CuDevice*, int);
using CuDeviceGetName = int (*)(char*, int, CuDevice);
using CuDeviceTotalMem = int (*)(std::size_t*, CuDevice);
using CuDeviceGetAttribute = int (*)(int*, int, CuDevice);
using CuDeviceGetPCIBusId = int (*)(char*, int, CuDevice);
using CuGetErrorString = int (*)(int, const char**);

constexpr int kAttrCcMajor = 75; // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR
constexpr int kAttrCcMinor = 76;
constexpr int kAttrIntegrated = 18; // CU_DEVICE_ATTRIBUTE_INTEGRATED

std::vector<std::string> cudaCandidates()
{
    const std::string over = envValue("STACKPILOT_CUDA_LIB");
    if (!over.empty())
        return {over};
#ifdef _WIN32
    return {systemDirectory() + "\\nvcuda.dll", "nvcuda.dll"};
#else
    return {"libcuda.so.1", "libcuda.so"};
#endif
}

struct CudaDeviceApi
{
    CuDeviceGetName getName = nullptr;
    CuDeviceTotalMem totalMem = nullptr;
    CuDeviceGetAttribute attr = nullptr;
    CuDeviceGetPCIBusId busId = nullptr;
};

nlohmann::json cudaDeviceJson(const CudaDeviceApi& api, CuDevice dev, int index)
{
    nlohmann::json d;
    d["index"] = index;
    char name[256] = {};
    if (api.getName && api.getName(name, static_cast<int>(sizeof name), dev) == 0)
        d["name"] = fixedString(name, sizeof name);
    std::size_t bytes = 0;
    if (api.totalMem && api.totalMem(&bytes, dev) == 0 && bytes > 0)
        d["vram_mb"] = static_cast<long long>(bytes / (1024 * 1024));
    int major = 0;
    int minor = 0;
    if (api.attr && api.attr(&major, kAttrCcMajor, dev) == 0 &&
        api.attr(&minor, kAttrCcMinor, dev) == 0 && major > 0)
        d["compute_capability"] = std::to_string(major) + "." + std::to_string(minor);
    int integrated = 0;
    if (api.attr && api.attr(&integrated, kAttrIntegrated, dev) == 0)
        d["integrated"] = integrated != 0;
    char bus[64] = {};
    if (api.busId && api.busId(bus, static_cast<int>(sizeof bus), dev) == 0 && bus[0]) {
        std::string s = fixedString(bus, sizeof bus);
        for (auto& ch : s)
            ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        d["pci_bus"] = s;
    }
    return d;
}

} // namespace

nlohmann::json probeCuda()
{
    nlohmann::json r = makeResult("cuda");
    // An empty CUDA_VISIBLE_DEVICES hides every device; the probe wants all of them.
    DynLib lib;
    if (!openVendorLibrary(lib, r, cudaCandidates(), {"CUDA_VISIBLE_DEVICES"}))
        return r;

    const auto errStr = lib.get<CuGetErrorString>("cuGetErrorString");
    auto describe = [&](const char* what, int rc) {
        std::string s = std::string(what) + ": error " + std::to_string(rc);
        const char* t = nullptr;
        if (errStr && errStr(rc, &t) == 0 && t)
            s += " (" + std::string(t) + ")";
        return s;
    };

    const auto init = lib.get<CuInit>("cuInit");
    const auto getCount = lib.get<CuDeviceGetCount>("cuDeviceGetCount");
    const auto get = lib.get<CuDeviceGet>("cuDeviceGet");
    if (!init || !getCount || !get) {
        r["detail"] = "CUDA driver entry points missing";
        return r;
    }
    int v = 0;
    if (auto f = lib.get<CuDriverGetVersion>("cuDriverGetVersion"); f && f(&v) == 0 && v > 0)
        r["driver_version"] = std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
    if (const int rc = init(0); rc != 0) {
        // CUDA_ERROR_NO_DEVICE (100) is the usual answer on a machine without a GPU.
        r["detail"] = rc == 100 ? "no device: " + describe("cuInit", rc) : describe("cuInit", rc);
        r["error_code"] = rc;
        return r;
    }
    int count = 0;
    if (const int rc = getCount(&count); rc != 0) {
        r["detail"] = describe("cuDeviceGetCount", rc);
        r["error_code"] = rc;
        return r;
    }

    CudaDeviceApi api;
    api.getName = lib.get<CuDeviceGetName>("cuDeviceGetName");
    api.totalMem = lib.get<CuDeviceTotalMem>("cuDeviceTotalMem_v2");
    if (!api.totalMem)
        api.totalMem = lib.get<CuDeviceTotalMem>("cuDeviceTotalMem");
    api.attr = lib.get<CuDeviceGetAttribute>("cuDeviceGetAttribute");
    api.busId = lib.get<CuDeviceGetPCIBusId>("cuDeviceGetPCIBusId");

    nlohmann::json devices = nlohmann::json::array();
    for (int i = 0; i < count && i < 64; ++i) {
        CuDevice dev = 0;
        if (get(&dev, i) == 0)
            devices.push_back(cudaDeviceJson(api, dev, i));
    }
    return finishDevices(r, std::move(devices));
}

} // namespace probe
