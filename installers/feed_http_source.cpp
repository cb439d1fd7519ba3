#include "installers/feed_http_source.h"

#include "core/catalog/feed/feed_list.h"
#include "core/catalog/feed/held_folder.h"
#include "core/json_file.h"
#include "core/ownership.h"
#include "core/paths.h"
#include "core/qt_text.h"

#include <QDir>
#include <condition_variable>
#include <mutex>
#include <thread>

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

// Cancels `token` when `until` passes, unless it is destroyed first.
class Watchdog
{
public:
    Watchdog(CancelToken token, std::chrono::steady_clock::time_point until)
        : m_thread([this, token, until] {
              std::unique_lock<std::mutex> lock(m_mutex);
              if (!m_done.wait_until(lock, until, [this] { return m_finished; }))
                  token.cancel();
          })
    {}
    ~Watchdog()
    {
        {
            std::lock_guard<std::mutex> lock(m_mutex);
            m_finished = true;
        }
        m_done.notify_all();
        m_thread.join();
    }

private:
    std::mutex m_mutex;
    std::condition_variable m_done;
    bool m_finished = false;
    std::thread m_thread; // last: it starts once the members above exist
};

std::string seconds(std::chrono::milliseconds d)
{
    return std::to_string((d.count() + 999) / 1000);
}

Expected<std::filesystem::path> privateFolder()
{
    feed::removeAbandonedFeedTemps(); // what an interrupted run left
    return feed::createHeldFolderIn(toPath(QDir::tempPath()), feed::kFeedTempPrefix,
                                    "downloads of a catalog feed");
}

} // namespace

bool isFeedUrl(const std::string& feed)
{
    return feed.rfind("https://", 0) == 0 || feed.rfind("http://", 0) == 0;
}

HttpFeedSource::HttpFeedSource(std::string base, DownloaderOptions options,
                               std::chrono::milliseconds deadline)
    : m_base(std::move(base)), m_tmp(privateFolder()), m_options(std::move(options)),
      m_deadline(deadline), m_until(std::chrono::steady_clock::now() + deadline)
{
    while (!m_base.empty() && m_base.back() == '/')
        m_base.pop_back();
    // A private cache: a partial manifest of another version is never resumed.
    if (m_tmp)
        m_options.cacheDir = *m_tmp;
    m_options.maxTriesPerUrl = std::min(m_options.maxTriesPerUrl, 2);
    m_options.feedTransport = true;
}

HttpFeedSource::~HttpFeedSource()
{
    if (m_tmp)
        (void)ownership::removeOwned(*m_tmp);
}

Expected<std::string> HttpFeedSource::fetch(const std::string& name, std::size_t maxBytes,
                                            const feed::FeedFile* pinned) const
{
    if (auto ok = feed::checkFeedUrl(m_base); !ok)
        return ok.error();
    if (!m_tmp)
        return m_tmp.error();
    if (std::chrono::steady_clock::now() >= m_until)
        return Error::runtime(m_base + ": the feed did not arrive within " + seconds(m_deadline) +
                              " s; stopped");
    DownloadRequest request;
    request.urls = {m_base + "/" + name};
    request.loopbackHttpUnpinned = true; // the manifest is signed; checkFeedUrl allowed it
    if (pinned) {
        request.sha256 = pinned->sha256;
        request.size = pinned->size;
    }
    LimitedStringSink sink(maxBytes);
    const CancelToken expired;
    Expected<DownloadResult> r = Error::runtime("not fetched");
    {
        const Watchdog watchdog(expired, m_until);
        r = Downloader(m_options).fetch(request, sink, {}, expired);
    }
    const std::string url = m_base + "/" + name;
    if (!r && expired.cancelled())
        return Error::runtime(url + ": the feed did not arrive within " + seconds(m_deadline) +
                              " s; stopped");
    if (!r) {
        if (r.error().message.find(url) != std::string::npos)
            return r.error();
        return r.error().prefixed(url + ": ");
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
