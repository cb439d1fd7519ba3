#include "installers/mirror_export.h"

#include "core/json_file.h"
#include "core/paths.h"
#include "installers/sha256.h"

#include <cctype>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

namespace fs = std::filesystem;

namespace sp {

namespace {

// Writes the artifact into one file; restart() starts it over.
class ExportFileSink : public ByteSink
{
public:
    explicit ExportFileSink(fs::path file) : m_file(std::move(file)) {}
    Expected<void> begin(std::optional<std::uint64_t>) override { return open(); }
    Expected<void> write(const char* p, std::size_t n) override
    {
        m_out.write(p, static_cast<std::streamsize>(n));
        if (!m_out)
            return Error::runtime("cannot write " + paths::toUtf8(m_file));
        return {};
    }
    Expected<void> finish() override
    {
        m_out.close();
        if (!m_out)
            return Error::runtime("cannot write " + paths::toUtf8(m_file));
        return {};
    }
    Expected<void> restart() override
    {
        m_out.close();
        return {};
    }
    void abort() override
    {
        m_out.close();
        std::error_code ec;
        fs::remove(m_file, ec);
    }

private:
    Expected<void> open()
    {
        m_out.close();
        m_out.clear();
        m_out.open(m_file, std::ios::binary | std::ios::trunc);
        if (!m_out)
            return Error::runtime("cannot create " + paths::toUtf8(m_file));
        return {};
    }
    fs::path m_file;
    std::ofstream m_out;
};

std::string percentDecoded(const std::string& s)
{
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '%' && i + 2 < s.size() &&
            std::isxdigit(static_cast<unsigned char>(s[i + 1])) &&
            std::isxdigit(static_cast<unsigned char>(s[i + 2]))) {
            out += static_cast<char>(std::stoi(s.substr(i + 1, 2), nullptr, 16));
            i += 2;
        } else {
            out += s[i];
        }
    }
    return out;
}

// DIR/sha256/<digest> holds the bytes (fetched unless already there and right).
Expected<std::string> storeByDigest(const Artifact& a, const fs::path& dir, const Fetcher& fetcher)
{
    const fs::path byDigest = dir / "sha256" / *a.sha256;
    if (auto sha = Sha256::ofFile(byDigest); sha && *sha == *a.sha256)
        return std::string("already in the folder");
    std::error_code ec;
    fs::create_directories(byDigest.parent_path(), ec);
    fs::path part = byDigest;
    part += ".part";
    ExportFileSink sink(part);
    auto r = fetcher.fetch(a, sink);
    if (!r)
        return r.error();
    fs::rename(part, byDigest, ec);
    if (ec)
        return Error::runtime("cannot rename " + paths::toUtf8(part) + ": " + ec.message());
    return std::string(toString(r->source)) + " " + r->origin;
}

// DIR/<folder>/<path> is the same file as DIR/sha256/<digest>.
Expected<void> linkPlace(const fs::path& byDigest, const fs::path& place)
{
    std::error_code ec;
    fs::create_directories(place.parent_path(), ec);
    if (ec)
        return Error::runtime("cannot create " + paths::toUtf8(place.parent_path()) + ": " +
                              ec.message());
    fs::remove(place, ec);
    fs::create_hard_link(byDigest, place, ec);
    if (ec) {
        ec.clear();
        fs::copy_file(byDigest, place, fs::copy_options::overwrite_existing, ec);
    }
    if (ec)
        return Error::runtime("cannot write " + paths::toUtf8(place) + ": " + ec.message());
    return {};
}

MirrorExportItem exportOne(const Runtime& rt, const Artifact& a, const fs::path& dir,
                           const Fetcher& fetcher, MirrorExportResult& result)
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
    auto place = mirrorPlaceOf(a.url);
    if (!place) {
        item.note = "not exported: " + place.error().message;
        return item;
    }
    auto stored = storeByDigest(a, dir, fetcher);
    if (!stored) {
        item.note = stored.error().message;
        return item;
    }
    if (auto l = linkPlace(dir / "sha256" / *a.sha256, dir / place->folder / place->path.substr(1));
        !l) {
        item.note = l.error().message;
        return item;
    }
    result.folders[place->authority] = place->folder;
    item.path = place->folder + place->path;
    item.note = *stored;
    item.exported = true;
    return item;
}

} // namespace

Expected<MirrorPlace> mirrorPlaceOf(const std::string& url)
{
    const auto scheme = url.find("://");
    const auto pathStart = scheme == std::string::npos ? scheme : url.find('/', scheme + 3);
    if (pathStart == std::string::npos)
        return Error::invalid(url + ": not a URL with a path");
    MirrorPlace p;
    p.authority = url.substr(scheme + 3, pathStart - scheme - 3);
    if (auto at = p.authority.rfind('@'); at != std::string::npos)
        p.authority.erase(0, at + 1);
    for (auto& c : p.authority)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    p.folder = p.authority;
    for (auto& c : p.folder)
        if (c == ':' || c == '[' || c == ']')
            c = '_';
    p.path = percentDecoded(url.substr(pathStart, url.find_first_of("?#", pathStart) - pathStart));
    if (p.path.size() < 2 || p.path.back() == '/' || p.path.find('\\') != std::string::npos ||
        p.folder.empty() || p.folder == "sha256")
        return Error::invalid(url + ": no file name in the URL's path");
    for (std::size_t at = 0; at != std::string::npos;) {
        const auto next = p.path.find('/', at + 1);
        const std::string seg =
            p.path.substr(at + 1, next == std::string::npos ? next : next - at - 1);
        if (seg.empty() || seg == "." || seg == "..")
            return Error::invalid(url + ": the URL's path has an empty, \".\" or \"..\" part");
        at = next;
    }
    return p;
}

Expected<MirrorExportResult> exportMirror(const std::vector<const Runtime*>& runtimes,
                                          const fs::path& dir, const FetchOptions& options)
{
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec)
        return Error::runtime("cannot create " + paths::toUtf8(dir) + ": " + ec.message());
    const Fetcher fetcher(options);
    MirrorExportResult result;
    std::set<std::string> seen;
    for (const Runtime* rt : runtimes)
        for (const auto& a : rt->artifacts)
            if (seen.insert(a.url + " " + a.sha256.value_or("")).second)
                result.items.push_back(exportOne(*rt, a, dir, fetcher, result));
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
