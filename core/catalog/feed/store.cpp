#include "core/catalog/feed/store.h"

#include "core/json_file.h"
#include "core/ownership.h"
#include "core/paths.h"
#include "core/qt_text.h"

#include <QDateTime>
#include <QUuid>
#include <algorithm>
#include <cstdlib>
#include <nlohmann/json.hpp>

namespace fs = std::filesystem;

namespace sp::feed {

namespace {

std::optional<Manifest> readManifest(const fs::path& folder)
{
    auto text = readRegularFile(folder / "manifest.json", kMaxManifestBytes, "manifest");
    if (!text)
        return std::nullopt;
    auto m = parseManifest(*text, paths::toUtf8(folder / "manifest.json"));
    if (!m)
        return std::nullopt;
    return std::move(*m);
}

std::string nowUtc()
{
    return QDateTime::currentDateTimeUtc().toString(Qt::ISODate).toStdString();
}

} // namespace

FeedStore::FeedStore(fs::path root) : m_root(root.empty() ? paths::dataDir() / "feed" : root) {}

Expected<std::optional<FeedState>> FeedStore::state() const
{
    std::error_code ec;
    if (!fs::exists(m_root / "state.json", ec))
        return std::optional<FeedState>{};
    auto j = readJsonFile(m_root / "state.json", JsonLimits{64u << 10, 4}, "feed state");
    if (!j)
        return j.error();
    FeedState s;
    try {
        s.active = j->at("active").get<std::string>();
        s.highestVersion = j->at("highest_version").get<std::int64_t>();
        s.source = j->value("source", "");
        s.key = j->value("key", "");
        s.keyId = j->value("key_id", "");
        s.installed = j->value("installed", "");
    } catch (const nlohmann::json::exception&) {
        return Error::invalid(paths::toUtf8(m_root / "state.json") + ": not a feed state");
    }
    if (s.active.size() < 2 || s.active[0] != 'v' ||
        s.active.find_first_not_of("0123456789", 1) != std::string::npos)
        return Error::invalid(paths::toUtf8(m_root / "state.json") + ": bad active folder");
    return std::optional<FeedState>{s};
}

fs::path FeedStore::activeCatalogDir() const
{
    auto s = state();
    if (!s || !*s)
        return {};
    const fs::path dir = m_root / (*s)->active / "catalog";
    std::error_code ec;
    return fs::is_directory(dir, ec) ? dir : fs::path{};
}

std::vector<InstalledVersion> FeedStore::kept() const
{
    std::vector<InstalledVersion> out;
    std::error_code ec;
    for (fs::directory_iterator it(m_root, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = paths::toUtf8(it->path().filename());
        if (name.size() < 2 || name[0] != 'v' || !it->is_directory(ec))
            continue;
        if (auto m = readManifest(it->path()); m && "v" + std::to_string(m->version) == name)
            out.push_back({it->path(), std::move(*m)});
    }
    std::sort(out.begin(), out.end(),
              [](const auto& a, const auto& b) { return a.manifest.version > b.manifest.version; });
    return out;
}

Expected<fs::path> FeedStore::createStaging() const
{
    std::error_code ec;
    fs::create_directories(m_root, ec);
    if (ec)
        return Error::runtime(paths::toUtf8(m_root) + ": " + ec.message());
    const fs::path dir =
        m_root / ("staging-" + QUuid::createUuid().toString(QUuid::WithoutBraces).toStdString());
    if (auto r = ownership::createOwned(dir, "staging of a catalog feed"); !r)
        return r.error();
    return dir;
}

Expected<void> FeedStore::writeState(const FeedState& s) const
{
    const nlohmann::json j = {{"active", s.active}, {"highest_version", s.highestVersion},
                              {"source", s.source}, {"key", s.key},
                              {"key_id", s.keyId},  {"installed", s.installed}};
    return writeFileAtomic(m_root / "state.json", j.dump(2) + "\n");
}

Expected<void> FeedStore::commit(const fs::path& staging, const Manifest& manifest,
                                 FeedState state) const
{
    const std::string name = "v" + std::to_string(manifest.version);
    const fs::path target = m_root / name;
    std::error_code ec;
    if (fs::exists(target, ec)) {
        // A version kept from before (the user rolled back past it): the new copy,
        // just verified, replaces it.
        if (auto r = ownership::removeOwned(target); !r)
            return r.error();
    }
    fs::rename(staging, target, ec);
    if (ec)
        return Error::runtime(paths::toUtf8(target) + ": " + ec.message());
    auto previous = this->state();
    state.active = name;
    state.highestVersion = std::max<std::int64_t>(
        manifest.version, previous && *previous ? (*previous)->highestVersion : 0);
    state.installed = nowUtc();
    if (auto r = writeState(state); !r)
        return r;
    prune(name);
    return {};
}

void FeedStore::prune(const std::string& active) const
{
    const auto versions = kept();
    for (std::size_t i = kKeptVersions; i < versions.size(); ++i)
        if (versions[i].folder.filename() != active)
            (void)ownership::removeOwned(versions[i].folder);
    // Staging folders of updates that did not finish.
    std::error_code ec;
    for (fs::directory_iterator it(m_root, ec), end; !ec && it != end; it.increment(ec))
        if (paths::toUtf8(it->path().filename()).rfind("staging-", 0) == 0)
            (void)ownership::removeOwned(it->path());
}

Expected<std::unique_ptr<QLockFile>> FeedStore::lock() const
{
    std::error_code ec;
    fs::create_directories(m_root, ec);
    auto l = std::make_unique<QLockFile>(qpath(m_root / "feed.lock"));
    if (!l->tryLock(10000))
        return Error::runtime(paths::toUtf8(m_root) +
                              ": another StackPilot is changing the catalog feed; try again");
    return l;
}

Expected<InstalledVersion> FeedStore::rollback() const
{
    auto held = lock();
    if (!held)
        return held.error();
    auto s = state();
    if (!s)
        return s.error();
    if (!*s)
        return Error::invalid("no catalog feed is installed; the shipped catalog is in use");
    FeedState st = **s;
    const long long activeVersion = std::strtoll(st.active.c_str() + 1, nullptr, 10);
    for (const auto& v : kept()) {
        if (v.manifest.version >= activeVersion)
            continue;
        st.active = "v" + std::to_string(v.manifest.version);
        if (auto r = writeState(st); !r)
            return r.error();
        return v;
    }
    return Error::invalid("no older catalog version is kept (feed " + st.active + " in use)");
}

fs::path installedCatalogDir()
{
    return FeedStore().activeCatalogDir();
}

} // namespace sp::feed
