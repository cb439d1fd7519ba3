#include "installers/feed_http_source.h"

#include "core/catalog/feed/feed_list.h"
#include "core/json_file.h"
#include "core/paths.h"
#include "core/qt_text.h"

namespace sp {

namespace {

// Keeps at most `limit` bytes; one more is an error that stops the transfer.
class LimitedStringSink : public ByteSink
{
public:
    explicit LimitedStringSink(std::size_t limit) : m_limit(limit) {}
    std::string data;

    Expected<void> begin(std::optional<std::uint64_t>) override { return {}; }
    Expected<void> write(const char* p, std::size_t n) override
    {
        if (data.size() + n > m_limit)
            return Error::invalid("the server sent more than " + std::to_string(m_limit) +
                                  " bytes; stopped");
        data.append(p, n);
        return {};
    }
    Expected<void> finish() override { return {}; }
    Expected<void> restart() override
    {
        data.clear();
        return {};
    }

private:
    std::size_t m_limit;
};

} // namespace

bool isFeedUrl(const std::string& feed)
{
    return feed.rfind("https://", 0) == 0 || feed.rfind("http://", 0) == 0;
}

HttpFeedSource::HttpFeedSource(std::string base, DownloaderOptions options)
    : m_base(std::move(base)), m_tmp(std::make_unique<QTemporaryDir>()),
      m_options(std::move(options))
{
    while (!m_base.empty() && m_base.back() == '/')
        m_base.pop_back();
    // A private cache: a partial manifest of another version is never resumed.
    m_options.cacheDir = toPath(m_tmp->path());
    m_options.maxTriesPerUrl = std::min(m_options.maxTriesPerUrl, 2);
}

Expected<std::string> HttpFeedSource::fetch(const std::string& name, std::size_t maxBytes,
                                            const feed::FeedFile* pinned) const
{
    if (auto ok = feed::checkFeedUrl(m_base); !ok)
        return ok.error();
    if (!m_tmp->isValid())
        return Error::runtime("no temporary folder: " + m_tmp->errorString().toStdString());
    DownloadRequest request;
    request.urls = {m_base + "/" + name};
    request.loopbackHttpUnpinned = true; // the manifest is signed; checkFeedUrl allowed it
    if (pinned) {
        request.sha256 = pinned->sha256;
        request.size = pinned->size;
    }
    LimitedStringSink sink(maxBytes);
    auto r = Downloader(m_options).fetch(request, sink);
    if (!r) {
        const std::string url = m_base + "/" + name;
        if (r.error().message.find(url) != std::string::npos)
            return r.error();
        return Error{r.error().code, url + ": " + r.error().message};
    }
    return std::move(sink.data);
}

Expected<std::string> HttpFeedSource::fetchText(const std::string& name, std::size_t maxBytes) const
{
    return fetch(name, maxBytes, nullptr);
}

Expected<void> HttpFeedSource::fetchFile(const feed::FeedFile& file,
                                         const std::filesystem::path& dest) const
{
    auto bytes = fetch(file.path, static_cast<std::size_t>(file.size), &file);
    if (!bytes)
        return bytes.error();
    return writeFileAtomic(dest, *bytes);
}

} // namespace sp
