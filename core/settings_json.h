#pragma once
// Internals of settings.json reading, shared by core/settings.cpp and the reader of
// the "workloads" section: positions for "file:line:col" errors and the workloads'
// JSON form. Not for use outside core/settings*.

#include "core/expected.h"
#include "core/settings.h"

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>

namespace sp::settings_json {

// Errors at a byte offset of the settings text, as "name:line:col: why".
struct Locator
{
    const std::string& text;
    const std::string& name;

    Error at(std::size_t byte, const std::string& why) const;
    // nlohmann::json keeps no positions for values, so a value error is reported at the
    // first occurrence of its key as a JSON string after `from` (good enough for a
    // small hand-edited file). Returns `from` when the key is not found.
    std::size_t keyAt(const std::string& key, std::size_t from = 0) const;
};

// "workloads": {"<id>": {...}}; `where` is the position of the "workloads" key.
Expected<std::map<std::string, WorkloadOverrides>>
readWorkloads(const nlohmann::json& v, const Locator& loc, std::size_t where);
nlohmann::json workloadsToJson(const std::map<std::string, WorkloadOverrides>& workloads);

// The text to write: `fresh` (every key this version knows) over `original` (the text
// the settings were read from), so keys it does not know survive, in their place
// (core/settings_merge.cpp).
std::string mergeDocument(const std::string& original, const nlohmann::json& fresh);

} // namespace sp::settings_json
