// The snapshot reader on any bytes: deep nesting, huge numbers, odd types in known
// and unknown fields. Whatever it accepts must survive a JSON round trip unchanged.

#include "core/snapshot.h"
#include "tests/support/fuzz_input.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string text = sp::fuzz::textOf(data, size);
    auto snap = sp::parseSnapshot(text, "fuzz.json");
    if (!snap)
        return 0;
    const std::string once = sp::toJson(*snap).dump();
    auto again = sp::parseSnapshot(once, "again.json");
    if (!again || sp::toJson(*again).dump() != once)
        std::abort(); // lossless: what was read is written back the same
    return 0;
}
