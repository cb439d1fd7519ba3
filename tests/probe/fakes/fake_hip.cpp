// A fake HIP runtime, built as a shared library in several flavours (FAKE_HIP_*)
// and loaded by stackpilot-probe through STACKPILOT_HIP_LIB, i.e. through the
// real dlopen path.

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <thread>

#if defined(FAKE_HIP_R0600) || defined(FAKE_HIP_PLAIN_R0600)
#include "hip_props_r0600.h"
#elif defined(FAKE_HIP_R0000)
// fake_hip_r0000_fill.cpp: kept apart because HIP's header declares the same
// entry points with its own types.
void fakeFillR0000(void* out, int id);
#endif

#define FAKE_EXPORT extern "C" __attribute__((visibility("default")))

FAKE_EXPORT int hipDriverGetVersion(int* v)
{
    *v = 60140092; // HIP 6.1
    return 0;
}

FAKE_EXPORT int hipRuntimeGetVersion(int* v)
{
    *v = 60140092;
    return 0;
}

#if defined(FAKE_HIP_CRASH)
FAKE_EXPORT int hipGetDeviceCount(int*)
{
    // What a broken driver does while enumerating devices.
    std::raise(SIGSEGV);
    return 0;
}
#elif defined(FAKE_HIP_HANG)
FAKE_EXPORT int hipGetDeviceCount(int*)
{
    for (;;)
        std::this_thread::sleep_for(std::chrono::hours(1));
}
#else
FAKE_EXPORT int hipGetDeviceCount(int* count)
{
    // Like the real runtime: an empty HIP_VISIBLE_DEVICES hides every device.
    const char* visible = std::getenv("HIP_VISIBLE_DEVICES");
    *count = (visible && !*visible) ? 0 : 2;
    return 0;
}
#endif

#if defined(FAKE_HIP_PLAIN_R0600)
// A runtime that exports only the unversioned name but fills the new layout.
FAKE_EXPORT int hipGetDeviceProperties(void* out, int id)
{
    auto* p = static_cast<FakeHipDevicePropR0600*>(out);
    std::strcpy(p->name, id == 0 ? "AMD Radeon 780M" : "AMD Radeon RX 7800 XT");
    std::strcpy(p->gcnArchName, id == 0 ? "gfx1103" : "gfx1101");
    p->totalGlobalMem = id == 0 ? 2ull << 30 : 16ull << 30;
    p->multiProcessorCount = id == 0 ? 12 : 60;
    return 0;
}
#elif defined(FAKE_HIP_R0600)
// An APU first (gfx1036, integrated), then the discrete card.
FAKE_EXPORT int hipGetDevicePropertiesR0600(void* out, int id)
{
    auto* p = static_cast<FakeHipDevicePropR0600*>(out);
    if (id == 0) {
        std::strcpy(p->name, "AMD Radeon Graphics");
        std::strcpy(p->gcnArchName, "gfx1036:xnack-");
        p->totalGlobalMem = 512ull << 20;
        p->multiProcessorCount = 2;
        p->integrated = 1;
        p->pciBusID = 0x0e;
    } else {
        std::strcpy(p->name, "AMD Radeon RX 6750 XT");
        // Like the real runtime: an override changes the reported target.
        std::strcpy(p->gcnArchName,
                    std::getenv("HSA_OVERRIDE_GFX_VERSION") ? "gfx1030" : "gfx1031:xnack-");
        p->totalGlobalMem = 12ull << 30;
        p->multiProcessorCount = 40;
        p->integrated = 0;
        p->pciBusID = 0x03;
    }
    return 0;
}
#elif defined(FAKE_HIP_R0000)
FAKE_EXPORT int hipGetDevicePropertiesR0000(void* out, int id)
{
    fakeFillR0000(out, id);
    return 0;
}
#endif
