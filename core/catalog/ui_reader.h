#pragma once
// Reads the "ui" object of a profile, workload or known issue: the texts the window
// shows, in English and Simplified Chinese (docs/CATALOG.md, "User texts"). The shape
// is checked here; completeness and wording are the user-text check's (user_text.h).

#include "core/catalog/field_reader.h"
#include "core/catalog/types.h"

#include <nlohmann/json.hpp>
#include <string>

namespace sp {

ProfileUi readProfileUi(FieldReader& r, const nlohmann::json& entry, const std::string& ptr);
WorkloadUi readWorkloadUi(FieldReader& r, const nlohmann::json& entry, const std::string& ptr);
// {"en": "...", "zh_CN": "..."}: "en" is required, "zh_CN" may be left out.
UserText readUserText(FieldReader& r, const nlohmann::json& v, const std::string& ptr);
KnownIssueUi readKnownIssueUi(FieldReader& r, const nlohmann::json& entry, const std::string& ptr);

} // namespace sp
