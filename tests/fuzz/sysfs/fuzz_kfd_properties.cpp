// KFD topology `properties` parsing and gfx_target_version decoding on arbitrary
// bytes: must never crash, and whatever it decodes must name a plausible target.
#include "detectors/linux/sysfs_gpus.h"
#include "tests/support/fuzz_input.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text = sp::fuzz::bytesOf(data, size);
    const auto props = sp::sysfs::parseKfdProperties(text);
    if (props.vendorId > 0xffff || props.deviceId > 0xffff)
        std::abort();
    if (props.uniqueId && *props.uniqueId == 0)
        std::abort();

    std::uint64_t raw = props.gfxTargetVersion;
    if (size >= sizeof raw)
        std::memcpy(&raw, data, sizeof raw);
    for (std::uint64_t v : {props.gfxTargetVersion, raw}) {
        if (auto gfx = sp::sysfs::gfxFromTargetVersion(v)) {
            if (gfx->size() < 6 || gfx->size() > 7 || gfx->compare(0, 3, "gfx") != 0)
                std::abort();
        }
    }

    const auto bus = sp::sysfs::pciBusFromName(text);
    if (!bus.empty() && bus.size() != 12)
        std::abort();
    return 0;
}
