// A shared record (app/common/ledger/shared_record.h) on arbitrary bytes, under the limits
// `ledger ingest` reads one with: whatever parses must write back to JSON that parses to
// the same record, and must hold no text the redactor would change.

#include "app/common/ledger/shared_record.h"
#include "core/json_file.h"
#include "tests/support/fuzz_input.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string text = sp::fuzz::textOf(data, size);
    auto doc = sp::parseJsonText(text, "fuzz.json",
                                 {sp::ledger::kMaxRecordBytes, sp::ledger::kMaxRecordDepth});
    if (!doc)
        return 0;
    auto r = sp::ledger::recordFromJson(*doc, "fuzz.json");
    if (!r)
        return 0;
    auto again = sp::ledger::recordFromJson(sp::ledger::toJson(*r), "again.json");
    if (!again || sp::ledger::toJson(*again) != sp::ledger::toJson(*r))
        __builtin_trap();
    if (!sp::ledger::privateTextIn(r->decisiveLine).empty())
        __builtin_trap();
    return 0;
}
