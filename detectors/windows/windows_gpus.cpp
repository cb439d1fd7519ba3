// Windows GPU detection: both enumerators, combined. Windows only.
#include "detectors/windows/adapters.h"

namespace sp::win {

WindowsGpuReport detectWindowsGpus()
{
    WindowsGpuReport r;
    // Either API alone still gives a usable answer, so one failing is recorded
    // and the other one's view is kept.
    auto dxgi = enumerateDxgiAdapters();
    if (dxgi)
        r.dxgiAdapters = std::move(*dxgi);
    else
        r.errors.push_back(dxgi.error().message);
    auto devices = enumerateDisplayDevices();
    if (devices)
        r.displayDevices = std::move(*devices);
    else
        r.errors.push_back(devices.error().message);
    r.gpus = combineWindowsGpus(r.dxgiAdapters, r.displayDevices);
    return r;
}

} // namespace sp::win
