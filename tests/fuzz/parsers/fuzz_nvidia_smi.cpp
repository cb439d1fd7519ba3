// libFuzzer target: sp::parseNvidiaSmiCsv on arbitrary CSV.

#include "detectors/parsers/tool_parsers.h"
#include "parsed_probe_checks.h"
#include "tests/support/fuzz_input.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text = sp::fuzz::bytesOf(data, size);
    const sp::ParsedProbe p =
        sp::parseNvidiaSmiCsv(text, 0, (sp::fuzz::firstByte(data, size) & 1) != 0);
    sp::fuzz::checkParsedProbe(p);
    return 0;
}
