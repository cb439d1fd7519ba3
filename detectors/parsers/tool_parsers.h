#pragma once
// Parsers for the text of vendor tools. Each takes the tool's combined output
// and its exit code and never throws; a status of Failed with detail "no device"
// means the tool ran but saw no GPU (the same convention as stackpilot-probe).

#include "detectors/parsers/parsed_probe.h"

namespace sp {

// Every parser reads its tool's output as users paste it too: partial (a window that
// starts or ends mid-device), grepped, "> "-quoted, in Markdown fences, with CRLF,
// timestamps or interleaved log lines (parse_util::cleanLine), so that a partial real
// output never hides a GPU named in it. Detection and `snapshot import` share them.

// `rocminfo`: one "Agent N" block per HSA agent; CPU and NPU agents are skipped. Without
// headers (a grep, a window) an agent-level "Name:" opens an agent; without "Device Type"
// an agent naming a gfx target (its own or its ISA's) or a chip id is a GPU. Only the
// first kMaxParsedGpus agents (CPU agents included) are read.
ParsedProbe parseRocminfo(std::string_view text, int exitCode);

// `hipinfo` / hipInfo.exe (HIP SDK sample): one block per "device#" (or, without those
// lines, per run of hipInfo keys). "Gfx Major/Minor/Stepping: a/b/c" lines that the HIP
// runtime logs with AMD_LOG_LEVEL give the target of devices that lack an arch line, or,
// alone, one GPU each; "amd-log" is among the sources of a GPU whose target is a trace's.
// Only the first kMaxParsedGpus devices and as many traces are read.
ParsedProbe parseHipinfo(std::string_view text, int exitCode);

// `nvidia-smi --query-gpu=... --format=csv[,noheader][,nounits]`. A header line maps the
// columns (any order, any subset); rows without one are read in the order detection asks
// for (name, pci.bus_id, memory.total, compute_cap, driver_version; without compute_cap
// when `withComputeCap` is false: older drivers reject that field), else by the shape of
// each field.
ParsedProbe parseNvidiaSmiCsv(std::string_view text, int exitCode, bool withComputeCap = true);

// nvidia-smi's default table, its `-q` report and its `-L` list (nvidia_smi_text.cpp).
ParsedProbe parseNvidiaSmiTable(std::string_view text);
ParsedProbe parseNvidiaSmiQuery(std::string_view text);
ParsedProbe parseNvidiaSmiList(std::string_view text);

// `lspci` display-class lines (ids from -nn's "[10de:2204]" or from "Device 2684"; the
// product name from the brackets) and Windows device ids ("PCI\VEN_10DE&DEV_2C58&...").
ParsedProbe parseLspci(std::string_view text);

// `clinfo`, ROCm's ("Board name:", "Device Topology: PCI[ B#3, D#0, F#0 ]", "Name: gfx1030")
// and Khronos' ("Device Name  gfx1030", "Device PCI-e ID (AMD)  0x73bf").
ParsedProbe parseClinfo(std::string_view text);

// vulkaninfo: the full report, `--summary` ("GPU0:" blocks of "key = value") and the list
// MESA_VK_DEVICE_SELECT=list prints ("GPU 0: 1002:744c \"name\" discrete GPU 0000:03:00.0").
// vulkaninfo's devices keep their Vulkan index ("vulkan"; the layer's list numbers devices
// in its own order and gives none); CPU devices (llvmpipe) are skipped. A
// "GPUn:" block without deviceName or vendorID (a paste cut off there) is named in the
// probe's extra "cut_off" (vulkaninfo.cpp).
ParsedProbe parseVulkaninfo(std::string_view text);

// amd-smi `list`, `static` and its table: the amd-smi GPU index ("amd-smi"), the BDF, the
// KFD node (list's NODE_ID), the name, ids and gfx target (static) and, from the table's
// HIP-ID column, the HIP device id (amd_smi.cpp).
ParsedProbe parseAmdSmi(std::string_view text);

// One JSON object printed by `stackpilot-probe NAME` (see detectors/probe/probes.h).
ParsedProbe parseProbeJson(std::string_view name, std::string_view text);

} // namespace sp
