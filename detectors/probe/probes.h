#pragma once
// The vendor probes run inside stackpilot-probe. Each returns one JSON object:
//   {"probe": "hip", "status": "ok|missing|failed", "detail": "...",
//    "library": "<loaded path>", "driver_version": "6.1", "runtime_version": "6.1",
//    "devices": [{"name", "gfx", "gfx_target", "pci_bus", "pci_id", "vram_mb",
//                 "compute_units", "integrated", "compute_capability"}]}
// missing = no library could be loaded; failed = loaded, but init/count failed
// or it reported zero devices (detail "no device"), so "ok" always means at
// least one GPU was seen.

#include "dynlib.h"

#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace probe {

nlohmann::json probeHip();
nlohmann::json probeNvml();
nlohmann::json probeCuda();

// Shared helpers.
nlohmann::json makeResult(const char* probe);
// How every vendor probe starts: unsets the variables that would hide devices or
// change what the runtime reports, loads the first candidate library, and records it
// in `result` (status "failed" until the probe succeeds). False, with the reason in
// result["detail"] and status "missing", when no candidate loads.
bool openVendorLibrary(DynLib& lib, nlohmann::json& result,
                       const std::vector<std::string>& candidates,
                       std::initializer_list<const char*> hidingVariables);
// "gfx90c:xnack-" -> "gfx90c"
std::string stripTargetFeatures(const std::string& target);
// Records the devices; status "ok" with their count, or "no device" (or the first
// per-device error) when there are none: "ok" always means a GPU was seen.
nlohmann::json finishDevices(nlohmann::json& result, nlohmann::json devices,
                             const std::string& firstError = {});
// Copies a NUL-terminated string out of a fixed-size field, never reading past it.
std::string fixedString(const char* data, std::size_t size);

} // namespace probe
