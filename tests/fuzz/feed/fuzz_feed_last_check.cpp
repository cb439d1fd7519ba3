// The daily check's last-check.json (installers/feed_daily_check.h) on arbitrary bytes,
// under its size and depth limits: a time, or nothing (the check is then due), and
// what it writes reads back as the same time.

#include "installers/feed_daily_check.h"
#include "tests/support/fuzz_input.h"

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string text = sp::fuzz::textOf(data, size);
    auto t = sp::feed::parseLastCheck(text);
    if (!t)
        return 0;
    const std::string written = nlohmann::json{{"checked_at", *t}}.dump() + "\n";
    auto again = sp::feed::parseLastCheck(written);
    if (!again || *again != *t)
        __builtin_trap();
    return 0;
}
