// The policy tables of a catalog document: HSA override conventions, the cache
// variables moved off a network home, and where they are moved to. They are data so
// that adding a GPU or a workaround needs no recompile (docs/CATALOG.md).

#include "core/catalog/field_reader.h"
#include "core/catalog/version_range.h"

#include <set>

namespace sp {

namespace {

const std::set<std::string> kConfidence = {"established", "reported", "inferred"};

GfxOverride readGfxOverride(FieldReader& r, const nlohmann::json& j, const std::string& ptr)
{
    r.checkFields(j, ptr, "gfx_override");
    GfxOverride o;
    o.gfx = r.str(j, ptr, "gfx", true);
    if (o.gfx.rfind("gfx", 0) != 0 || o.gfx.size() < 5 || o.gfx.back() == '*')
        r.fail(FieldReader::child(ptr, "gfx"), "'gfx' must be one exact target such as gfx1031");
    o.hsaOverride = r.str(j, ptr, "hsa_override", true);
    const auto v = parseVersion(o.hsaOverride);
    if (!v || v->size() != 3)
        r.fail(FieldReader::child(ptr, "hsa_override"),
               "'hsa_override' must be major.minor.stepping such as 10.3.0");
    o.os = r.enumList(j, ptr, "os", kCatalogOs);
    o.confidence = r.str(j, ptr, "confidence", true);
    if (!kConfidence.count(o.confidence))
        r.fail(FieldReader::child(ptr, "confidence"),
               "'confidence' must be established, reported or inferred");
    o.evidence = r.str(j, ptr, "evidence", true);
    o.warning = r.str(j, ptr, "warning", false);
    o.references = r.strList(j, ptr, "references");
    r.str(j, ptr, "notes", false);
    o.where = r.where(ptr);
    return o;
}

// A convention that must never be used. `gfx` lists targets or family patterns;
// `hsa_override` the refused values (absent = any override).
GfxOverrideBan readGfxOverrideBan(FieldReader& r, const nlohmann::json& j, const std::string& ptr)
{
    r.checkFields(j, ptr, "gfx_override_ban");
    GfxOverrideBan b;
    b.id = r.id(j, ptr);
    b.gfx = r.strList(j, ptr, "gfx");
    if (b.gfx.empty())
        r.fail(FieldReader::child(ptr, "gfx"), "a gfx_override_ban needs a non-empty 'gfx' list");
    for (std::size_t i = 0; i < b.gfx.size(); ++i)
        if (b.gfx[i].rfind("gfx", 0) != 0 || b.gfx[i].size() < 4)
            r.fail(FieldReader::child(ptr, "gfx") + "/" + std::to_string(i),
                   "'gfx' entries look like gfx1031 or gfx103*");
    b.hsaOverride = r.strList(j, ptr, "hsa_override");
    for (std::size_t i = 0; i < b.hsaOverride.size(); ++i) {
        const auto v = parseVersion(b.hsaOverride[i]);
        if (!v || v->size() != 3)
            r.fail(FieldReader::child(ptr, "hsa_override") + "/" + std::to_string(i),
                   "'hsa_override' entries are major.minor.stepping such as 10.3.0");
    }
    b.os = r.enumList(j, ptr, "os", kCatalogOs);
    if (const auto* w = r.field(j, ptr, "when_runtime", false))
        b.whenRuntime = readRuntimeConditions(r, *w, FieldReader::child(ptr, "when_runtime"));
    b.evidence = r.str(j, ptr, "evidence", true);
    b.references = r.strList(j, ptr, "references");
    r.str(j, ptr, "notes", false);
    b.where = r.where(ptr);
    return b;
}

CacheVariable readCacheVariable(FieldReader& r, const nlohmann::json& j, const std::string& ptr)
{
    r.checkFields(j, ptr, "cache_variable");
    CacheVariable c;
    c.name = r.str(j, ptr, "name", true);
    const bool nameOk =
        !c.name.empty() &&
        c.name.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == std::string::npos;
    if (!nameOk)
        r.fail(FieldReader::child(ptr, "name"),
               "'name' must be an environment variable name (A-Z, 0-9, _)");
    c.subdir = r.str(j, ptr, "subdir", true);
    if (c.subdir.empty() || c.subdir.find_first_of("/\\") != std::string::npos || c.subdir == "..")
        r.fail(FieldReader::child(ptr, "subdir"), "'subdir' must be one folder name");
    c.why = r.str(j, ptr, "why", true);
    if (const auto* w = r.field(j, ptr, "when_runtime", false))
        c.whenRuntime = readRuntimeConditions(r, *w, FieldReader::child(ptr, "when_runtime"));
    c.always = r.boolean(j, ptr, "always");
    c.references = r.strList(j, ptr, "references");
    r.str(j, ptr, "notes", false);
    c.where = r.where(ptr);
    return c;
}

CacheRelocation readRelocation(FieldReader& r, const nlohmann::json& j, const std::string& ptr)
{
    r.checkFields(j, ptr, "cache_relocation");
    CacheRelocation c;
    c.os = r.enumList(j, ptr, "os", kCatalogOs).at(0);
    c.base = r.str(j, ptr, "base", true);
    const bool absolute =
        c.base.rfind('/', 0) == 0 || (c.base.size() > 2 && c.base[1] == ':' && c.base[2] == '\\');
    if (!absolute)
        r.fail(FieldReader::child(ptr, "base"), "'base' must be an absolute folder");
    c.why = r.str(j, ptr, "why", false);
    r.str(j, ptr, "notes", false);
    c.where = r.where(ptr);
    return c;
}

} // namespace

void readPolicyTables(FieldReader& r, const nlohmann::json& doc, Catalog& out)
{
    eachEntry(r, doc, "gfx_overrides", "gfx", [&](const nlohmann::json& j, const std::string& p) {
        out.gfxOverrides.push_back(readGfxOverride(r, j, p));
        return out.gfxOverrides.back().gfx;
    });
    eachEntry(r, doc, "gfx_override_bans", "id",
              [&](const nlohmann::json& j, const std::string& p) {
                  out.gfxOverrideBans.push_back(readGfxOverrideBan(r, j, p));
                  return out.gfxOverrideBans.back().id;
              });
    eachEntry(r, doc, "cache_variables", "name",
              [&](const nlohmann::json& j, const std::string& p) {
                  out.cacheVariables.push_back(readCacheVariable(r, j, p));
                  return out.cacheVariables.back().name;
              });
    eachEntry(r, doc, "cache_relocation", "os", [&](const nlohmann::json& j, const std::string& p) {
        if (!j.is_object() || !j.contains("os") || !j["os"].is_string())
            r.fail(p, "a cache_relocation entry needs one 'os' string");
        out.cacheRelocations.push_back(readRelocation(r, j, p));
        return out.cacheRelocations.back().os;
    });
}

} // namespace sp
