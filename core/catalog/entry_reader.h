#pragma once
// Turns one parsed catalog document into catalog entries, enforcing the rules of
// profiles/schema/catalog.schema.json: types, enums, ids, version ranges, regexes,
// placeholder names. Errors and warnings carry "file:line:col" from `index`.

#include "core/catalog/field_reader.h"
#include "core/catalog/position_index.h"
#include "core/catalog/types.h"
#include "core/expected.h"

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace sp {

// Unknown fields append "file:line:col: warning: ..." to `warnings`.
Expected<Catalog> readCatalogDocument(const nlohmann::json& doc, const std::string& origin,
                                      const PositionIndex& index,
                                      std::vector<std::string>& warnings);

} // namespace sp
