#pragma once
// A catalog feed served over HTTPS (core/catalog/feed/update.h), fetched with the
// installers' Downloader: TLS verified, the listed size and SHA-256 pinned for every
// catalog file (a server sending more stops at the listed size), and a fixed limit for
// the manifest and its signature.

#include "core/catalog/feed/update.h"
#include "installers/downloader.h"

#include <QTemporaryDir>
#include <memory>

namespace sp {

class HttpFeedSource : public feed::FeedSource
{
public:
    // `base`: the folder URL that serves manifest.json (a trailing '/' is dropped).
    // options.cacheDir is replaced by a private temporary folder.
    HttpFeedSource(std::string base, DownloaderOptions options = {});
    std::string location() const override { return m_base; }
    Expected<std::string> fetchText(const std::string& name, std::size_t maxBytes) const override;
    Expected<void> fetchFile(const feed::FeedFile& file,
                             const std::filesystem::path& dest) const override;

private:
    Expected<std::string> fetch(const std::string& name, std::size_t maxBytes,
                                const feed::FeedFile* pinned) const;

    std::string m_base;
    std::unique_ptr<QTemporaryDir> m_tmp;
    DownloaderOptions m_options;
};

// True when `feed` names a URL (http:// or https://) rather than a folder.
bool isFeedUrl(const std::string& feed);

} // namespace sp
