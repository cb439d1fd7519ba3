#include "core/catalog/feed/feed_list.h"

#include "core/json_file.h"
#include "core/strings.h"

#include <nlohmann/json.hpp>

namespace sp::feed {

namespace {

using ordered = nlohmann::ordered_json;

Expected<ordered> documentOf(const Settings& s)
{
    if (s.document.empty())
        return ordered::object();
    try {
        return ordered::parse(s.document);
    } catch (const nlohmann::json::exception& e) {
        return Error::invalid(std::string("settings: ") + e.what());
    }
}

// "host" of scheme://[user@]host[:port]/..., lower case, brackets kept for IPv6.
std::string feedHostOf(const std::string& url)
{
    const auto scheme = url.find("://");
    if (scheme == std::string::npos)
        return {};
    std::string auth = url.substr(scheme + 3, url.find_first_of("/?#", scheme + 3) - scheme - 3);
    if (auto at = auth.rfind('@'); at != std::string::npos)
        auth.erase(0, at + 1);
    if (auth.rfind('[', 0) == 0)
        return lower(auth.substr(0, auth.find(']') + 1));
    return lower(auth.substr(0, auth.find(':')));
}

} // namespace

bool isLoopbackHttp(const std::string& url)
{
    if (lower(url.substr(0, 7)) != "http://")
        return false;
    const std::string host = feedHostOf(url);
    if (host == "localhost" || host == "[::1]")
        return true;
    // 127.a.b.c with four decimal parts (not "127.0.0.1.example.org")
    int parts = 0;
    std::size_t digits = 0;
    for (char c : host) {
        if (c == '.') {
            if (digits == 0 || digits > 3)
                return false;
            ++parts;
            digits = 0;
        } else if (c >= '0' && c <= '9') {
            ++digits;
        } else {
            return false;
        }
    }
    return parts == 3 && digits > 0 && digits <= 3 && host.rfind("127.", 0) == 0;
}

bool sameFeed(std::string a, std::string b)
{
    while (!a.empty() && a.back() == '/')
        a.pop_back();
    while (!b.empty() && b.back() == '/')
        b.pop_back();
    return a == b;
}

TrustOptions trustFor(const std::string& location, const std::vector<FeedEntry>& listed,
                      const std::optional<FeedState>& state)
{
    TrustOptions t;
    t.keys = shippedKeys();
    if (state && sameFeed(state->source, location) && !state->key.empty())
        if (auto k = parsePublicKey(state->key))
            t.keys.push_back(*k);
    for (const auto& f : listed)
        if (sameFeed(f.url, location) && !f.pubkey.empty())
            if (auto k = parsePublicKey(f.pubkey))
                t.keys.push_back(*k);
    return t;
}

Expected<void> checkFeedUrl(const std::string& url)
{
    if (lower(url.substr(0, 8)) == "https://" || isLoopbackHttp(url))
        return {};
    return Error::usage("refusing feed " + url +
                        ": a feed must be https:// (plain http:// only to this machine, "
                        "127.0.0.1 or localhost)");
}

Expected<std::vector<FeedEntry>> feedsFrom(const Settings& settings, const std::string& name)
{
    // The settings' own limits; the text was read under them already.
    auto doc = settings.document.empty() ? Expected<nlohmann::json>(nlohmann::json::object())
                                         : parseJsonText(settings.document, name, kSettingsLimits);
    if (!doc)
        return doc.error();
    std::vector<FeedEntry> out;
    if (!doc->is_object() || !doc->contains("feeds"))
        return out;
    const auto& list = (*doc)["feeds"];
    const std::string where = name + ": \"feeds\"";
    if (!list.is_array())
        return Error::invalid(where + " must be a list of {\"url\": ..., \"pubkey\": ...}");
    if (list.size() > kMaxFeeds)
        return Error::invalid(where + ": more than " + std::to_string(kMaxFeeds) + " feeds");
    for (std::size_t i = 0; i < list.size(); ++i) {
        const auto& f = list[i];
        const std::string at = where + "[" + std::to_string(i) + "]";
        if (!f.is_object() || !f.contains("url") || !f["url"].is_string() ||
            f["url"].get_ref<const std::string&>().empty() ||
            f["url"].get_ref<const std::string&>().size() > kMaxFeedUrlBytes)
            return Error::invalid(at + " needs a \"url\" string of 1 to " +
                                  std::to_string(kMaxFeedUrlBytes) + " bytes");
        FeedEntry e{f["url"].get<std::string>(), {}};
        if (f.contains("pubkey")) {
            if (!f["pubkey"].is_string())
                return Error::invalid(at + ": \"pubkey\" must be a string");
            e.pubkey = f["pubkey"].get<std::string>();
            if (auto k = parsePublicKey(e.pubkey); !k)
                return Error::invalid(at + ": \"pubkey\": " + k.error().message);
        }
        if (e.url.find("://") != std::string::npos)
            if (auto ok = checkFeedUrl(e.url); !ok)
                return Error::invalid(at + ": " + ok.error().message);
        out.push_back(std::move(e));
    }
    return out;
}

Expected<void> rememberFeed(Settings& settings, const FeedEntry& entry)
{
    auto doc = documentOf(settings);
    if (!doc)
        return doc.error();
    ordered list =
        doc->contains("feeds") && (*doc)["feeds"].is_array() ? (*doc)["feeds"] : ordered::array();
    ordered item = {{"url", entry.url}};
    if (!entry.pubkey.empty())
        item["pubkey"] = entry.pubkey;
    bool replaced = false;
    for (auto& f : list)
        if (f.is_object() && f.value("url", std::string()) == entry.url) {
            f = item;
            replaced = true;
        }
    if (!replaced)
        list.push_back(item);
    (*doc)["feeds"] = list;
    settings.document = doc->dump(2) + "\n";
    return {};
}

Expected<void> rememberFeedIn(const std::filesystem::path& file, const FeedEntry& entry)
{
    auto r = Settings::update(file, [&](Settings& s) { return rememberFeed(s, entry); });
    if (!r)
        return r.error();
    return {};
}

} // namespace sp::feed
