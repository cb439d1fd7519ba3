#pragma once
// A catalog feed served over HTTPS (core/catalog/feed/update.h), fetched with the
// installers' Downloader: TLS verified, the listed size and SHA-256 pinned for every
// catalog file (a server sending more stops at the listed size), and a fixed limit for
// the manifest and its signature. The feed's own transport rules (docs/FEED.md):
// redirects go to https only, a loopback feed never goes through a proxy, and the whole
// feed (every file, every retry) must arrive within one deadline.

#include "core/catalog/feed/update.h"
#include "installers/downloader.h"

#include <chrono>
#include <filesystem>

namespace sp {

// How long a whole feed may take to arrive, unless the caller says otherwise.
inline constexpr std::chrono::seconds kFeedDeadline{300};

class HttpFeedSource : public feed::FeedSource
{
public:
    // `base`: the folder URL that serves manifest.json (a trailing '/' is dropped).
    // options.cacheDir is replaced by a private folder under the temporary folder
    // (feed/held_folder.h: one an interrupted run left is removed by the next).
    // The deadline counts from construction.
    HttpFeedSource(std::string base, DownloaderOptions options = {},
                   std::chrono::milliseconds deadline = kFeedDeadline);
    ~HttpFeedSource() override;
    HttpFeedSource(const HttpFeedSource&) = delete;
    HttpFeedSource& operator=(const HttpFeedSource&) = delete;

    std::string location() const override { return m_base; }
    Expected<std::string> fetchText(const std::string& name, std::size_t maxBytes) const override;
    Expected<void> fetchFile(const feed::FeedFile& file,
                             const std::filesystem::path& dest) const override;

private:
    Expected<std::string> fetch(const std::string& name, std::size_t maxBytes,
                                const feed::FeedFile* pinned) const;

    std::string m_base;
    Expected<std::filesystem::path> m_tmp;
    DownloaderOptions m_options;
    std::chrono::milliseconds m_deadline;
    std::chrono::steady_clock::time_point m_until;
};

// True when `feed` names a URL (http:// or https://) rather than a folder.
bool isFeedUrl(const std::string& feed);

} // namespace sp
