#pragma once
// Joins the GPU lists of several sources (sysfs, the HIP/NVML/CUDA probes, tool
// parses, the PCI table) into one list, one entry per physical GPU.

#include "core/snapshot.h"

#include <string>
#include <vector>

namespace sp {

class NvidiaCcTable;
class PciTable;

// How far a source's values can be trusted: the driver or a vendor library (kfd,
// drm, hip, nvml, cuda, dxgi, setupapi, registry) = 3, a vendor tool's printed
// output (rocminfo, hipinfo, nvidia-smi) = 2, the PCI table's or the NVIDIA table's
// guess (pci-table, nvidia-cc-table) = 1. Unknown sources count as tools; an imported
// value ("import:rocminfo") ranks as a tool's, an imported guess as a guess.
int sourceRank(const std::string& source);

// "0000:03:00.0" from "03:00.0", "00000000:03:00.0" or upper case; empty if it
// does not look like a PCI address.
std::string normalizePciBus(const std::string& bus);

// Merges the lists in order. GPUs are the same when their PCI bus addresses are,
// else when vendor:device match (the n-th of a kind pairs with the n-th), else for
// entries with neither, when the vendor matches and the gfx does not contradict.
// Every field takes the value of the highest-ranked source that has one; among
// equals the earlier list wins, so a later source only fills gaps. `sources` is
// the union, in order of first appearance. At most kMaxParsedGpus GPUs come out (the
// first ones met): a GPU that pairs with none of them once there are that many is
// dropped, so the work stays linear in the input however long the lists are.
std::vector<GpuInfo> mergeGpuLists(const std::vector<std::vector<GpuInfo>>& lists);

// One list per first source, in order of first appearance: a probe report holds every
// vendor probe's GPUs (NVML's and CUDA's) in one list, and mergeGpuLists keeps two GPUs of
// one list apart, so one H200 seen by NVML and CUDA came out as two GPUs.
std::vector<std::vector<GpuInfo>> listsBySource(std::vector<GpuInfo> gpus);

// Fills what is still unknown for AMD GPUs from the PCI table (gfx, name, APU
// flag; adds "pci-table" to sources when it supplied one), then the remaining guesses:
// integrated by Ollama's rule (VRAM <= 4 GiB, GTT >= 8 GiB and >= 4x VRAM) and a
// name built from the PCI id. An AMD GPU that has no id the table knows takes the gfx of
// its marketing name when the table gives that name one target only.
void completeFromTable(std::vector<GpuInfo>& gpus, const PciTable& table);

// Fills the compute capability of NVIDIA GPUs that lack one from the NVIDIA table, by
// PCI device id, else by product name (a name nvidia-smi's table cut short, extra
// "name_truncated", matches only where that is unambiguous); adds "nvidia-cc-table" to
// sources where it supplied the value.
void completeNvidiaFromTable(std::vector<GpuInfo>& gpus, const NvidiaCcTable& table);

} // namespace sp
