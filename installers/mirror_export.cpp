#include "installers/mirror_export.h"

#include "core/json_file.h"
#include "core/paths.h"
#include "installers/safe_folder.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <random>
#include <set>

namespace fs = std::filesystem;

namespace sp {

namespace {

// Writes the artifact into a new hidden file of the digest folder; restart() starts a
// new one. The file is this process's own, so it may remove it.
class ExportFileSink : public ByteSink
{
public:
    ExportFileSink(const SafeFolder& folder, std::string name)
        : m_folder(folder), m_name(std::move(name))
    {}
    Expected<void> begin(std::optional<std::uint64_t>) override
    {
        drop();
        auto fd = m_folder.createNew(m_name);
        if (!fd)
            return fd.error();
        m_fd = std::move(*fd);
        m_created = true;
        return {};
    }
    Expected<void> write(const char* p, std::size_t n) override
    {
        if (m_fd.writeAll(p, n) != 0)
            return Error::runtime("cannot write " + shown());
        return {};
    }
    Expected<void> finish() override
    {
        if (m_fd.close() != 0)
            return Error::runtime("cannot write " + shown());
        return {};
    }
    Expected<void> restart() override
    {
        drop();
        return {};
    }
    void abort() override { drop(); }
    void drop()
    {
        m_fd.reset();
        if (m_created)
            m_folder.removeOwn(m_name);
        m_created = false;
    }

private:
    std::string shown() const { return paths::toUtf8(m_folder.path() / paths::fromUtf8(m_name)); }
    const SafeFolder& m_folder;
    std::string m_name;
    UniqueFd m_fd;
    bool m_created = false;
};

// A hidden name no other export (or earlier crash) uses: created with O_EXCL, so a name
// taken by anything else fails instead of being reused.
std::string tempName(const std::string& digest)
{
    std::random_device random;
    return "." + digest + ".part-" + std::to_string(random());
}

// Whether `folder/name` holds exactly the bytes of `digest`, read without following a link.
Expected<bool> holdsDigest(const SafeFolder& folder, const std::string& name,
                           const std::string& digest)
{
    auto fd = folder.openRead(name);
    if (!fd)
        return fd.error();
    auto sha = sha256OfFd(*fd, paths::toUtf8(folder.path() / paths::fromUtf8(name)));
    if (!sha)
        return sha.error();
    return *sha == digest;
}

// A file already at `name` is kept when it is a regular file with the pinned bytes;
// anything else there was not written by StackPilot and is refused, never replaced.
Expected<bool> alreadyThere(const SafeFolder& folder, const std::string& name,
                            const std::string& digest)
{
    const auto e = folder.entry(name);
    if (!e)
        return false;
    const std::string shown = paths::toUtf8(folder.path() / paths::fromUtf8(name));
    if (e->regularFile) {
        auto same = holdsDigest(folder, name, digest);
        if (!same)
            return same.error();
        if (*same)
            return true;
    }
    return Error::invalid(shown + " is already there with other contents; StackPilot replaces only "
                                  "what it wrote (move it away, or export into another folder)");
}

// DIR/sha256/<digest> holds the bytes (fetched unless already there).
Expected<std::string> storeByDigest(const Artifact& a, const SafeFolder& digests,
                                    const Fetcher& fetcher)
{
    const std::string& digest = *a.sha256;
    auto there = alreadyThere(digests, digest, digest);
    if (!there)
        return there.error();
    if (*there)
        return std::string("already in the folder");
    const std::string part = tempName(digest);
    ExportFileSink partSink(digests, part);
    auto r = fetcher.fetch(a, partSink);
    if (!r)
        return r.error();
    auto linked = digests.linkNew(digests, part, digest);
    partSink.drop();
    if (!linked)
        return linked.error();
    return std::string(toString(r->source)) + " " + r->origin;
}

// DIR/<folder>/<path> is the same file as DIR/sha256/<digest>: a hard link where the file
// system allows, else a copy; either way only where nothing is yet.
Expected<void> linkPlace(const fs::path& dir, const SafeFolder& digests, const Artifact& a,
                         const MirrorPlace& place)
{
    std::vector<std::string> below{place.folder};
    below.insert(below.end(), place.segments.begin(), place.segments.end() - 1);
    auto folder = SafeFolder::open(dir, below);
    if (!folder)
        return folder.error();
    const std::string& name = place.segments.back();
    auto there = alreadyThere(*folder, name, *a.sha256);
    if (!there)
        return there.error();
    if (*there || folder->linkNew(digests, *a.sha256, name))
        return {};
    return folder->copyNew(digests, *a.sha256, name);
}

MirrorExportItem exportOne(const Runtime& rt, const Artifact& a, const fs::path& dir,
                           const SafeFolder& digests, const Fetcher& fetcher,
                           MirrorExportResult& result)
{
    MirrorExportItem item{rt.id, a.url, {}, {}, false};
    if (a.isGit()) {
        item.note = "not exported: git (serve it with git daemon or a git host)";
        return item;
    }
    if (!a.sha256) {
        item.note = "not exported: no sha256 in the catalog, so no mirror's bytes are accepted";
        return item;
    }
    const auto place = mirrorPlaceOf(a.url); // checked by checkEveryPlace before
    auto stored = storeByDigest(a, digests, fetcher);
    if (!stored) {
        item.note = stored.error().message;
        return item;
    }
    if (auto l = linkPlace(dir, digests, a, *place); !l) {
        item.note = l.error().message;
        return item;
    }
    result.folders[place->authority] = place->folder;
    item.path = place->folder + place->path;
    item.note = *stored;
    item.exported = true;
    return item;
}

bool isSha256Hex(const std::string& s)
{
    return s.size() == 64 && std::all_of(s.begin(), s.end(), [](char c) {
               return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
           });
}

// Every URL maps to a place inside DIR, and DIR's mirrors.json, if any, is one an export
// wrote: checked before anything is written, so a refusal leaves DIR as it was.
Expected<void> checkEveryPlace(const std::vector<const Runtime*>& runtimes, const fs::path& dir)
{
    for (const Runtime* rt : runtimes)
        for (const auto& a : rt->artifacts) {
            if (a.isGit() || !a.sha256)
                continue;
            // The digest names a file in DIR/sha256: 64 hex digits, never a path.
            if (!isSha256Hex(*a.sha256))
                return Error::invalid("runtime " + rt->id + ": " + a.url +
                                      ": its sha256 is not 64 hex digits; nothing was exported");
            if (auto p = mirrorPlaceOf(a.url); !p)
                return Error::invalid("runtime " + rt->id + ": " + p.error().message +
                                      "; nothing was exported");
        }
    std::error_code ec;
    const fs::path rules = dir / "mirrors.json";
    const auto st = fs::symlink_status(rules, ec);
    if (!fs::exists(st))
        return {};
    auto j = st.type() == fs::file_type::regular
                 ? readJsonFile(rules, kSettingsLimits, "mirrors.json")
                 : Expected<nlohmann::json>(Error::invalid(""));
    if (!j || !j->is_object() || j->size() != 1 || !j->contains("mirrors"))
        return Error::invalid(paths::toUtf8(rules) +
                              " is not one a mirror export wrote; StackPilot replaces only what "
                              "it wrote (move it away, or export into another folder)");
    return {};
}

} // namespace

Expected<MirrorExportResult> exportMirror(const std::vector<const Runtime*>& runtimes,
                                          const fs::path& dir, const FetchOptions& options)
{
    if (auto checked = checkEveryPlace(runtimes, dir); !checked)
        return checked.error();
    auto digests = SafeFolder::open(dir, {"sha256"});
    if (!digests)
        return digests.error();
    const Fetcher fetcher(options);
    MirrorExportResult result;
    std::set<std::string> seen;
    for (const Runtime* rt : runtimes)
        for (const auto& a : rt->artifacts)
            if (seen.insert(a.url + " " + a.sha256.value_or("")).second)
                result.items.push_back(exportOne(*rt, a, dir, *digests, fetcher, result));
    if (auto w = writeFileAtomic(dir / "mirrors.json", mirrorRulesJson(result, "BASE_URL") + "\n");
        !w)
        return w.error();
    return result;
}

std::string mirrorRulesJson(const MirrorExportResult& result, const std::string& baseUrl)
{
    std::string base = baseUrl;
    while (!base.empty() && base.back() == '/')
        base.pop_back();
    nlohmann::json rules = nlohmann::json::object();
    for (const auto& [authority, folder] : result.folders)
        rules[authority] = nlohmann::json::array({base + "/" + folder});
    return nlohmann::json{{"mirrors", rules}}.dump(2);
}

} // namespace sp
