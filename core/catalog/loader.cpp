#include "core/catalog/loader.h"

#include "core/catalog/entry_reader.h"
#include "core/catalog/placeholders.h"
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
    auto checkRuntimeRefs = [&](const std::string& key, const std::string& sub,
                                const std::string& s) -> std::string {
        for (const auto& ph : findPlaceholders(s)) {
            if (ph.rfind("runtime:", 0) == 0 && !m_catalog.runtime(ph.substr(8)))
                return at(key, sub) + ": placeholder {" + ph +
                       "} names a runtime that does not exist";
        }
        return {};
    };
    for (const auto& r : m_catalog.runtimes) {
        const std::string key = "runtime:" + r.id;
        for (std::size_t i = 0; i < r.requires_.size(); ++i)
            if (!m_catalog.runtime(r.requires_[i]))
                return Error::invalid(at(key, "/requires/" + std::to_string(i)) + ": runtime '" +
                                      r.id + "' requires runtime '" + r.requires_[i] +
                                      "', which does not exist");
        for (const auto& [k, v] : r.env)
            if (auto e = checkRuntimeRefs(key, "/env/" + PositionIndex::escapeToken(k), v);
                !e.empty())
                return Error::invalid(e);
        if (auto e = checkRuntimeRefs(key, "/install_dir", r.installDir); !e.empty())
            return Error::invalid(e);
    }
    for (const auto& w : m_catalog.workloads) {
        const std::string key = "workload:" + w.id;
        for (std::size_t i = 0; i < w.command.size(); ++i)
            if (auto e = checkRuntimeRefs(key, "/command/" + std::to_string(i), w.command[i]);
                !e.empty())
                return Error::invalid(e);
        for (const auto& [os, cmd] : w.commandByOs)
            for (std::size_t i = 0; i < cmd.size(); ++i)
                if (auto e = checkRuntimeRefs(key, "/command_by_os/" + os + "/" + std::to_string(i),
                                              cmd[i]);
                    !e.empty())
                    return Error::invalid(e);
        if (auto e = checkRuntimeRefs(key, "/cwd", w.cwd); !e.empty())
            return Error::invalid(e);
        for (const auto& [k, v] : w.env)
            if (auto e = checkRuntimeRefs(key, "/env/" + PositionIndex::escapeToken(k), v);
                !e.empty())
                return Error::invalid(e);
    }
    for (const auto& p : m_catalog.profiles) {
        const std::string key = "profile:" + p.id;
        if (!m_catalog.workload(p.workload))
            return Error::invalid(at(key, "/workload") + ": profile '" + p.id +
                                  "' names workload '" + p.workload + "', which does not exist");
        for (std::size_t i = 0; i < p.runtimes.size(); ++i) {
            const Runtime* r = m_catalog.runtime(p.runtimes[i]);
            const auto sub = "/runtimes/" + std::to_string(i);
            if (!r)
                return Error::invalid(at(key, sub) + ": profile '" + p.id + "' names runtime '" +
                                      p.runtimes[i] + "', which does not exist");
            if (p.status == ProfileStatus::Tested && r->hasUnpinnedArtifact())
                return Error::invalid(at(key, "/status") + ": profile '" + p.id +
                                      "' is 'tested' but runtime '" + r->id +
                                      "' has an unpinned artifact (no sha256)");
            for (const auto& req : r->requires_)
                if (std::find(p.runtimes.begin(), p.runtimes.end(), req) == p.runtimes.end())
                    return Error::invalid(at(key, sub) + ": runtime '" + r->id +
                                          "' is built for '" + req + "', which profile '" + p.id +
                                          "' does not include");
        }
        std::vector<std::pair<std::string, std::string>> templ;
        for (std::size_t i = 0; i < p.args.size(); ++i)
            templ.emplace_back("/args/" + std::to_string(i), p.args[i]);
        for (std::size_t i = 0; i < p.command.size(); ++i)
            templ.emplace_back("/command/" + std::to_string(i), p.command[i]);
        for (std::size_t s = 0; s < p.steps.size(); ++s)
            for (std::size_t i = 0; i < p.steps[s].size(); ++i)
                templ.emplace_back("/steps/" + std::to_string(s) + "/" + std::to_string(i),
                                   p.steps[s][i]);
        for (const auto& [k, v] : p.env)
            templ.emplace_back("/env/" + PositionIndex::escapeToken(k), v);
        templ.emplace_back("/python", p.python);
        templ.emplace_back("/cwd", p.cwd);
        for (const auto& [sub, s] : templ)
            if (auto e = checkRuntimeRefs(key, sub, s); !e.empty())
                return Error::invalid(e);
        // A plan must not point at a folder it does not install.
        auto listed = [&](const std::string& s) -> std::string {
            for (const auto& ph : findPlaceholders(s))
                if (ph.rfind("runtime:", 0) == 0 && std::find(p.runtimes.begin(), p.runtimes.end(),
                                                              ph.substr(8)) == p.runtimes.end())
                    return ph.substr(8);
            return {};
        };
        for (const auto& [sub, s] : templ)
            if (auto missing = listed(s); !missing.empty())
                return Error::invalid(at(key, sub) + ": profile '" + p.id + "' uses {runtime:" +
                                      missing + "} but does not list runtime '" + missing + "'");
        if (const Workload* w = m_catalog.workload(p.workload)) {
            std::vector<std::string> inherited;
            if (p.command.empty()) {
                inherited = w->command;
                for (const auto& [os, cmd] : w->commandByOs)
                    inherited.insert(inherited.end(), cmd.begin(), cmd.end());
            }
            if (p.cwd.empty())
                inherited.push_back(w->cwd);
            for (const auto& [k, v] : w->env)
                inherited.push_back(v);
            for (const auto& s : inherited)
                if (auto missing = listed(s); !missing.empty())
                    return Error::invalid(at(key, "/runtimes") + ": profile '" + p.id +
                                          "' runs workload '" + w->id +
                                          "', which uses {runtime:" + missing +
                                          "}, but does not list runtime '" + missing + "'");
        }
    }
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
