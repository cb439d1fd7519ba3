// This machine's evidence records and download pins (core/evidence, installers/
// pin_store) on arbitrary bytes, under the limits their files are read with: whatever
// parses must write back to JSON that parses to the same record, and the verdicts and
// the export must not trip.

#include "core/evidence/evidence.h"
#include "core/json_file.h"
#include "installers/pin_store.h"
#include "tests/support/fuzz_input.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string text = sp::fuzz::textOf(data, size);
    auto doc = sp::parseJsonText(text, "fuzz.json", {1u << 20, 16});
    if (!doc)
        return 0;
    (void)sp::parsePins(*doc, "fuzz.json");
    if (!doc->is_object() || !doc->contains("records") || !(*doc)["records"].is_array())
        return 0;
    std::vector<sp::EvidenceRecord> records;
    for (const auto& j : (*doc)["records"]) {
        auto r = sp::evidenceFromJson(j, "fuzz.json");
        if (!r)
            continue;
        auto again = sp::evidenceFromJson(sp::toJson(*r), "again.json");
        if (!again || sp::toJson(*again) != sp::toJson(*r))
            __builtin_trap();
        records.push_back(std::move(*r));
    }
    const sp::MachineFingerprint here{"1002:744c rev c8", "gfx1100", "6.8.0", "linux", "6.8"};
    (void)sp::verdictsFor(records, here);
    (void)sp::exportJson(records).dump();
    return 0;
}
