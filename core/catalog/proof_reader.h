#pragma once
// Reads a profile's "proof": the counts the maintainers' ledger published for it, in all
// and per GPU family (docs/LEDGER.md, "What goes back to users").

#include "core/catalog/field_reader.h"
#include "core/catalog/types.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace sp {

std::optional<ProfileProof> readProfileProof(FieldReader& r, const nlohmann::json& profile,
                                             const std::string& ptr);

} // namespace sp
