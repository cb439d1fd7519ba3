#include "core/catalog/feed/manifest.h"

#include "core/json_file.h"

#include <QDateTime>
#include <QString>
#include <nlohmann/json.hpp>
#include <set>

namespace sp::feed {

namespace {

using nlohmann::json;

const std::set<std::string> kTopKeys = {"feed",    "version",        "published",
                                        "expires", "min_stackpilot", "files"};
const std::set<std::string> kFileKeys = {"path", "size", "sha256"};

struct Reader
{
    const std::string& origin;

    Error at(const std::string& pointer, const std::string& reason) const
    {
        return Error::invalid(origin + ": " + pointer + ": " + reason);
    }
    // Every key of `keys` and maybe some of `optional`, nothing else.
    Expected<void> onlyKeys(const json& j, const std::set<std::string>& keys,
                            const std::string& pointer,
                            const std::set<std::string>& optional = {}) const
    {
        if (!j.is_object())
            return at(pointer.empty() ? "/" : pointer, "expected an object");
        for (const auto& [k, v] : j.items())
            if (!keys.count(k) && !optional.count(k))
                return at(pointer + "/" + k, "unknown field");
        for (const auto& k : keys)
            if (!j.contains(k))
                return at(pointer + "/" + k, "missing field");
        return {};
    }
    Expected<std::string> text(const json& j, const std::string& pointer) const
    {
        if (!j.is_string() || j.get_ref<const std::string&>().empty())
            return at(pointer, "expected a non-empty string");
        if (j.get_ref<const std::string&>().size() > 256)
            return at(pointer, "longer than 256 characters");
        return j.get<std::string>();
    }
    Expected<std::int64_t> integer(const json& j, const std::string& pointer,
                                   std::int64_t max) const
    {
        if (!j.is_number_unsigned() || j.get<std::uint64_t>() > static_cast<std::uint64_t>(max))
            return at(pointer, "expected an integer from 0 to " + std::to_string(max));
        return static_cast<std::int64_t>(j.get<std::uint64_t>());
    }
};

bool isLowerHex(const std::string& s)
{
    return s.find_first_not_of("0123456789abcdef") == std::string::npos;
}

Expected<FeedFile> readFile(const Reader& r, const json& j, const std::string& pointer)
{
    if (auto ok = r.onlyKeys(j, kFileKeys, pointer); !ok)
        return ok.error();
    FeedFile f;
    auto path = r.text(j["path"], pointer + "/path");
    if (!path)
        return path.error();
    if (!isValidFeedPath(*path))
        return r.at(pointer + "/path", "not a plain catalog file name ([A-Za-z0-9._-]+.json)");
    f.path = *path;
    auto size = r.integer(j["size"], pointer + "/size", kMaxFeedFileBytes);
    if (!size)
        return size.error();
    f.size = static_cast<std::uint64_t>(*size);
    auto sha = r.text(j["sha256"], pointer + "/sha256");
    if (!sha)
        return sha.error();
    if (sha->size() != 64 || !isLowerHex(*sha))
        return r.at(pointer + "/sha256", "expected 64 lower-case hex digits");
    f.sha256 = *sha;
    return f;
}

Expected<void> readFiles(const Reader& r, const json& files, Manifest& m)
{
    if (!files.is_array() || files.empty())
        return r.at("/files", "expected a non-empty array");
    if (files.size() > kMaxFeedFiles)
        return r.at("/files", "more than " + std::to_string(kMaxFeedFiles) + " files");
    std::set<std::string> seen;
    for (std::size_t i = 0; i < files.size(); ++i) {
        const std::string pointer = "/files/" + std::to_string(i);
        auto f = readFile(r, files[i], pointer);
        if (!f)
            return f.error();
        if (!seen.insert(f->path).second)
            return r.at(pointer + "/path", "listed twice");
        m.files.push_back(std::move(*f));
    }
    return {};
}

// An address a feed may give for results: https://, or (the ledger only) http:// on this
// PC for a lab; no spaces, no control characters, no fragment.
Expected<std::string> sharingUrl(const Reader& r, const json& j, const std::string& pointer,
                                 bool loopbackHttp)
{
    auto url = r.text(j, pointer);
    if (!url)
        return url;
    const bool https = url->rfind("https://", 0) == 0 && url->size() > 8;
    const bool loopback = loopbackHttp && (url->rfind("http://127.0.0.1", 0) == 0 ||
                                           url->rfind("http://localhost", 0) == 0);
    if (!https && !loopback)
        return r.at(pointer, loopbackHttp ? "expected an https:// address (or http:// to "
                                            "127.0.0.1 or localhost)"
                                          : "expected an https:// address");
    for (const unsigned char c : *url)
        if (c <= 0x20 || c == 0x7f || c == '#')
            return r.at(pointer, "a space, control character or '#' in the address");
    return url;
}

Expected<void> readSharing(const Reader& r, const json& j, Manifest& m)
{
    if (!j.contains("sharing"))
        return {};
    const json& s = j["sharing"];
    if (auto ok = r.onlyKeys(s, {}, "/sharing", {"ledger", "report_form"}); !ok)
        return ok.error();
    if (s.empty())
        return r.at("/sharing", "expected \"ledger\" or \"report_form\"");
    if (s.contains("ledger")) {
        auto url = sharingUrl(r, s["ledger"], "/sharing/ledger", true);
        if (!url)
            return url.error();
        m.sharing.ledger = *url;
    }
    if (s.contains("report_form")) {
        auto url = sharingUrl(r, s["report_form"], "/sharing/report_form", false);
        if (!url)
            return url.error();
        m.sharing.reportForm = *url;
    }
    return {};
}

Expected<std::string> timeField(const Reader& r, const json& j, const std::string& pointer)
{
    auto t = r.text(j, pointer);
    if (!t)
        return t.error();
    if (auto s = parseUtcTime(*t); !s)
        return r.at(pointer, s.error().message);
    return t;
}

std::string lineColumn(const std::string& text, std::size_t offset)
{
    int line = 1, col = 1;
    for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
        col = text[i] == '\n' ? 1 : col + 1;
        line += text[i] == '\n' ? 1 : 0;
    }
    return std::to_string(line) + ":" + std::to_string(col);
}

// The end of the string literal that starts at `at` (the opening quote).
std::size_t stringEnd(const std::string& text, std::size_t at)
{
    for (std::size_t i = at + 1; i < text.size(); ++i) {
        if (text[i] == '\\')
            ++i;
        else if (text[i] == '"')
            return i + 1;
    }
    return text.size();
}

// "file:line:col: ..." for the first key an object of `text` (already parsed, so valid
// JSON) names twice, or "". nlohmann keeps the last of two; what a signature covers must
// mean one thing to every reader, so a manifest with a doubled key is invalid.
std::string duplicateKey(const std::string& text, const std::string& origin)
{
    std::vector<std::set<std::string>> objects; // the keys so far of each open object
    std::vector<bool> isObject;
    bool expectKey = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '"') {
            const std::size_t end = stringEnd(text, i);
            if (expectKey && !objects.empty()) {
                const auto key = json::parse(text.substr(i, end - i), nullptr, false);
                const std::string name = key.is_string() ? key.get<std::string>() : "";
                if (!objects.back().insert(name).second)
                    return origin + ":" + lineColumn(text, i) + ": the key \"" + name +
                           "\" appears twice in one object";
            }
            expectKey = false;
            i = end - 1;
        } else if (c == '{' || c == '[') {
            isObject.push_back(c == '{');
            if (c == '{')
                objects.emplace_back();
            expectKey = c == '{';
        } else if ((c == '}' || c == ']') && !isObject.empty()) {
            if (isObject.back())
                objects.pop_back();
            isObject.pop_back();
        } else if (c == ',') {
            expectKey = !isObject.empty() && isObject.back();
        }
    }
    return {};
}

// published must not lie after expires.
Expected<void> checkTimes(const Reader& r, const Manifest& m)
{
    auto published = parseUtcTime(m.published);
    auto expires = parseUtcTime(m.expires);
    if (published && expires && *expires <= *published)
        return r.at("/expires", m.expires + " is not after /published " + m.published);
    return {};
}

} // namespace

bool isValidFeedPath(const std::string& path)
{
    if (path.size() < 6 || path.size() > 128 || path.front() == '.')
        return false;
    if (path.compare(path.size() - 5, 5, ".json") != 0)
        return false;
    return path.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                  "0123456789._-") == std::string::npos;
}

Expected<std::int64_t> parseUtcTime(const std::string& text)
{
    const bool utc = (!text.empty() && text.back() == 'Z') ||
                     (text.size() > 6 && text.compare(text.size() - 6, 6, "+00:00") == 0);
    if (!utc)
        return Error::invalid("\"" + text + "\" is not an ISO 8601 UTC time (…Z)");
    const QDateTime t = QDateTime::fromString(QString::fromStdString(text), Qt::ISODate);
    if (!t.isValid())
        return Error::invalid("\"" + text + "\" is not an ISO 8601 UTC time");
    return static_cast<std::int64_t>(t.toSecsSinceEpoch());
}

int compareVersions(const std::string& a, const std::string& b)
{
    const auto parts = [](const std::string& s) {
        std::vector<long long> out;
        std::size_t i = 0;
        while (i <= s.size() && out.size() < 8) {
            long long n = 0;
            while (i < s.size() && s[i] >= '0' && s[i] <= '9' && n < 1000000000)
                n = n * 10 + (s[i++] - '0');
            out.push_back(n);
            i = s.find('.', i);
            if (i == std::string::npos)
                break;
            ++i;
        }
        out.resize(8, 0);
        return out;
    };
    const auto pa = parts(a), pb = parts(b);
    return pa < pb ? -1 : (pb < pa ? 1 : 0);
}

Expected<Manifest> parseManifest(const std::string& text, const std::string& origin)
{
    if (text.size() > kMaxManifestBytes)
        return Error::invalid(origin + ": larger than " + std::to_string(kMaxManifestBytes) +
                              " bytes");
    auto parsed = parseJsonText(text, origin, JsonLimits{kMaxManifestBytes, kMaxManifestDepth});
    if (!parsed)
        return parsed.error();
    if (auto twice = duplicateKey(text, origin); !twice.empty())
        return Error::invalid(twice);
    const Reader r{origin};
    const json& j = *parsed;
    if (auto ok = r.onlyKeys(j, kTopKeys, "", {"sharing"}); !ok)
        return ok.error();
    Manifest m;
    auto feed = r.text(j["feed"], "/feed");
    if (!feed)
        return feed.error();
    auto version = r.integer(j["version"], "/version", (std::int64_t{1} << 53));
    if (!version)
        return version.error();
    auto published = timeField(r, j["published"], "/published");
    if (!published)
        return published.error();
    auto expires = timeField(r, j["expires"], "/expires");
    if (!expires)
        return expires.error();
    auto minVersion = r.text(j["min_stackpilot"], "/min_stackpilot");
    if (!minVersion)
        return minVersion.error();
    m.feed = *feed;
    m.version = *version;
    m.published = *published;
    m.expires = *expires;
    m.minStackPilot = *minVersion;
    if (auto ok = checkTimes(r, m); !ok)
        return ok.error();
    if (auto ok = readFiles(r, j["files"], m); !ok)
        return ok.error();
    if (auto ok = readSharing(r, j, m); !ok)
        return ok.error();
    return m;
}

Expected<void> checkSharing(const FeedSharing& sharing)
{
    const std::string origin = "catalog publish";
    const Reader r{origin};
    if (!sharing.ledger.empty())
        if (auto url = sharingUrl(r, sharing.ledger, "--ledger", true); !url)
            return url.error();
    if (!sharing.reportForm.empty())
        if (auto url = sharingUrl(r, sharing.reportForm, "--report-form", false); !url)
            return url.error();
    return {};
}

std::string toJsonText(const Manifest& m)
{
    json files = json::array();
    for (const auto& f : m.files)
        files.push_back(json{{"path", f.path}, {"size", f.size}, {"sha256", f.sha256}});
    json j = json::object();
    j["feed"] = m.feed;
    j["version"] = m.version;
    j["published"] = m.published;
    j["expires"] = m.expires;
    j["min_stackpilot"] = m.minStackPilot;
    j["files"] = std::move(files);
    if (!m.sharing.empty()) {
        json sharing = json::object();
        if (!m.sharing.ledger.empty())
            sharing["ledger"] = m.sharing.ledger;
        if (!m.sharing.reportForm.empty())
            sharing["report_form"] = m.sharing.reportForm;
        j["sharing"] = std::move(sharing);
    }
    return j.dump(2) + "\n";
}

} // namespace sp::feed
