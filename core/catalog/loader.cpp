#include "core/catalog/loader.h"

#include "core/catalog/entry_reader.h"
#include "core/catalog/feed/store.h"
#include "core/catalog/placeholders.h"
#include "core/catalog/reference_check.h"
#include "core/catalog/user_text.h"
#include "core/json_file.h"
#include "core/paths.h"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace sp {

namespace {

using json = nlohmann::json;

// The key a later file overrides an entry by: `id`, or a policy table's own key.
const std::string& keyOf(const Runtime& e)
{
    return e.id;
}
const std::string& keyOf(const Workload& e)
{
    return e.id;
}
const std::string& keyOf(const Profile& e)
{
    return e.id;
}
const std::string& keyOf(const KnownIssue& e)
{
    return e.id;
}
const std::string& keyOf(const GfxOverride& e)
{
    return e.gfx;
}
const std::string& keyOf(const GfxOverrideBan& e)
{
    return e.id;
}
const std::string& keyOf(const CacheVariable& e)
{
    return e.name;
}
const std::string& keyOf(const CacheRelocation& e)
{
    return e.os;
}
const std::string& keyOf(const Model& e)
{
    return e.id;
}

// Same key replaces the earlier entry, with a notice; `index` ("kind:key" -> position)
// keeps each merge O(1), so loading stays linear in the number of entries.
template <class T>
void mergeEntry(std::vector<T>& list, T entry, const char* kind, CatalogLoader::Merge& m,
                CatalogLoader::Located loc)
{
    const std::string key = std::string(kind) + ":" + keyOf(entry);
    auto [it, added] = m.index.try_emplace(key, list.size());
    if (!added) {
        T& old = list[it->second];
        m.notices.push_back(entry.where.toString() + ": notice: " + kind + " '" + keyOf(entry) +
                            "' replaces the one from " + old.where.toString());
        old = std::move(entry);
    } else {
        list.push_back(std::move(entry));
    }
    m.locations[key] = std::move(loc);
}

template <class T>
void mergeAll(std::vector<T>& into, const std::vector<T>& from, const char* kind,
              const char* pointer, CatalogLoader::Merge& m,
              const std::shared_ptr<const CatalogLoader::FileInfo>& file)
{
    for (std::size_t i = 0; i < from.size(); ++i)
        mergeEntry(into, from[i], kind, m, {file, pointer + std::to_string(i)});
}

} // namespace

const std::map<std::string, std::vector<std::string>>& CatalogLoader::acceptedFields()
{
    return catalogFields();
}

Expected<void> CatalogLoader::addText(const std::string& text, const std::string& origin)
{
    // Depth is checked before the parser and the position index (a recursive scanner)
    // see the text.
    auto parsed = parseJsonText(text, origin, kCatalogLimits);
    if (!parsed)
        return parsed.error();
    const json doc = std::move(*parsed);
    auto file = std::make_shared<FileInfo>(FileInfo{origin, PositionIndex::build(text)});
    std::vector<std::string> warnings;
    auto read = readCatalogDocument(doc, origin, file->index, warnings);
    if (!read)
        return read.error();
    const Catalog& in = *read;
    m_warnings.insert(m_warnings.end(), warnings.begin(), warnings.end());
    Merge m{m_index, m_locations, m_notices};
    mergeAll(m_catalog.runtimes, in.runtimes, "runtime", "/runtimes/", m, file);
    mergeAll(m_catalog.workloads, in.workloads, "workload", "/workloads/", m, file);
    mergeAll(m_catalog.profiles, in.profiles, "profile", "/profiles/", m, file);
    mergeAll(m_catalog.knownIssues, in.knownIssues, "known issue", "/known_issues/", m, file);
    mergeAll(m_catalog.gfxOverrides, in.gfxOverrides, "gfx override", "/gfx_overrides/", m, file);
    mergeAll(m_catalog.gfxOverrideBans, in.gfxOverrideBans, "gfx override ban",
             "/gfx_override_bans/", m, file);
    mergeAll(m_catalog.cacheVariables, in.cacheVariables, "cache variable", "/cache_variables/", m,
             file);
    mergeAll(m_catalog.cacheRelocations, in.cacheRelocations, "cache relocation",
             "/cache_relocation/", m, file);
    mergeAll(m_catalog.models, in.models, "model", "/models/", m, file);
    const std::size_t largest =
        std::max({m_catalog.runtimes.size(), m_catalog.workloads.size(), m_catalog.profiles.size(),
                  m_catalog.knownIssues.size(), m_catalog.gfxOverrides.size(),
                  m_catalog.gfxOverrideBans.size(), m_catalog.cacheVariables.size(),
                  m_catalog.cacheRelocations.size(), m_catalog.models.size()});
    if (largest > kMaxCatalogEntries)
        return Error::invalid(origin + ": the catalog now holds " + std::to_string(largest) +
                              " entries of one kind; at most " +
                              std::to_string(kMaxCatalogEntries) + " are allowed");
    return {};
}

Expected<void> CatalogLoader::addFile(const std::filesystem::path& file)
{
    auto text = readRegularFile(file, kCatalogLimits.maxBytes, "catalog");
    if (!text)
        return text.error();
    return addText(*text, paths::toUtf8(file));
}

std::string CatalogLoader::locate(const std::string& key, const std::string& sub) const
{
    auto it = m_locations.find(key);
    if (it == m_locations.end())
        return std::string("<catalog>:1:1");
    const auto pos = it->second.file->index.at(it->second.pointer + sub);
    return it->second.file->origin + ":" + std::to_string(pos.line) + ":" +
           std::to_string(pos.column);
}

Expected<void> CatalogLoader::checkReferences() const
{
    auto at = [this](const std::string& key, const std::string& sub) { return locate(key, sub); };
    if (auto e = checkCatalogReferences(m_catalog, at); !e.empty())
        return Error::invalid(e);
    return {};
}

std::vector<std::string> CatalogLoader::checkUserTexts() const
{
    return sp::checkUserTexts(m_catalog, [this](const std::string& key, const std::string& sub) {
        return locate(key, sub);
    });
}

namespace {

std::vector<std::filesystem::path> jsonFiles(const std::filesystem::path& dir)
{
    std::vector<std::filesystem::path> out;
    std::error_code ec;
    for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        if (it->path().extension() == ".json" && it->is_regular_file(ec))
            out.push_back(it->path());
    }
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace

Expected<LoadedCatalog> loadCatalog(const CatalogLoadOptions& options)
{
    CatalogLoader loader;
    std::vector<std::string> userTextProblems;
    if (options.builtin) {
        // The installed catalog feed (docs/FEED.md) replaces the shipped files.
        auto dir = options.builtinDir;
        if (dir.empty())
            dir = feed::installedCatalogDir();
        if (dir.empty())
            dir = paths::shippedDataDir() / "catalog";
        const auto files = jsonFiles(dir);
        if (files.empty())
            return Error::invalid(paths::toUtf8(dir) + ": no built-in catalog files found");
        for (const auto& f : files)
            if (auto r = loader.addFile(f); !r)
                return r.error();
        if (auto r = loader.checkReferences(); !r)
            return r.error();
        if (options.checkUserTexts)
            userTextProblems = loader.checkUserTexts();
    }
    if (options.userDir) {
        // The user's own folder must never stop the app: a broken file is skipped,
        // reported, and the rest still loads.
        const auto addUserFile = [&loader](const auto& add) {
            CatalogLoader trial = loader;
            auto r = add(trial);
            if (r)
                r = trial.checkReferences();
            if (!r)
                loader.addWarning(r.error().message + " (warning: file skipped)");
            else
                loader = std::move(trial);
        };
        if (options.userTexts) {
            for (const auto& t : *options.userTexts)
                addUserFile([&t](CatalogLoader& l) { return l.addText(t.text, t.origin); });
        } else {
            const auto dir = options.userDirPath.empty() ? paths::configDir() / "catalog.d"
                                                         : options.userDirPath;
            for (const auto& f : jsonFiles(dir))
                addUserFile([&f](CatalogLoader& l) { return l.addFile(f); });
        }
    }
    for (const auto& dir : options.extraDirs) {
        std::error_code ec;
        if (!std::filesystem::is_directory(dir, ec))
            return Error::invalid(paths::toUtf8(dir) + ": --catalog-dir is not a directory");
        for (const auto& f : jsonFiles(dir))
            if (auto r = loader.addFile(f); !r)
                return r.error();
        if (auto r = loader.checkReferences(); !r)
            return r.error();
    }
    return LoadedCatalog{loader.catalog(), loader.warnings(), loader.notices(),
                         std::move(userTextProblems)};
}

} // namespace sp
