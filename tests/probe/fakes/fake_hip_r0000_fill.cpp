// Fills an R0000 hipDeviceProp_t. Where HIP 5's header is installed (Debian's
// libamdhip64-dev) its hipDeviceProp_t is that layout and is used by name;
// otherwise the probe's own offsets are the only reference.

#include <cstring>

#if __has_include(<hip/hip_runtime_api.h>)
#define __HIP_PLATFORM_AMD__ 1
#include <hip/hip_runtime_api.h>
#if HIP_VERSION_MAJOR < 6
#define FAKE_HAVE_HIP_HEADER 1
#endif
#endif
#ifndef FAKE_HAVE_HIP_HEADER
#include "detectors/probe/hip_layout.h"
#endif

void fakeFillR0000(void* out, int id)
{
    const char* name = id == 0 ? "AMD Radeon RX 6750 XT" : "AMD Radeon RX 7900 XTX";
    const char* arch = id == 0 ? "gfx1031:sramecc-:xnack-" : "gfx1100";
    const unsigned long long mem = id == 0 ? 12ull << 30 : 24ull << 30;
    const int cus = id == 0 ? 40 : 96;
    const int bus = id == 0 ? 3 : 0x2d;
#ifdef FAKE_HAVE_HIP_HEADER
    auto* p = static_cast<hipDeviceProp_t*>(out);
    std::strcpy(p->name, name);
    std::strcpy(p->gcnArchName, arch);
    p->totalGlobalMem = mem;
    p->multiProcessorCount = cus;
    p->pciBusID = bus;
#else
    namespace L = probe::hip_layout::r0000;
    auto* b = static_cast<char*>(out);
    std::strcpy(b + L::name, name);
    std::strcpy(b + L::gcnArchName, arch);
    std::memcpy(b + L::totalGlobalMem, &mem, sizeof mem);
    std::memcpy(b + L::multiProcessorCount, &cus, sizeof cus);
    std::memcpy(b + L::pciBusID, &bus, sizeof bus);
#endif
}
