// libFuzzer target: sp::parseVulkaninfo on arbitrary tool output.

#include "detectors/parsers/tool_parsers.h"
#include "parsed_probe_checks.h"
#include "tests/support/fuzz_input.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const sp::ParsedProbe p = sp::parseVulkaninfo(sp::fuzz::bytesOf(data, size));
    sp::fuzz::checkParsedProbe(p);
    return 0;
}
