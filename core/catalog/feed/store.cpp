#include "core/catalog/feed/store.h"

#include "core/catalog/feed/held_folder.h"
#include "core/json_file.h"
#include "core/ownership.h"
#include "core/paths.h"
#include "core/qt_text.h"

#include <QDateTime>
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <tuple>

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

using nlohmann::json;

struct StateReader
{
    const std::string& origin;

    Error at(const std::string& pointer, const std::string& why) const
    {
        return Error::invalid(origin + ": " + pointer + ": " + why);
    }
    Expected<std::string> text(const json& j, const char* key, bool required,
                               const std::string& prefix = {}) const
    {
        const std::string pointer = prefix + "/" + key;
        if (!j.contains(key))
            return required ? Expected<std::string>(at(pointer, "missing field")) : std::string();
        const json& v = j[key];
        if (!v.is_string() || v.get_ref<const std::string&>().size() > 4096)
            return at(pointer, "expected a string of at most 4096 bytes");
        return v.get<std::string>();
    }
    Expected<std::int64_t> version(const json& v, const std::string& pointer) const
    {
        // Up to 2^53: a state.json of an older StackPilot may hold any manifest version.
        if (!v.is_number_unsigned() || v.get<std::uint64_t>() > (std::uint64_t{1} << 53))
            return at(pointer, "expected an integer from 0 to 2^53");
        return static_cast<std::int64_t>(v.get<std::uint64_t>());
    }
};

Expected<void> readCounters(const StateReader& r, const json& list, FeedState& s)
{
    if (!list.is_array())
        return r.at("/counters", "expected a list");
    if (list.size() > kMaxFeedCounters)
        return r.at("/counters", "more than " + std::to_string(kMaxFeedCounters) + " entries");
    for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string pointer = "/counters/" + std::to_string(i);
        const json& c = list[i];
        if (!c.is_object() || !c.contains("highest_version"))
            return r.at(pointer, "expected {\"feed\", \"key_id\", \"highest_version\"}");
        auto feed = r.text(c, "feed", true, pointer);
        if (!feed)
            return feed.error();
        auto keyId = r.text(c, "key_id", true, pointer);
        if (!keyId)
            return keyId.error();
        auto v = r.version(c["highest_version"], pointer + "/highest_version");
        if (!v)
            return v.error();
        s.raise(*feed, *keyId, *v);
    }
    return {};
}

// False when `lock` is a regular file whose first line is no process id (QLockFile
// writes "PID\nAPP\nHOST\n..."): empty, cut short, or garbage.
bool hasHolder(const fs::path& lock)
{
    std::error_code ec;
    if (!fs::is_regular_file(fs::symlink_status(lock, ec)))
        return true; // absent, or not a file: QLockFile reports it
    auto text = readRegularFile(lock, 4096, "lock");
    if (!text)
        return true;
    const auto newline = text->find('\n');
    const std::string first = text->substr(0, newline);
    return newline != std::string::npos && !first.empty() && first.size() <= 19 &&
           first.find_first_not_of("0123456789") == std::string::npos;
}

bool isVersionFolder(const std::string& name)
{
    return name.size() >= 2 && name.size() <= 20 && name[0] == 'v' &&
           name.find_first_not_of("0123456789", 1) == std::string::npos;
}

} // namespace

const FeedCounter* FeedState::counterFor(const std::string& feed, const std::string& id) const
{
    for (const auto& c : counters)
        if (c.feed == feed && c.keyId == id)
            return &c;
    return nullptr;
}

void FeedState::raise(const std::string& feed, const std::string& id, std::int64_t version)
{
    for (auto& c : counters)
        if (c.feed == feed && c.keyId == id) {
            c.highest = std::max(c.highest, version);
            return;
        }
    counters.push_back({feed, id, version});
}

Expected<FeedState> parseFeedState(const std::string& text, const std::string& origin)
{
    auto j = parseJsonText(text, origin, JsonLimits{kMaxStateBytes, kMaxStateDepth});
    if (!j)
        return j.error();
    const StateReader r{origin};
    if (!j->is_object())
        return r.at("/", "expected an object");
    FeedState s;
    for (auto [field, key, required] :
         {std::tuple{&s.active, "active", true}, std::tuple{&s.source, "source", false},
          std::tuple{&s.key, "key", false}, std::tuple{&s.keyId, "key_id", false},
          std::tuple{&s.installed, "installed", false}}) {
        auto v = r.text(*j, key, required);
        if (!v)
            return v.error();
        *field = std::move(*v);
    }
    if (!isVersionFolder(s.active))
        return r.at("/active", "bad active folder");
    if (j->contains("counters"))
        if (auto ok = readCounters(r, (*j)["counters"], s); !ok)
            return ok.error();
    if (j->contains("highest_version") && !j->contains("counters")) {
        auto v = r.version((*j)["highest_version"], "/highest_version");
        if (!v)
            return v.error();
        s.legacyHighest = *v;
    }
    return s;
}

std::string toJsonText(const FeedState& s)
{
    json counters = json::array();
    std::int64_t inUse = 0; // what a StackPilot from before the counters reads
    for (const auto& c : s.counters) {
        counters.push_back({{"feed", c.feed}, {"key_id", c.keyId}, {"highest_version", c.highest}});
        if (c.keyId == s.keyId)
            inUse = std::max(inUse, c.highest);
    }
    const json j = {{"active", s.active},
                    {"highest_version", inUse},
                    {"counters", counters},
                    {"source", s.source},
                    {"key", s.key},
                    {"key_id", s.keyId},
                    {"installed", s.installed}};
    return j.dump(2) + "\n";
}

FeedStore::FeedStore(fs::path root) : m_root(root.empty() ? paths::dataDir() / "feed" : root) {}

Expected<std::optional<FeedState>> FeedStore::state() const
{
    const fs::path file = m_root / "state.json";
    std::error_code ec;
    if (!fs::exists(fs::symlink_status(file, ec)))
        return std::optional<FeedState>{};
    auto text = readRegularFile(file, kMaxStateBytes, "feed state");
    if (!text)
        return text.error();
    auto s = parseFeedState(*text, paths::toUtf8(file));
    if (!s)
        return s.error();
    // One counter from before there was one per feed: it belongs to the feed in use and
    // the key that signed it. A floor above any version a feed may have now is the
    // lock-out of issue 35 and is dropped.
    if (s->legacyHighest > 0 && s->legacyHighest <= kMaxFeedVersion)
        if (auto m = readManifest(m_root / s->active))
            s->raise(m->feed, s->keyId, s->legacyHighest);
    s->legacyHighest = 0;
    return std::optional<FeedState>{std::move(*s)};
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

Expected<void> FeedStore::writeState(const FeedState& s) const
{
    return writeFileAtomic(m_root / "state.json", toJsonText(s));
}

Expected<void> FeedStore::commit(const fs::path& staging, const Manifest& manifest,
                                 FeedState state) const
{
    const std::string name = "v" + std::to_string(manifest.version);
    const fs::path target = m_root / name;
    std::error_code ec;
    if (fs::exists(target, ec)) {
        // A version kept from before (the user rolled back past it, or another feed's
        // version of the same number): the new copy, just verified, replaces it.
        if (auto r = ownership::removeOwned(target); !r)
            return r.error();
    }
    (void)fs::remove(staging / holderName(), ec);
    fs::rename(staging, target, ec);
    if (ec)
        return Error::runtime(paths::toUtf8(target) + ": " + ec.message());
    auto previous = this->state();
    state.counters = previous && *previous ? (*previous)->counters : std::vector<FeedCounter>{};
    state.raise(manifest.feed, state.keyId, manifest.version);
    state.active = name;
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
    removeAbandonedStaging();
}

void FeedStore::removeAbandonedStaging() const
{
    // Staging folders of updates that did not finish (never one still being filled).
    removeAbandoned(m_root, "staging-");
}

Expected<fs::path> FeedStore::createStaging() const
{
    removeAbandonedStaging();
    return createHeldFolderIn(m_root, "staging-", "staging of a catalog feed");
}

Expected<std::unique_ptr<QLockFile>> FeedStore::lock() const
{
    std::error_code ec;
    fs::create_directories(m_root, ec);
    const fs::path file = m_root / "feed.lock";
    // QLockFile never takes over a lock file it cannot read (with a stale time of 0,
    // below); a crash between creating the file and writing the holder leaves one.
    if (!hasHolder(file)) {
        const auto age = fs::file_time_type::clock::now() - fs::last_write_time(file, ec);
        if (!ec && age > std::chrono::seconds(kHolderlessGraceSeconds))
            fs::remove(file, ec);
    }
    auto l = std::make_unique<QLockFile>(qpath(file));
    // A live holder is never taken over by age: only a dead one (or the case above).
    l->setStaleLockTime(std::chrono::milliseconds(0));
    if (!l->tryLock(std::chrono::milliseconds(10000)))
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

Expected<std::vector<FeedCounter>> FeedStore::resetFeed(const std::string& name) const
{
    auto held = lock();
    if (!held)
        return held.error();
    auto s = state();
    if (!s)
        return s.error();
    std::vector<FeedCounter> removed;
    if (*s) {
        auto& counters = (*s)->counters;
        for (auto it = counters.begin(); it != counters.end();)
            if (it->feed == name) {
                removed.push_back(*it);
                it = counters.erase(it);
            } else {
                ++it;
            }
    }
    if (removed.empty())
        return Error::invalid("feed \"" + name +
                              "\" has no version recorded here; nothing to reset");
    if (auto r = writeState(**s); !r)
        return r.error();
    return removed;
}

fs::path installedCatalogDir()
{
    return FeedStore().activeCatalogDir();
}

FeedSharing installedSharing()
{
    const fs::path catalog = installedCatalogDir();
    if (catalog.empty())
        return {};
    const auto m = readManifest(catalog.parent_path());
    return m ? m->sharing : FeedSharing{};
}

} // namespace sp::feed
