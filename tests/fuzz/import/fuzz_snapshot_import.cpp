// libFuzzer target: sp::importPastes on arbitrary text. A NUL byte splits the input into
// separate pastes (files), so merging across files is exercised too.

#include "detectors/import/snapshot_import.h"
#include "detectors/nvidia_cc_table.h"
#include "detectors/parsers/parsed_probe.h"
#include "detectors/pci_table.h"
#include "tests/support/fuzz_input.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

namespace {

const sp::ImportOptions& options()
{
    static const sp::PciTable amd =
        sp::PciTable::load(STACKPILOT_GPU_DATA_DIR "/amd-pci-devices.json").value();
    static const sp::NvidiaCcTable nvidia =
        sp::NvidiaCcTable::load(STACKPILOT_GPU_DATA_DIR "/nvidia-compute-capability.json").value();
    static const sp::ImportOptions o = [] {
        sp::ImportOptions opt;
        opt.pciTable = &amd;
        opt.ccTable = &nvidia;
        return opt;
    }();
    return o;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    std::vector<sp::PasteText> pastes;
    // One paste per NUL-separated part, at most four (what follows the fourth is dropped).
    for (sp::fuzz::Cut cut{{}, sp::fuzz::bytesOf(data, size)}; cut.rest && pastes.size() < 4;) {
        cut = sp::fuzz::cutAt(*cut.rest, '\0');
        pastes.push_back({"paste" + std::to_string(pastes.size()), std::string(cut.head)});
    }
    const sp::HardwareSnapshot snap = sp::importPastes(pastes, options());
    // Bounded, every value says where it came from, one probe per paste, and the result is
    // a snapshot `plan --hardware` accepts.
    if (snap.gpus.size() > sp::kMaxParsedGpus || snap.probes.size() != pastes.size())
        std::abort();
    for (const auto& g : snap.gpus) {
        if (g.sources.empty())
            std::abort();
        for (const auto& s : g.sources)
            if (s.rfind("import:", 0) != 0)
                std::abort();
        if (g.gfx && (g.gfx->rfind("gfx", 0) != 0 || g.vendor != sp::Vendor::Amd))
            std::abort();
    }
    if (!sp::snapshotFromJson(sp::toJson(snap), "fuzz"))
        std::abort();
    return 0;
}
