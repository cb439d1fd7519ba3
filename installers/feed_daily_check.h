#pragma once
// The window's once-a-day look at the catalog feed (docs/FEED.md, "The window"): at
// most once in 24 hours (<data>/feed/last-check.json, written before the network is
// touched, so a machine that is offline does not retry at every start) it takes the
// feeds of settings.json, else the feed installed last, exactly as `catalog update`
// does. Nothing happens on a machine that never took a feed. Call it off the GUI thread.

#include "core/catalog/feed/store.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace sp::feed {

// What the catalog in use is, for "Knowledge from 2026-11-20 (feed 142)".
struct Knowledge
{
    std::int64_t version = 0; // 0: the shipped catalog
    std::string published;    // the feed's publication time, ISO 8601 UTC
    std::string date() const { return published.substr(0, 10); }
};
Knowledge knowledgeInUse(const FeedStore& store);

struct DailyCheck
{
    bool checked = false;   // a feed was asked (the day's check was due and one is known)
    bool installed = false; // a newer version is now in use
    std::string message;    // one line: the outcome, or why nothing was asked
};

inline constexpr std::int64_t kDailyCheckSeconds = 24 * 60 * 60;

// last-check.json, {"checked_at": SECONDS}: at most this large, two levels deep. The
// time, or nullopt for anything else (then the check is due).
inline constexpr std::size_t kMaxLastCheckBytes = 4096;
std::optional<std::int64_t> parseLastCheck(const std::string& text);

// `now`: seconds since the epoch. `settingsFile`: settings.json with its "feeds".
DailyCheck dailyCheck(std::int64_t now, const FeedStore& store,
                      const std::filesystem::path& settingsFile);

} // namespace sp::feed
