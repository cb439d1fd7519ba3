#include "core/catalog/loader.h"

#include "core/catalog/entry_reader.h"
#include "core/catalog/placeholders.h"
#include "core/catalog/reference_check.h"
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
const std::string& keyOf(const CacheVariable& e)
{
    return e.name;
}
const std::string& keyOf(const CacheRelocation& e)
{
    return e.os;
}

template <class T>
void mergeEntry(std::vector<T>& list, T entry, const char* kind,
                std::map<std::string, CatalogLoader::Located>& locs, CatalogLoader::Located loc,
                std::vector<std::string>& notices)
{
    const std::string key = std::string(kind) + ":" + keyOf(entry);
    auto it = std::find_if(list.begin(), list.end(),
                           [&](const T& e) { return keyOf(e) == keyOf(entry); });
    if (it != list.end()) {
        notices.push_back(entry.where.toString() + ": notice: " + kind + " '" + keyOf(entry) +
                          "' replaces the one from " + it->where.toString());
        *it = std::move(entry);
    } else {
        list.push_back(std::move(entry));
    }
    locs[key] = std::move(loc);
}

template <class T>
void mergeAll(std::vector<T>& into, const std::vector<T>& from, const char* kind,
              const char* pointer, std::map<std::string, CatalogLoader::Located>& locs,
              const std::shared_ptr<const CatalogLoader::FileInfo>& file,
              std::vector<std::string>& notices)
{
    for (std::size_t i = 0; i < from.size(); ++i)
        mergeEntry(into, from[i], kind, locs, {file, pointer + std::to_string(i)}, notices);
}

} // namespace

const std::map<std::string, std::vector<std::string>>& CatalogLoader::acceptedFields()
{
    return catalogFields();
}

Expected<void> CatalogLoader::addText(const std::string& text, const std::string& origin)
{
    json doc;
    try {
        doc = json::parse(text);
    } catch (const json::parse_error& e) {
        const auto pos = PositionIndex::fromOffset(text, e.byte == 0 ? 0 : e.byte - 1);
        std::string what = e.what();
        if (auto colon = what.find("syntax error"); colon != std::string::npos)
            what = what.substr(colon);
        return Error::invalid(origin + ":" + std::to_string(pos.line) + ":" +
                              std::to_string(pos.column) + ": invalid JSON: " + what);
    }
    auto file = std::make_shared<FileInfo>(FileInfo{origin, PositionIndex::build(text)});
    std::vector<std::string> warnings;
    auto parsedOr = readCatalogDocument(doc, origin, file->index, warnings);
    if (!parsedOr)
        return parsedOr.error();
    const Catalog& parsed = *parsedOr;
    m_warnings.insert(m_warnings.end(), warnings.begin(), warnings.end());
    mergeAll(m_catalog.runtimes, parsed.runtimes, "runtime", "/runtimes/", m_locations, file,
             m_notices);
    mergeAll(m_catalog.workloads, parsed.workloads, "workload", "/workloads/", m_locations, file,
             m_notices);
    mergeAll(m_catalog.profiles, parsed.profiles, "profile", "/profiles/", m_locations, file,
             m_notices);
    mergeAll(m_catalog.knownIssues, parsed.knownIssues, "known issue", "/known_issues/",
             m_locations, file, m_notices);
    mergeAll(m_catalog.gfxOverrides, parsed.gfxOverrides, "gfx override", "/gfx_overrides/",
             m_locations, file, m_notices);
    mergeAll(m_catalog.cacheVariables, parsed.cacheVariables, "cache variable", "/cache_variables/",
             m_locations, file, m_notices);
    mergeAll(m_catalog.cacheRelocations, parsed.cacheRelocations, "cache relocation",
             "/cache_relocation/", m_locations, file, m_notices);
    return {};
}

Expected<void> CatalogLoader::addFile(const std::filesystem::path& file)
{
    std::ifstream in(file, std::ios::binary);
    if (!in)
        return Error::invalid(paths::toUtf8(file) + ": cannot open");
    std::ostringstream buf;
    buf << in.rdbuf();
    return addText(buf.str(), paths::toUtf8(file));
}

Expected<void> CatalogLoader::checkReferences() const
{
    auto at = [&](const std::string& key, const std::string& sub) {
        auto it = m_locations.find(key);
        if (it == m_locations.end())
            return std::string("<catalog>:1:1");
        const auto pos = it->second.file->index.at(it->second.pointer + sub);
        return it->second.file->origin + ":" + std::to_string(pos.line) + ":" +
               std::to_string(pos.column);
    };
    if (auto e = checkCatalogReferences(m_catalog, at); !e.empty())
        return Error::invalid(e);
    return {};
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
    if (options.builtin) {
        const auto dir =
            options.builtinDir.empty() ? paths::shippedDataDir() / "catalog" : options.builtinDir;
        const auto files = jsonFiles(dir);
        if (files.empty())
            return Error::invalid(paths::toUtf8(dir) + ": no built-in catalog files found");
        for (const auto& f : files)
            if (auto r = loader.addFile(f); !r)
                return r.error();
        if (auto r = loader.checkReferences(); !r)
            return r.error();
    }
    if (options.userDir) {
        // The user's own folder must never stop the app: a broken file is skipped,
        // reported, and the rest still loads.
        const auto dir =
            options.userDirPath.empty() ? paths::configDir() / "catalog.d" : options.userDirPath;
        for (const auto& f : jsonFiles(dir)) {
            CatalogLoader trial = loader;
            auto r = trial.addFile(f);
            if (r)
                r = trial.checkReferences();
            if (!r) {
                loader.addWarning(r.error().message + " (warning: file skipped)");
                continue;
            }
            loader = std::move(trial);
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
    return LoadedCatalog{loader.catalog(), loader.warnings(), loader.notices()};
}

} // namespace sp
