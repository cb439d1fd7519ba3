// A stand-in for the HIP SDK's amdhip64_6.dll, built with MinGW for
// .ci/test-windows: one RX 6750 XT (gfx1031), so stackpilot-probe's LoadLibrary
// path and its reading of hipDeviceProp_tR0600 can be checked under Wine.
// The offsets are written out from HIP 6's hip_runtime_api.h
// (https://github.com/ROCm/HIP/blob/develop/include/hip/hip_runtime_api.h),
// not taken from the probe's own table, so a wrong table shows up here.

#include <cstdint>
#include <cstring>

namespace {

constexpr int kSuccess = 0;
constexpr int kInvalidDevice = 101;

void put(void* props, std::size_t offset, const void* data, std::size_t size)
{
    std::memcpy(static_cast<unsigned char*>(props) + offset, data, size);
}

} // namespace

extern "C" {

__declspec(dllexport) int hipGetDeviceCount(int* count)
{
    *count = 1;
    return kSuccess;
}

// 6.1.40091 encoded as HIP does: major * 10000000 + minor * 100000 + patch.
__declspec(dllexport) int hipDriverGetVersion(int* v)
{
    *v = 60140091;
    return kSuccess;
}

__declspec(dllexport) int hipRuntimeGetVersion(int* v)
{
    *v = 60140091;
    return kSuccess;
}

__declspec(dllexport) const char* hipGetErrorString(int code)
{
    return code == kSuccess ? "hipSuccess" : "hipErrorInvalidDevice";
}

__declspec(dllexport) int hipGetDevicePropertiesR0600(void* props, int device)
{
    if (device != 0)
        return kInvalidDevice;
    const char name[] = "AMD Radeon RX 6750 XT";
    put(props, 0, name, sizeof name);      // char name[256]
    const std::uint64_t mem = 12ull << 30; // after uuid[16], luid[8], luidDeviceNodeMask
    put(props, 288, &mem, sizeof mem);     // size_t totalGlobalMem
    const int cus = 40;
    put(props, 388, &cus, sizeof cus); // int multiProcessorCount
    const char arch[] = "gfx1031:sramecc-:xnack-";
    put(props, 1160, arch, sizeof arch); // char gcnArchName[256]
    return kSuccess;
}

__declspec(dllexport) int hipDeviceGetPCIBusId(char* bus, int len, int device)
{
    const char id[] = "0000:03:00.0";
    if (device != 0 || len < static_cast<int>(sizeof id))
        return kInvalidDevice;
    std::memcpy(bus, id, sizeof id);
    return kSuccess;
}

} // extern "C"
