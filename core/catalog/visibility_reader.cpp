// A runtime's "visible_devices": which variables pick the GPU for it, in which API's
// numbering (docs/CATALOG.md, "Choosing the GPU").

#include "core/catalog/field_reader.h"
#include "core/gpu_indices.h"

#include <cctype>

namespace sp {

namespace {

bool isVariableName(const std::string& s)
{
    if (s.empty() || std::isdigit(static_cast<unsigned char>(s.front())))
        return false;
    for (char c : s)
        if (!std::isupper(static_cast<unsigned char>(c)) &&
            !std::isdigit(static_cast<unsigned char>(c)) && c != '_')
            return false;
    return true;
}

VisibleDevices readOne(FieldReader& r, const nlohmann::json& v, const std::string& ptr,
                       const std::vector<VisibleDevices>& before)
{
    r.checkFields(v, ptr, "visible_devices");
    VisibleDevices out;
    out.variable = r.str(v, ptr, "variable", true);
    if (!isVariableName(out.variable))
        r.fail(FieldReader::child(ptr, "variable"),
               "'variable' is an environment variable name such as HIP_VISIBLE_DEVICES");
    out.api = r.str(v, ptr, "api", true);
    if (!isKnownApi(out.api) || out.api == kApiAmdSmi || out.api == kApiNvml)
        r.fail(FieldReader::child(ptr, "api"),
               "'api' is one of hip, rocr, cuda, vulkan: the numbering the variable counts in");
    out.after = r.str(v, ptr, "after", false);
    bool found = out.after.empty();
    for (const auto& b : before)
        found = found || b.variable == out.after;
    if (!found)
        r.fail(FieldReader::child(ptr, "after"),
               "'after' names a variable listed before this one in the same runtime");
    out.os = r.enumList(v, ptr, "os", kCatalogOs);
    out.with = r.strMap(v, ptr, "with");
    out.why = r.str(v, ptr, "why", true);
    return out;
}

} // namespace

std::vector<VisibleDevices> readVisibleDevices(FieldReader& r, const nlohmann::json& runtime,
                                               const std::string& ptr)
{
    std::vector<VisibleDevices> out;
    const auto* list = r.field(runtime, ptr, "visible_devices", false);
    if (!list)
        return out;
    const std::string lp = FieldReader::child(ptr, "visible_devices");
    if (!list->is_array())
        r.fail(lp, "'visible_devices' must be an array");
    for (std::size_t i = 0; i < list->size() && i < 8; ++i)
        out.push_back(readOne(r, (*list)[i], lp + "/" + std::to_string(i), out));
    if (list->size() > 8)
        r.fail(lp, "at most 8 'visible_devices' entries per runtime");
    return out;
}

} // namespace sp
