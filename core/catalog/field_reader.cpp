#include "core/catalog/field_reader.h"

#include "core/catalog/placeholders.h"

#include <algorithm>
#include <cctype>

namespace sp {

namespace {

const std::map<std::string, std::vector<std::string>> kFields = {
    {"file",
     {"$schema", "schema_version", "comment", "runtimes", "workloads", "profiles", "known_issues",
      "gfx_overrides", "gfx_override_bans", "cache_variables", "cache_relocation", "models"}},
    {"model",
     {"id", "kind", "workloads", "family", "files", "license", "params", "quant", "context_length",
      "min_vram_mb", "recommended_vram_mb", "references", "notes", "ui"}},
    {"model_file", {"url", "mirrors", "sha256", "size", "chunks", "url_evidence"}},
    {"model_chunks", {"size", "sha256"}},
    {"model_license", {"id", "url", "accept_required"}},
    {"runtime",
     {"id", "kind", "version", "os", "artifacts", "env", "env_why", "references", "notes",
      "supported_gfx", "supported_cc", "install_dir", "system", "requires", "index_url",
      "executable", "path_dirs", "visible_devices"}},
    {"visible_devices", {"variable", "api", "after", "os", "with", "why"}},
    {"artifact",
     {"url", "mirrors", "sha256", "unpinned", "size", "format", "strip_components", "file_name",
      "installer_args", "max_extracted_size", "commit", "tag", "url_evidence", "url_unverified",
      "size_unverified", "size_unknown"}},
    {"workload",
     {"id", "name", "command", "command_by_os", "cwd", "url_regex", "default_port", "env",
      "references", "notes", "verify", "verify_timeout_s", "ui", "model", "args_when"}},
    {"args_rule", {"when", "args", "unless_args", "why", "references", "notes"}},
    {"workload_model", {"kinds", "args", "view"}},
    {"profile", {"id",         "workload",
                 "status",     "match",
                 "runtimes",   "env",
                 "env_why",    "env_unset",
                 "args",       "steps",
                 "references", "notes",
                 "command",    "python",
                 "warnings",   "fallback",
                 "cwd",        "venv",
                 "preference", "verify",
                 "ui",         "verify_timeout_s",
                 "proof"}},
    {"match",
     {"os", "os_build", "vendor", "gfx", "not_gfx", "compute_capability", "integrated",
      "network_home", "min_vram_mb", "max_vram_mb", "driver_version"}},
    {"applies",
     {"os", "os_build", "vendor", "gfx", "not_gfx", "compute_capability", "integrated",
      "network_home", "min_vram_mb", "max_vram_mb", "driver_version", "workloads", "runtimes"}},
    {"applies_runtime", {"id", "kind", "version"}},
    {"known_issue",
     {"id", "title", "applies", "rejects_profiles", "signatures", "log_requires", "literals",
      "causes", "remedy", "references", "notes", "ui"}},
    {"known_issue_cause", {"code", "names", "on", "when", "over", "notes"}},
    {"cause_when", {"os", "runtimes", "min_gpus", "igpu_failing", "rocm_version"}},
    {"remedy", {"action", "text", "profile", "env", "args", "runtime", "runtime_kind"}},
    {"gfx_override",
     {"gfx", "hsa_override", "os", "confidence", "evidence", "warning", "references", "notes"}},
    {"gfx_override_ban",
     {"id", "gfx", "hsa_override", "os", "when_runtime", "evidence", "references", "notes"}},
    {"cache_variable", {"name", "subdir", "why", "when_runtime", "always", "references", "notes"}},
    {"cache_relocation", {"os", "base", "why", "notes"}},
    {"user_text", {"en", "zh_CN"}},
    {"profile_ui", {"route", "summary", "warnings"}},
    {"workload_ui", {"name", "about"}},
    {"known_issue_ui", {"title", "fix"}},
};

bool validId(const std::string& id)
{
    if (id.empty() || id.size() > 128)
        return false;
    for (char c : id)
        if (!(std::islower(static_cast<unsigned char>(c)) ||
              std::isdigit(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.'))
            return false;
    return std::isalnum(static_cast<unsigned char>(id.front())) != 0;
}

} // namespace

const std::set<std::string> kCatalogOs = {"windows", "linux"};
const std::set<std::string> kCatalogVendors = {"amd", "nvidia", "intel"};

const std::map<std::string, std::vector<std::string>>& catalogFields()
{
    return kFields;
}

void FieldReader::fail(const std::string& pointer, const std::string& reason) const
{
    throw CatalogReadFailure{where(pointer).toString() + ": " + reason};
}

SourceLocation FieldReader::where(const std::string& pointer) const
{
    const auto p = m_index.at(pointer);
    return {m_origin, p.line, p.column};
}

void FieldReader::checkFields(const json& obj, const std::string& ptr, const std::string& section)
{
    if (!obj.is_object())
        fail(ptr, describe(ptr) + ": expected an object");
    const auto& allowed = kFields.at(section);
    for (auto it = obj.begin(); it != obj.end(); ++it) {
        if (std::find(allowed.begin(), allowed.end(), it.key()) == allowed.end())
            m_warnings.push_back(where(child(ptr, it.key())).toString() +
                                 ": warning: unknown field '" + it.key() + "' in " + section +
                                 " (ignored)");
    }
}

std::string FieldReader::child(const std::string& ptr, const std::string& key)
{
    return ptr + "/" + PositionIndex::escapeToken(key);
}

const FieldReader::json* FieldReader::field(const json& obj, const std::string& ptr,
                                            const std::string& key, bool required)
{
    auto it = obj.find(key);
    if (it == obj.end()) {
        if (required)
            fail(ptr, describe(ptr) + ": missing required field '" + key + "'");
        return nullptr;
    }
    return &*it;
}

std::string FieldReader::str(const json& obj, const std::string& ptr, const std::string& key,
                             bool required, bool templ)
{
    const json* v = field(obj, ptr, key, required);
    if (!v)
        return {};
    if (!v->is_string())
        fail(child(ptr, key), "'" + key + "' must be a string");
    auto s = v->get<std::string>();
    if (templ)
        checkTemplate(s, child(ptr, key));
    return s;
}

std::vector<std::string> FieldReader::strList(const json& obj, const std::string& ptr,
                                              const std::string& key, bool templ)
{
    const json* v = field(obj, ptr, key, false);
    if (!v)
        return {};
    return strListValue(*v, child(ptr, key), key, templ);
}

std::vector<std::string> FieldReader::strListValue(const json& v, const std::string& ptr,
                                                   const std::string& key, bool templ)
{
    if (!v.is_array())
        fail(ptr, "'" + key + "' must be an array of strings");
    std::vector<std::string> out;
    for (std::size_t i = 0; i < v.size(); ++i) {
        const auto p = ptr + "/" + std::to_string(i);
        if (!v[i].is_string())
            fail(p, "'" + key + "' must contain only strings");
        out.push_back(v[i].get<std::string>());
        if (templ)
            checkTemplate(out.back(), p);
    }
    return out;
}

std::map<std::string, std::string> FieldReader::strMap(const json& obj, const std::string& ptr,
                                                       const std::string& key, bool templ)
{
    const json* v = field(obj, ptr, key, false);
    if (!v)
        return {};
    const auto p = child(ptr, key);
    if (!v->is_object())
        fail(p, "'" + key + "' must be an object of strings");
    std::map<std::string, std::string> out;
    for (auto it = v->begin(); it != v->end(); ++it) {
        const auto ip = child(p, it.key());
        if (!it->is_string())
            fail(ip, "'" + key + "." + it.key() + "' must be a string");
        out[it.key()] = it->get<std::string>();
        if (templ)
            checkTemplate(out[it.key()], ip);
    }
    return out;
}

std::optional<bool> FieldReader::optBoolean(const json& obj, const std::string& ptr,
                                            const std::string& key)
{
    const json* v = field(obj, ptr, key, false);
    if (!v)
        return std::nullopt;
    if (!v->is_boolean())
        fail(child(ptr, key), "'" + key + "' must be true or false");
    return v->get<bool>();
}

std::optional<std::uint64_t> FieldReader::count(const json& obj, const std::string& ptr,
                                                const std::string& key)
{
    const json* v = field(obj, ptr, key, false);
    if (!v)
        return std::nullopt;
    if (!v->is_number_unsigned() && !(v->is_number_integer() && v->get<std::int64_t>() >= 0))
        fail(child(ptr, key), "'" + key + "' must be a non-negative integer");
    return v->get<std::uint64_t>();
}

std::optional<int> FieldReader::verifyTimeout(const json& obj, const std::string& ptr)
{
    const auto s = count(obj, ptr, "verify_timeout_s");
    if (s && (*s < 1 || *s > kMaxVerifyTimeoutS))
        fail(child(ptr, "verify_timeout_s"),
             "'verify_timeout_s' must be 1.." + std::to_string(kMaxVerifyTimeoutS) + " seconds");
    return s ? std::optional<int>(static_cast<int>(*s)) : std::nullopt;
}

std::string FieldReader::id(const json& obj, const std::string& ptr)
{
    auto s = str(obj, ptr, "id", true);
    if (!validId(s))
        fail(child(ptr, "id"),
             "id '" + s + "' must be lower-case letters, digits, '-', '_' or '.'");
    return s;
}

void FieldReader::checkTemplate(const std::string& s, const std::string& ptr)
{
    std::string error;
    for (const auto& ph : findPlaceholders(s)) {
        if (!isKnownPlaceholder(ph, &error))
            fail(ptr, error);
    }
}

std::optional<RangeCondition> FieldReader::range(const json& obj, const std::string& ptr,
                                                 const std::string& key)
{
    const json* v = field(obj, ptr, key, false);
    if (!v)
        return std::nullopt;
    if (!v->is_string())
        fail(child(ptr, key),
             "'" + key + "' must be a version range string such as \">=6.0 <7.0\"");
    std::string error;
    auto parsed = VersionRange::parse(v->get<std::string>(), &error);
    if (!parsed)
        fail(child(ptr, key), error);
    return RangeCondition{std::move(*parsed), v->get<std::string>()};
}

std::vector<std::string> FieldReader::enumList(const json& obj, const std::string& ptr,
                                               const std::string& key,
                                               const std::set<std::string>& allowed)
{
    const json* v = field(obj, ptr, key, false);
    if (!v)
        return {};
    // A single string is accepted where a list is expected ("vendor": "amd").
    std::vector<std::string> values = v->is_string()
                                          ? std::vector<std::string>{v->get<std::string>()}
                                          : strListValue(*v, child(ptr, key), key, false);
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (!allowed.count(values[i]))
            fail(v->is_string() ? child(ptr, key) : child(ptr, key) + "/" + std::to_string(i),
                 "'" + key + "' value '" + values[i] + "' is not one of the allowed values");
    }
    return values;
}

} // namespace sp
