#pragma once
// `stackpilot-cli snapshot import`: a hardware snapshot (the schema of `detect --json`,
// accepted by `plan --hardware`) built from tool output that a user pasted into an issue
// thread: rocminfo, hipinfo, AMD_LOG_LEVEL traces, clinfo, KFD properties and their greps,
// rocprofv3-avail node dumps, nvidia-smi (table, -q, -L, CSV), lspci and Windows device
// ids, in any mix, quoted, fenced, partial or interleaved. The parsers are the ones
// detection uses (detectors/parsers); this only splits pastes into the separate outputs
// they hold, merges what each says, completes targets from the AMD and NVIDIA tables and
// marks every value's source "import:<tool>".

#include "core/expected.h"
#include "core/snapshot.h"

#include <cstdint>
#include <string>
#include <vector>

namespace sp {

class NvidiaCcTable;
class PciTable;

// Bounds on what is read: a paste is a few hundred kB at most; 4 MiB per file and 64
// files leave room for whole logs without letting a stray disk image in.
inline constexpr std::uintmax_t kMaxPasteBytes = 4u << 20;
inline constexpr std::size_t kMaxPasteFiles = 64;

struct PasteText
{
    std::string origin; // the file name, for messages and the snapshot's record
    std::string text;
};

struct ImportOptions
{
    std::string osFamily;                   // "windows" | "linux"; empty = inferred from the pastes
    const PciTable* pciTable = nullptr;     // nullptr = the shipped AMD table
    const NvidiaCcTable* ccTable = nullptr; // nullptr = the shipped NVIDIA table
};

// The file's text, or a one-line error naming it: missing, not a regular file (a FIFO, a
// folder, a device), or larger than kMaxPasteBytes.
Expected<PasteText> readPaste(const std::string& path);

// Never fails: a paste with nothing recognisable adds a failed "import" probe that says so.
HardwareSnapshot importPastes(const std::vector<PasteText>& pastes, const ImportOptions& options);

// readPaste for each file, then importPastes; the first unreadable file is the error, and
// so is a vulkaninfo output cut off inside a device (its Vulkan numbers would be wrong).
Expected<HardwareSnapshot> importSnapshotFiles(const std::vector<std::string>& paths,
                                               const ImportOptions& options);

} // namespace sp
