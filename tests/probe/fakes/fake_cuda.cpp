// A fake CUDA driver (libcuda): one device, compute capability 6.1, CUDA 12.4.
// cuInit fails with CUDA_ERROR_NO_DEVICE while CUDA_VISIBLE_DEVICES is set to an
// empty value, as the real driver does, so the test sees the probe unset it.

#include <cstdlib>
#include <cstring>

#define FAKE_EXPORT extern "C" __attribute__((visibility("default")))

FAKE_EXPORT int cuInit(unsigned int)
{
    const char* v = std::getenv("CUDA_VISIBLE_DEVICES");
    return (v && !*v) ? 100 : 0;
}
FAKE_EXPORT int cuDriverGetVersion(int* v)
{
    *v = 12040;
    return 0;
}
FAKE_EXPORT int cuDeviceGetCount(int* n)
{
    *n = 1;
    return 0;
}
FAKE_EXPORT int cuDeviceGet(int* d, int i)
{
    *d = i;
    return 0;
}
FAKE_EXPORT int cuDeviceGetName(char* name, int len, int)
{
    std::strncpy(name, "NVIDIA GeForce GTX 1080", static_cast<std::size_t>(len));
    return 0;
}
FAKE_EXPORT int cuDeviceTotalMem_v2(std::size_t* bytes, int)
{
    *bytes = std::size_t(8) << 30;
    return 0;
}
FAKE_EXPORT int cuDeviceGetAttribute(int* v, int attr, int)
{
    *v = attr == 75 ? 6 : attr == 76 ? 1 : 0;
    return 0;
}
FAKE_EXPORT int cuDeviceGetPCIBusId(char* s, int len, int)
{
    std::strncpy(s, "0000:01:00.0", static_cast<std::size_t>(len));
    return 0;
}
