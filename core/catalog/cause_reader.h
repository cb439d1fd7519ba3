#pragma once
// Reads a known issue's "causes" (docs/CATALOG.md, "Causes"): the error codes and names
// it stands for, with the context that tells apart causes sharing a code. The shape is
// checked here, with file:line:col; the matcher turns each into signatures.

#include "core/catalog/field_reader.h"
#include "core/catalog/types.h"

#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

namespace sp {

std::vector<KnownIssueCause> readCauses(FieldReader& r, const nlohmann::json& issue,
                                        const std::string& ptr);

// The runtimes a cause's context may name.
extern const std::set<std::string> kCauseRuntimes;

} // namespace sp
