// The installed feed's state.json reader (core/catalog/feed/store.h) on arbitrary bytes,
// under its size and depth limits: whatever parses must write back to text that parses
// to the same state, and the counters' look-ups must not trip.

#include "core/catalog/feed/store.h"
#include "tests/support/fuzz_input.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string text = sp::fuzz::textOf(data, size);
    auto s = sp::feed::parseFeedState(text, "state.json");
    if (!s)
        return 0;
    for (const auto& c : s->counters)
        if (!s->counterFor(c.feed, c.keyId) || s->counterFor(c.feed, c.keyId)->highest < c.highest)
            __builtin_trap();
    const std::string written = sp::feed::toJsonText(*s);
    if (written.size() > sp::feed::kMaxStateBytes) // pretty-printed, it may grow past the limit
        return 0;
    auto again = sp::feed::parseFeedState(written, "again.json");
    if (!again || sp::feed::toJsonText(*again) != written)
        __builtin_trap();
    return 0;
}
