#pragma once
// Typed field access for one catalog document. Every failure throws
// CatalogReadFailure with "file:line:col: reason", so a reader function reads like
// the schema it enforces; readCatalogDocument turns the throw into an Error.

#include "core/catalog/conditions.h"
#include "core/catalog/position_index.h"
#include "core/catalog/types.h"

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace sp {

struct CatalogReadFailure
{
    std::string message;
};

// Field names accepted per section ("file", "runtime", "profile", ...).
const std::map<std::string, std::vector<std::string>>& catalogFields();

class FieldReader
{
public:
    using json = nlohmann::json;

    FieldReader(const std::string& origin, const PositionIndex& index,
                std::vector<std::string>& warnings)
        : m_origin(origin), m_index(index), m_warnings(warnings)
    {}

    [[noreturn]] void fail(const std::string& pointer, const std::string& reason) const;
    SourceLocation where(const std::string& pointer) const;
    // Warns about keys that `section` does not define; fails when obj is not an object.
    void checkFields(const json& obj, const std::string& ptr, const std::string& section);

    static std::string child(const std::string& ptr, const std::string& key);
    static std::string describe(const std::string& ptr) { return ptr.empty() ? "document" : ptr; }

    const json* field(const json& obj, const std::string& ptr, const std::string& key,
                      bool required);
    std::string str(const json& obj, const std::string& ptr, const std::string& key, bool required,
                    bool templ = false);
    std::vector<std::string> strList(const json& obj, const std::string& ptr,
                                     const std::string& key, bool templ = false);
    std::vector<std::string> strListValue(const json& v, const std::string& ptr,
                                          const std::string& key, bool templ);
    std::map<std::string, std::string> strMap(const json& obj, const std::string& ptr,
                                              const std::string& key, bool templ = false);
    std::optional<bool> optBoolean(const json& obj, const std::string& ptr, const std::string& key);
    bool boolean(const json& obj, const std::string& ptr, const std::string& key)
    {
        return optBoolean(obj, ptr, key).value_or(false);
    }
    std::optional<std::uint64_t> count(const json& obj, const std::string& ptr,
                                       const std::string& key);
    // The smoke test's deadline, "verify_timeout_s": 1..kMaxVerifyTimeoutS seconds.
    std::optional<int> verifyTimeout(const json& obj, const std::string& ptr);
    std::string id(const json& obj, const std::string& ptr);
    void checkTemplate(const std::string& s, const std::string& ptr);
    std::optional<RangeCondition> range(const json& obj, const std::string& ptr,
                                        const std::string& key);
    // A string or a list of strings, each one of `allowed`.
    std::vector<std::string> enumList(const json& obj, const std::string& ptr,
                                      const std::string& key, const std::set<std::string>& allowed);

private:
    const std::string& m_origin;
    const PositionIndex& m_index;
    std::vector<std::string>& m_warnings;
};

// Calls fn(element, pointer) for each element of the array `key` of doc (absent =
// none); fn returns the element's key, which must be unique within the array.
template <class Fn>
void eachEntry(FieldReader& r, const nlohmann::json& doc, const char* key, const char* keyField,
               Fn&& fn)
{
    const auto* arr = r.field(doc, "", key, false);
    if (!arr)
        return;
    const std::string ap = std::string("/") + key;
    if (!arr->is_array())
        r.fail(ap, std::string("'") + key + "' must be an array");
    std::set<std::string> seen;
    for (std::size_t i = 0; i < arr->size(); ++i) {
        const auto ptr = ap + "/" + std::to_string(i);
        const std::string k = fn((*arr)[i], ptr);
        if (!seen.insert(k).second)
            r.fail(FieldReader::child(ptr, keyField),
                   "duplicate " + std::string(keyField) + " '" + k + "' in " + key);
    }
}

// `match` of a profile (section "match") or `applies` of a known issue ("applies").
Conditions readConditions(FieldReader& r, const nlohmann::json& obj, const std::string& ptr,
                          const std::string& section);
std::vector<RuntimeCondition> readRuntimeConditions(FieldReader& r, const nlohmann::json& list,
                                                    const std::string& ptr);

// A runtime's "visible_devices" (core/catalog/visibility_reader.cpp).
std::vector<VisibleDevices> readVisibleDevices(FieldReader& r, const nlohmann::json& runtime,
                                               const std::string& ptr);

// The policy tables of one document (docs/CATALOG.md, "Policy tables").
void readPolicyTables(FieldReader& r, const nlohmann::json& doc, Catalog& out);
// The models of one document (docs/CATALOG.md, "Models").
void readModels(FieldReader& r, const nlohmann::json& doc, Catalog& out);
// A workload's "model" (how it takes one), or nullopt when it has none.
std::optional<WorkloadModel> readWorkloadModel(FieldReader& r, const nlohmann::json& workload,
                                               const std::string& ptr);

// A workload's "args_when" (core/catalog/args_rule_reader.cpp).
std::vector<ArgsRule> readArgsRules(FieldReader& r, const nlohmann::json& workload,
                                    const std::string& ptr);

extern const std::set<std::string> kCatalogOs;
extern const std::set<std::string> kCatalogVendors;

} // namespace sp
