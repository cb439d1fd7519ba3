// A fake NVML: one GeForce GTX 1080 (compute capability 6.1, 8 GiB), driver
// 550.54.14, CUDA 12.4. Struct layouts as in nvml.h.

#include <cstdio>
#include <cstring>

#define FAKE_EXPORT extern "C" __attribute__((visibility("default")))

namespace {
struct Memory
{
    unsigned long long total, free, used;
};
struct PciInfo
{
    char busIdLegacy[16];
    unsigned int domain, bus, device, pciDeviceId, pciSubSystemId;
    char busId[32];
};
int g_inited = 0;
int g_dev = 0;
} // namespace

FAKE_EXPORT int nvmlInit_v2()
{
    // Vendor libraries do print to stdout; the probe's JSON must survive it.
    std::fputs("nvml: chatter without a newline", stdout);
    g_inited = 1;
    return 0;
}
FAKE_EXPORT int nvmlShutdown()
{
    g_inited = 0;
    return 0;
}
FAKE_EXPORT int nvmlDeviceGetCount_v2(unsigned int* n)
{
    if (!g_inited)
        return 1; // NVML_ERROR_UNINITIALIZED
    *n = 1;
    return 0;
}
FAKE_EXPORT int nvmlDeviceGetHandleByIndex_v2(unsigned int i, void** dev)
{
    if (i != 0)
        return 2;
    *dev = &g_dev;
    return 0;
}
FAKE_EXPORT int nvmlDeviceGetName(void*, char* name, unsigned int len)
{
    std::strncpy(name, "NVIDIA GeForce GTX 1080", len);
    return 0;
}
FAKE_EXPORT int nvmlDeviceGetCudaComputeCapability(void*, int* major, int* minor)
{
    *major = 6;
    *minor = 1;
    return 0;
}
FAKE_EXPORT int nvmlDeviceGetMemoryInfo(void*, Memory* m)
{
    m->total = 8ull << 30;
    m->free = 7ull << 30;
    m->used = 1ull << 30;
    return 0;
}
FAKE_EXPORT int nvmlDeviceGetPciInfo_v3(void*, PciInfo* p)
{
    std::strcpy(p->busIdLegacy, "0000:01:00.0");
    p->domain = 0;
    p->bus = 1;
    p->device = 0;
    p->pciDeviceId = 0x1b8010de;
    p->pciSubSystemId = 0;
    std::strcpy(p->busId, "00000000:01:00.0");
    return 0;
}
FAKE_EXPORT int nvmlSystemGetDriverVersion(char* v, unsigned int len)
{
    std::strncpy(v, "550.54.14", len);
    return 0;
}
FAKE_EXPORT int nvmlSystemGetCudaDriverVersion_v2(int* v)
{
    *v = 12040;
    return 0;
}
