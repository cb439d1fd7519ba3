#pragma once
// Reads catalog files (profiles/catalog/*.json, <config>/catalog.d/*.json,
// --catalog-dir DIR) into one merged sp::Catalog. The rules are those of
// profiles/schema/catalog.schema.json, enforced here because no JSON Schema
// validator ships with the app; tests check that the two agree on field names.
// Every error is one line "file:line:col: reason".

#include "core/catalog/position_index.h"
#include "core/catalog/types.h"
#include "core/expected.h"

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace sp {

// A catalog holds at most this many entries of each kind (profiles, runtimes, ...);
// loading is linear in their number.
inline constexpr std::size_t kMaxCatalogEntries = 100000;

class CatalogLoader
{
public:
    // Parses one file and merges it over what is loaded so far (same id replaces,
    // with a notice). Checks everything that the file alone can tell: syntax, types,
    // enums, duplicate ids, version ranges, regexes, placeholder names.
    Expected<void> addText(const std::string& text, const std::string& origin);
    Expected<void> addFile(const std::filesystem::path& file);
    // Checks what needs the whole catalog: profiles naming missing runtimes or
    // workloads, {runtime:ID} placeholders, a `tested` profile using an unpinned artifact.
    Expected<void> checkReferences() const;
    // The problems of the user texts ("ui") of what is loaded so far, one
    // "file:line:col: reason" each (user_text.h); empty when they are complete and clean.
    std::vector<std::string> checkUserTexts() const;

    const Catalog& catalog() const { return m_catalog; }
    const std::vector<std::string>& warnings() const { return m_warnings; }
    const std::vector<std::string>& notices() const { return m_notices; }
    void addWarning(std::string w) { m_warnings.push_back(std::move(w)); }

    // Field names accepted per section ("file", "runtime", "artifact", "workload",
    // "profile", "match", "applies", "applies_runtime", "known_issue", "remedy").
    static const std::map<std::string, std::vector<std::string>>& acceptedFields();

    struct FileInfo
    {
        std::string origin;
        PositionIndex index;
    };
    struct Located
    {
        std::shared_ptr<const FileInfo> file;
        std::string pointer;
    };
    // What a merge updates (loader.cpp).
    struct Merge
    {
        std::unordered_map<std::string, std::size_t>& index;
        std::map<std::string, Located>& locations;
        std::vector<std::string>& notices;
    };

private:
    // "file:line:col" of the entry `key` ("profile:ID") at JSON pointer `sub` below it.
    std::string locate(const std::string& key, const std::string& sub) const;

    Catalog m_catalog;
    std::unordered_map<std::string, std::size_t> m_index; // "profile:<id>" -> its position
    std::map<std::string, Located> m_locations;           // "profile:<id>" -> where it was read
    std::vector<std::string> m_warnings;
    std::vector<std::string> m_notices;
};

struct CatalogLoadOptions
{
    bool builtin = true; // <shipped data>/catalog/*.json
    bool userDir = true; // <config>/catalog.d/*.json: a broken file is skipped with a warning
    std::vector<std::filesystem::path> extraDirs; // --catalog-dir: a broken file is an error
    // Empty: the installed catalog feed's folder (<data>/feed, docs/FEED.md), else
    // sp::paths::shippedDataDir()/"catalog".
    std::filesystem::path builtinDir;
    std::filesystem::path userDirPath; // empty = sp::paths::configDir()/"catalog.d"
    // In place of the files of the user's folder, these texts, in order, with the same
    // rule (plan --hardware BUNDLE: the bundle user's catalog.d, named inside the zip).
    struct Text
    {
        std::string origin; // "bug.zip: catalog.d/x.json", for messages
        std::string text;
    };
    std::optional<std::vector<Text>> userTexts;
    // Check the built-in catalog's user texts (`catalog check`): the result's
    // userTextProblems. The user's own files are not held to it.
    bool checkUserTexts = false;
};

struct LoadedCatalog
{
    Catalog catalog;
    std::vector<std::string> warnings; // "file:line:col: warning: ..."
    std::vector<std::string> notices;  // user entries replacing built-in ones
    // With CatalogLoadOptions::checkUserTexts: "file:line:col: reason" per problem.
    std::vector<std::string> userTextProblems;
};

Expected<LoadedCatalog> loadCatalog(const CatalogLoadOptions& options);

} // namespace sp
