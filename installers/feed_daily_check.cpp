#include "installers/feed_daily_check.h"

#include "core/catalog/feed/feed_list.h"
#include "core/json_file.h"
#include "core/paths.h"
#include "core/settings.h"
#include "installers/feed_http_source.h"

#include <nlohmann/json.hpp>

namespace sp::feed {

namespace {

std::filesystem::path stampOf(const FeedStore& store)
{
    return store.root() / "last-check.json";
}

// Seconds since the epoch of the last check, or nullopt.
std::optional<std::int64_t> lastCheck(const FeedStore& store)
{
    auto text = readRegularFile(stampOf(store), kMaxLastCheckBytes, "last check");
    if (!text)
        return std::nullopt;
    return parseLastCheck(*text);
}

std::unique_ptr<FeedSource> dailySource(const std::string& feed)
{
    if (isFeedUrl(feed))
        return std::make_unique<HttpFeedSource>(feed);
    return std::make_unique<DirectorySource>(paths::fromUtf8(feed));
}

} // namespace

std::optional<std::int64_t> parseLastCheck(const std::string& text)
{
    auto j = parseJsonText(text, "last-check.json", JsonLimits{kMaxLastCheckBytes, 2});
    if (!j || !j->is_object() || !j->contains("checked_at") ||
        !(*j)["checked_at"].is_number_integer())
        return std::nullopt;
    return (*j)["checked_at"].get<std::int64_t>();
}

Knowledge knowledgeInUse(const FeedStore& store)
{
    auto st = store.state();
    if (!st || !*st)
        return {};
    for (const auto& v : store.kept())
        if ("v" + std::to_string(v.manifest.version) == (*st)->active)
            return {v.manifest.version, v.manifest.published};
    return {};
}

DailyCheck dailyCheck(std::int64_t now, const FeedStore& store,
                      const std::filesystem::path& settingsFile)
{
    DailyCheck out;
    if (auto last = lastCheck(store); last && *last <= now && now - *last < kDailyCheckSeconds) {
        out.message = "the feed was checked less than a day ago";
        return out;
    }
    auto st = store.state();
    auto settings = Settings::loadFile(settingsFile);
    if (!st || !settings) {
        out.message = !st ? st.error().message : settings.error().message;
        return out;
    }
    auto listed = feedsFrom(*settings, paths::toUtf8(settingsFile));
    if (!listed) {
        out.message = listed.error().message;
        return out;
    }
    std::vector<std::string> feeds;
    for (const auto& f : *listed)
        feeds.push_back(f.url);
    if (feeds.empty() && *st)
        feeds.push_back((*st)->source);
    if (feeds.empty()) {
        out.message = "no feed was ever taken; the shipped catalog is in use";
        return out;
    }
    std::error_code ec;
    std::filesystem::create_directories(store.root(), ec);
    (void)writeFileAtomic(stampOf(store), nlohmann::json{{"checked_at", now}}.dump() + "\n");
    out.checked = true;
    for (const auto& feed : feeds) {
        const auto source = dailySource(feed);
        auto r = updateFeed(*source, trustFor(source->location(), *listed, *st), store);
        if (r) {
            out.installed = r->outcome == Outcome::Installed;
            out.message = r->message;
            return out;
        }
        out.message += (out.message.empty() ? "" : "; ") + feed + ": " + r.error().message;
    }
    return out;
}

} // namespace sp::feed
