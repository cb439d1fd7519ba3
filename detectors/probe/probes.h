#pragma once
// The vendor probes run inside stackpilot-probe. Each returns one JSON object:
//   {"probe": "hip", "status": "ok|missing|failed", "detail": "...",
//    "library": "<loaded path>", "driver_version": "6.1", "runtime_version": "6.1",
//    "devices": [{"name", "gfx", "gfx_target", "pci_bus", "pci_id", "vram_mb",
//                 "compute_units", "integrated", "compute_capability"}]}
// missing = no library could be loaded; failed = loaded, but init/count failed
// or it reported zero devices (detail "no device"), so "ok" always means at
// least one GPU was seen.

#include <nlohmann/json.hpp>

namespace probe {

nlohmann::json probeHip();
nlohmann::json probeNvml();
nlohmann::json probeCuda();

// Shared helpers.
nlohmann::json makeResult(const char* probe);
// "gfx90c:xnack-" -> "gfx90c"
std::string stripTargetFeatures(const std::string& target);
// Copies a NUL-terminated string out of a fixed-size field, never reading past it.
std::string fixedString(const char* data, std::size_t size);

} // namespace probe
