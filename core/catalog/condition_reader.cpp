// Parses `match` / `applies` into typed Conditions once, at load time: a value of
// the wrong type is a load error with its position, never a condition that is
// silently skipped when a plan is made.

#include "core/catalog/field_reader.h"

namespace sp {

namespace {

std::vector<std::string> gfxList(FieldReader& r, const nlohmann::json& obj, const std::string& ptr,
                                 const char* key)
{
    auto list = r.strList(obj, ptr, key);
    for (std::size_t i = 0; i < list.size(); ++i) {
        const auto& g = list[i];
        if (g.rfind("gfx", 0) != 0 || g.size() < 4)
            r.fail(FieldReader::child(ptr, key) + "/" + std::to_string(i),
                   std::string("'") + key + "' entries look like gfx1031 or gfx103*");
    }
    return list;
}

} // namespace

std::vector<RuntimeCondition> readRuntimeConditions(FieldReader& r, const nlohmann::json& list,
                                                    const std::string& ptr)
{
    if (!list.is_array())
        r.fail(ptr, "'runtimes' must be an array of {id|kind, version}");
    std::vector<RuntimeCondition> out;
    for (std::size_t i = 0; i < list.size(); ++i) {
        const auto ip = ptr + "/" + std::to_string(i);
        r.checkFields(list[i], ip, "applies_runtime");
        RuntimeCondition c;
        c.id = r.str(list[i], ip, "id", false);
        c.kind = r.str(list[i], ip, "kind", false);
        c.version = r.range(list[i], ip, "version");
        if (c.id.empty() && c.kind.empty() && !c.version)
            r.fail(ip, "a runtime condition needs 'id', 'kind' or 'version'");
        out.push_back(std::move(c));
    }
    return out;
}

Conditions readConditions(FieldReader& r, const nlohmann::json& obj, const std::string& ptr,
                          const std::string& section)
{
    r.checkFields(obj, ptr, section);
    Conditions c;
    c.source = obj;
    c.os = r.enumList(obj, ptr, "os", kCatalogOs);
    c.osBuild = r.range(obj, ptr, "os_build");
    c.vendors = r.enumList(obj, ptr, "vendor", kCatalogVendors);
    c.gfx = gfxList(r, obj, ptr, "gfx");
    c.notGfx = gfxList(r, obj, ptr, "not_gfx");
    c.computeCapability = r.range(obj, ptr, "compute_capability");
    c.driverVersion = r.range(obj, ptr, "driver_version");
    c.integrated = r.optBoolean(obj, ptr, "integrated");
    c.networkHome = r.optBoolean(obj, ptr, "network_home");
    if (auto vram = r.count(obj, ptr, "min_vram_mb")) {
        if (*vram > (1ULL << 40))
            r.fail(FieldReader::child(ptr, "min_vram_mb"), "'min_vram_mb' is out of range");
        c.minVramMb = static_cast<std::int64_t>(*vram);
    }
    if (auto vram = r.count(obj, ptr, "max_vram_mb")) {
        if (*vram > (1ULL << 40) || (c.minVramMb && std::int64_t(*vram) < *c.minVramMb))
            r.fail(FieldReader::child(ptr, "max_vram_mb"),
                   "'max_vram_mb' is out of range or below 'min_vram_mb'");
        c.maxVramMb = static_cast<std::int64_t>(*vram);
    }
    if (section != "applies")
        return c;
    c.workloads = r.strList(obj, ptr, "workloads");
    if (const auto* rts = r.field(obj, ptr, "runtimes", false)) {
        c.runtimes = readRuntimeConditions(r, *rts, FieldReader::child(ptr, "runtimes"));
        c.hasRuntimes = true;
    }
    return c;
}

} // namespace sp
