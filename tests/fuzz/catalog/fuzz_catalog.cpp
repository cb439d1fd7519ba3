#include "core/catalog/loader.h"
#include "core/select/select.h"
#include "tests/support/fuzz_input.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace {

sp::HardwareSnapshot machine(const char* os, sp::Vendor vendor, const char* gfx, const char* cc,
                             bool nfs)
{
    sp::HardwareSnapshot s;
    s.os.family = os;
    s.home.path = "/home/u";
    s.home.filesystem = nfs ? "nfs" : "ext4";
    s.home.network = nfs;
    sp::GpuInfo g;
    g.vendor = vendor;
    g.name = "gpu";
    if (gfx)
        g.gfx = gfx;
    if (cc)
        g.computeCapability = cc;
    g.vramMb = 8192;
    g.integrated = false;
    s.gpus.push_back(g);
    return s;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string text = sp::fuzz::textOf(data, size);
    (void)sp::PositionIndex::build(text); // the scanner must survive any bytes
    sp::CatalogLoader loader;
    if (!loader.addText(text, "fuzz.json"))
        return 0;
    if (!loader.checkReferences())
        return 0;
    (void)loader.checkUserTexts(); // the user-text rule reads any text a file carries
    static const sp::HardwareSnapshot machines[] = {
        machine("windows", sp::Vendor::Amd, "gfx1031", nullptr, false),
        machine("linux", sp::Vendor::Amd, "gfx1103", nullptr, true),
        machine("linux", sp::Vendor::Nvidia, nullptr, "6.1", false),
    };
    sp::SelectSettings settings;
    settings.dataDir = "/data";
    settings.cacheDir = "/home/u/.cache";
    for (const auto& w : loader.catalog().workloads)
        for (const auto& m : machines) {
            auto plan = sp::makePlan(m, loader.catalog(), w.id, settings);
            if (plan)
                (void)sp::toJson(*plan).dump();
        }
    return 0;
}
