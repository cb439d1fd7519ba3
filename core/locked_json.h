#pragma once
// A small JSON document StackPilot keeps for itself (the local evidence of which stacks
// work here, the digests first seen for unpinned downloads), changed by several
// processes at once: read, changed and replaced under a cross-process lock
// (FILE.lock), atomically, so two runs never lose each other's records.

#include "core/expected.h"
#include "core/json_file.h"

#include <filesystem>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

class QLockFile;

namespace sp {

// The cross-process lock of `file` (FILE.lock, created with its folder): taken within
// 10 s, or a runtime error naming the process that holds it. A holder that died is
// taken over after 30 s. Settings::update and updateJsonDocument hold it.
Expected<std::unique_ptr<QLockFile>> lockDocument(const std::filesystem::path& file);

// The document, or an empty object when the file does not exist yet.
Expected<nlohmann::json> readJsonDocument(const std::filesystem::path& file,
                                          const JsonLimits& limits, const std::string& what);

// Reads the document (empty object when missing), lets `change` edit it and writes it
// back when it changed. `what` names the document in errors ("evidence").
using JsonChange = std::function<Expected<void>(nlohmann::json&)>;
Expected<void> updateJsonDocument(const std::filesystem::path& file, const JsonLimits& limits,
                                  const std::string& what, const JsonChange& change);

} // namespace sp
