#pragma once
// What the Windows APIs report about display adapters, as plain structs. The
// enumerators (dxgi_adapters.cpp, setupapi_devices.cpp) are the only code that
// touches those APIs; combineWindowsGpus() turns their output into the snapshot's
// GpuInfo and is pure, so the Linux unit tests exercise it with recorded values.

#include "core/expected.h"
#include "core/snapshot.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sp::win {

// One DXGI_ADAPTER_DESC1, strings converted to UTF-8.
struct WinAdapter
{
    std::uint32_t vendorId = 0;
    std::uint32_t deviceId = 0;
    std::uint32_t subsysId = 0;
    std::uint32_t revision = 0;
    std::uint64_t dedicatedVideoMemory = 0;
    std::uint64_t dedicatedSystemMemory = 0;
    std::uint64_t sharedSystemMemory = 0;
    std::string description;
    std::uint64_t luid = 0; // (HighPart << 32) | LowPart
    bool software = false;  // DXGI_ADAPTER_FLAG_SOFTWARE
};

// One present device of the display class {4d36e968-e325-11ce-bfc1-08002be10318},
// with what its driver key in the registry says.
struct WinDisplayDevice
{
    std::string instanceId;                   // "PCI\VEN_1002&DEV_73DF&...\4&2c0b8a8d&0&0008"
    std::vector<std::string> hardwareIds;     // SPDRP_HARDWAREID, most specific first
    std::string deviceDesc;                   // SPDRP_DEVICEDESC
    std::optional<std::uint32_t> busNumber;   // SPDRP_BUSNUMBER
    std::optional<std::uint32_t> address;     // SPDRP_ADDRESS: (device << 16) | function
    std::optional<std::uint32_t> problemCode; // CM_Get_DevNode_Status, when the device has one
    // From the driver key (SetupDiOpenDevRegKey DIREG_DRV):
    std::string driverDesc;
    std::string driverVersion;
    std::optional<std::uint64_t> memorySize; // HardwareInformation.qwMemorySize / .MemorySize
    bool registryRead = false;               // the driver key could be opened
};

// DXGI adapters in DXGI's order (the primary first). Fails only when DXGI itself
// fails (no factory, an enumeration error other than "no more adapters").
Expected<std::vector<WinAdapter>> enumerateDxgiAdapters();

// Present display-class devices. Fails when SetupAPI cannot list the class.
Expected<std::vector<WinDisplayDevice>> enumerateDisplayDevices();

// True for adapters that are not a GPU a workload can use: DXGI's software flag
// the Microsoft Basic Render Driver (1414:008c), and vendor ids 0000/ffff.
bool isSoftwareAdapter(const WinAdapter& a);

// Joins both views into one GpuInfo per physical GPU. SetupAPI devices lead
// (they carry the PCI location, driver version and the registry's exact memory
// size); DXGI adapters are matched to them by vendor, device, subsystem and
// revision, in order, and add dedicated memory and the LUID. A DXGI adapter
// without a SetupAPI device still yields a GPU, and so does a PCI device DXGI
// does not show (e.g. a card whose driver failed with code 43).
std::vector<GpuInfo> combineWindowsGpus(const std::vector<WinAdapter>& dxgi,
                                        const std::vector<WinDisplayDevice>& devices);

// Result of the whole Windows detection: GPUs plus one line per API that failed,
// so the caller can record the failure as a probe entry instead of losing it.
struct WindowsGpuReport
{
    std::vector<GpuInfo> gpus;
    std::vector<WinAdapter> dxgiAdapters;
    std::vector<WinDisplayDevice> displayDevices;
    std::vector<std::string> errors; // "dxgi: CreateDXGIFactory1 failed: 0x80004005"
};

// Runs both enumerators and combines them. Windows only (windows_gpus.cpp).
WindowsGpuReport detectWindowsGpus();

} // namespace sp::win
