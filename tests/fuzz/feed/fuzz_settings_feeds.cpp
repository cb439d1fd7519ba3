// settings.json's "feeds" list (core/catalog/feed/feed_list.h) read through the public
// settings reader (Settings::parse) on arbitrary bytes. The input is the value of
// "feeds" inside an otherwise valid settings document, so the fuzzer spends its time on
// the list. Whatever list is accepted must be written back by rememberFeed and read
// again with the same URLs and keys.

#include "core/catalog/feed/feed_list.h"
#include "core/settings.h"
#include "tests/support/fuzz_input.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string value = sp::fuzz::textOf(data, size);
    auto settings = sp::Settings::parse("{\"schema\": 1, \"feeds\": " + value + "}", "fuzz.json");
    if (!settings)
        return 0;
    auto listed = sp::feed::feedsFrom(*settings, "fuzz.json");
    if (!listed)
        return 0;
    sp::Settings fresh;
    for (const auto& f : *listed)
        if (!sp::feed::rememberFeed(fresh, f))
            __builtin_trap();
    auto again = sp::feed::feedsFrom(fresh, "again.json");
    if (!again)
        __builtin_trap();
    for (const auto& f : *listed) { // a URL listed twice keeps its last key
        bool found = false;
        for (const auto& g : *again)
            found = found || (g.url == f.url);
        if (!found)
            __builtin_trap();
    }
    return 0;
}
