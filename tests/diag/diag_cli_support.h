#pragma once
// What the diag CLI tests share: a path as the CLI takes it, and a zip built with the
// installer tests' libarchive writer.

#include "archive_builder.h"

#include <QString>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace sp::test {

inline QString q(const std::filesystem::path& p)
{
    return QString::fromStdString(p.string());
}

// A zip of (name, bytes) entries, deflated.
inline std::string makeZip(const std::vector<std::pair<std::string, std::string>>& entries)
{
    std::vector<TestEntry> files;
    for (const auto& [name, data] : entries)
        files.push_back(TestEntry::file(name, data));
    return buildArchive(files, "zip");
}

} // namespace sp::test
