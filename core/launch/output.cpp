#include "core/launch/output.h"

#include "core/logmatch/signature.h"
#include "core/strings.h"
#include "core/text.h"

#include <algorithm>
#include <cstring>
#include <re2/re2.h>

namespace sp {

namespace {

bool isLocalHost(std::string_view host)
{
    return host == "0.0.0.0" || host == "localhost" || host == "[::]" || host == "[::1]" ||
           host.rfind("127.", 0) == 0;
}

// "http://HOST:PORT/..." -> HOST.
std::string_view hostOf(std::string_view url)
{
    const std::size_t scheme = url.find("://");
    if (scheme == std::string_view::npos)
        return {};
    std::string_view rest = url.substr(scheme + 3);
    if (!rest.empty() && rest.front() == '[')
        return rest.substr(0, rest.find(']') + 1);
    return rest.substr(0, rest.find_first_of(":/"));
}

// No spaces, quotes, angle brackets or control characters: a URL ends there.
constexpr const char* kGenericUrl = R"((https?://[^\s'"<>\x00-\x1f\x7f]+))";

// Where the 8-bit CSI (U+009B, "\xc2\x9b" in UTF-8) at line[i] ends: its parameters
// and final byte read as ESC ['s.
std::size_t c1CsiEnd(std::string_view line, std::size_t i)
{
    std::size_t j = i + 2;
    while (j < line.size() && line[j] >= 0x20 && line[j] <= 0x3f)
        ++j;
    return j < line.size() && line[j] >= 0x40 && line[j] <= 0x7e ? j + 1 : j;
}

// The line ends of one chunk, front to back: find_first_of("\r\n") calls memchr on the
// two-byte set for every byte of the chunk, which a flood of output pays per byte.
// Here the next '\n' is found once (memchr) and kept until the line that it ends has
// been passed, and a '\r' is only looked for before it, so a chunk of progress bars'
// updates is not searched again for a '\n' at each of them.
class LineEnds
{
public:
    explicit LineEnds(std::string_view chunk) : m_chunk(chunk) {}
    // The first '\r' or '\n' at or after `from` (an offset in the chunk), or npos.
    std::size_t next(std::size_t from)
    {
        if (!m_found || m_nl < from) {
            m_found = true;
            const void* nl = std::memchr(m_chunk.data() + from, '\n', m_chunk.size() - from);
            m_nl = nl ? std::size_t(static_cast<const char*>(nl) - m_chunk.data()) : m_chunk.size();
        }
        if (const void* cr = std::memchr(m_chunk.data() + from, '\r', m_nl - from))
            return std::size_t(static_cast<const char*>(cr) - m_chunk.data());
        return m_nl < m_chunk.size() ? m_nl : std::string_view::npos;
    }

private:
    std::string_view m_chunk;
    std::size_t m_nl = 0; // the first '\n' at or after the last `from`, or the chunk's size
    bool m_found = false; // m_nl is known
};

constexpr std::string_view kC1Csi = "\xc2\x9b";

// Whether stripAnsi has anything to remove from `line`.
bool holdsEscapes(std::string_view line)
{
    return std::memchr(line.data(), '\x1b', line.size()) != nullptr ||
           line.find(kC1Csi) != std::string_view::npos;
}

} // namespace

std::string stripAnsi(std::string_view line)
{
    if (!holdsEscapes(line))
        return std::string(line);
    std::string out;
    out.reserve(line.size());
    for (std::size_t i = 0; i < line.size();) {
        if (line[i] == '\x1b') {
            i = escapeSequenceEnd(line, i);
        } else if (line.compare(i, kC1Csi.size(), kC1Csi) == 0) {
            i = c1CsiEnd(line, i);
        } else {
            out += line[i];
            ++i;
        }
    }
    return out;
}

void LineSplitter::feed(std::string_view chunk, const std::function<void(std::string_view)>& onLine)
{
    if (m_pendingCr && !chunk.empty()) { // the '\r' that ended the last chunk and a '\n'
        m_pendingCr = false;             // are one "\r\n"
        if (chunk.front() == '\n') {
            if (m_skippedEmpty)
                onLine({}); // "\r\n" ends an empty line, whatever the chunks
            chunk.remove_prefix(1);
        }
    }
    const std::string_view whole = chunk;
    LineEnds lineEnds(whole);
    while (!chunk.empty()) {
        const std::size_t done = whole.size() - chunk.size();
        const std::size_t at = lineEnds.next(done);
        const std::size_t end = at == std::string_view::npos ? at : at - done;
        std::string_view piece = chunk.substr(0, end);
        std::size_t skip = 1;
        bool loneCr = false; // a progress bar's "\r": it ends a line too, shown at once
        if (end != std::string_view::npos && chunk[end] == '\r') {
            if (end + 1 < chunk.size() && chunk[end + 1] == '\n')
                skip = 2;
            else
                loneCr = true;
            m_pendingCr = end + 1 == chunk.size();
        }
        m_skippedEmpty = false;
        if (end != std::string_view::npos && m_partial.empty() && !m_justCut &&
            piece.size() <= m_maxLine) {
            // The common case: a whole line inside the chunk, passed without a copy. A
            // "\r" right after a line's end ends no new line.
            m_skippedEmpty = loneCr && piece.empty();
            if (!m_skippedEmpty)
                onLine(piece);
        } else {
            appendCut(piece, onLine);
            if (end != std::string_view::npos) {
                const bool ends = !m_justCut || !m_partial.empty(); // not a cut's newline
                m_skippedEmpty = ends && loneCr && m_partial.empty();
                if (ends && !m_skippedEmpty)
                    emitPartial(onLine);
                m_justCut = false;
            }
        }
        if (end == std::string_view::npos)
            break;
        chunk.remove_prefix(end + skip);
    }
}

// Appends to the partial line, emitting a piece each time it reaches maxLine.
void LineSplitter::appendCut(std::string_view piece,
                             const std::function<void(std::string_view)>& onLine)
{
    while (!piece.empty()) {
        const std::size_t take = std::min(m_maxLine - m_partial.size(), piece.size());
        m_partial.append(piece.substr(0, take));
        piece.remove_prefix(take);
        m_justCut = false;
        if (m_partial.size() >= m_maxLine) {
            finish(onLine);
            m_justCut = true; // the newline that may follow ends no new line
        }
    }
}

void LineSplitter::finish(const std::function<void(std::string_view)>& onLine)
{
    if (!m_partial.empty())
        emitPartial(onLine);
}

void LineSplitter::emitPartial(const std::function<void(std::string_view)>& onLine)
{
    std::string_view line = m_partial;
    if (!line.empty() && line.back() == '\r')
        line.remove_suffix(1);
    onLine(line);
    m_partial.clear();
}

std::string browsableUrl(std::string url)
{
    for (const auto& [wild, local] :
         {std::pair{"://0.0.0.0", "://127.0.0.1"}, std::pair{"://[::]", "://[::1]"}}) {
        if (const std::size_t at = url.find(wild); at != std::string::npos)
            url.replace(at, std::strlen(wild), local);
    }
    return url;
}

UrlFinder::UrlFinder(const std::string& urlRegex)
{
    auto re = logmatch::compileSignature(urlRegex.empty() ? kGenericUrl : urlRegex, true);
    if (!re) // the catalog loader already refused a bad url_regex; fall back anyway
        re = logmatch::compileSignature(kGenericUrl, true);
    m_regex = *re;
    m_localOnly = urlRegex.empty();
}

UrlFinder::~UrlFinder() = default;
UrlFinder::UrlFinder(UrlFinder&&) noexcept = default;
UrlFinder& UrlFinder::operator=(UrlFinder&&) noexcept = default;

std::optional<std::string> UrlFinder::find(std::string_view line)
{
    if (line.find("://") == std::string_view::npos)
        return std::nullopt;
    re2::StringPiece whole, group;
    const re2::StringPiece text(line.data(), line.size());
    const int groups = std::min(1, m_regex->NumberOfCapturingGroups());
    re2::StringPiece found[2];
    if (!m_regex->Match(text, 0, text.size(), RE2::UNANCHORED, found, groups + 1))
        return std::nullopt;
    const re2::StringPiece hit = groups ? found[1] : found[0];
    std::string url(trim(std::string_view(hit.data(), hit.size())));
    // A catalog url_regex may capture past a control character; a URL ends there.
    const auto control = std::find_if(url.begin(), url.end(), [](char c) {
        return static_cast<unsigned char>(c) < 0x20 || c == 0x7f;
    });
    url.erase(control, url.end());
    // Sentence punctuation after a URL is not part of it.
    while (!url.empty() && std::strchr(".,;:)'\"", url.back()) != nullptr)
        url.pop_back();
    if (url.empty() || (m_localOnly && !isLocalHost(hostOf(url))))
        return std::nullopt;
    url = browsableUrl(std::move(url));
    if (!m_seen.insert(url).second)
        return std::nullopt;
    return url;
}

OutputPipeline::OutputPipeline(const logmatch::LogMatcher* matcher, const std::string& urlRegex,
                               unsigned codePage, events::LaunchSink sink, std::FILE* log,
                               const logmatch::LogContext& context)
    : m_decoder(codePage), m_urlFinder(urlRegex), m_sink(std::move(sink)), m_log(log)
{
    if (matcher)
        m_scan.emplace(*matcher, context);
}

void OutputPipeline::feed(bool isStderr, std::string_view chunk)
{
    (isStderr ? m_err : m_out).feed(chunk, [&](std::string_view line) { onLine(isStderr, line); });
}

void OutputPipeline::finish()
{
    m_out.finish([&](std::string_view line) { onLine(false, line); });
    m_err.finish([&](std::string_view line) { onLine(true, line); });
    // Matches that waited to see whether a cause outranks them are reported now.
    if (m_scan)
        announce(m_scan->flush());
    if (m_log && m_logFilter) {
        m_logLines.clear();
        m_logFilter->finish(m_logLines);
        for (const std::string& l : m_logLines)
            writeLog(l);
    }
    if (m_log)
        std::fflush(m_log);
}

// A log is read in terminals and editors too: BEL, C1 controls and the rest are shown
// escaped there, as on the CLI's terminal (an ESC sequence is gone already).
void OutputPipeline::writeLog(std::string_view line)
{
    if (mayNeedEscaping(line)) {
        const std::string safe = printable(line);
        std::fwrite(safe.data(), 1, safe.size(), m_log);
    } else {
        std::fwrite(line.data(), 1, line.size(), m_log);
    }
    std::fputc('\n', m_log);
}

const std::vector<logmatch::LogMatch>& OutputPipeline::matches() const
{
    static const std::vector<logmatch::LogMatch> none;
    return m_scan ? m_scan->matches() : none;
}

void OutputPipeline::onLine(bool isStderr, std::string_view bytes)
{
    ++m_lines;
    std::string text = m_decoder.decode(bytes);
    std::string stripped; // only a line with escapes needs a copy without them
    std::string_view plain = text;
    if (holdsEscapes(text)) {
        stripped = stripAnsi(text);
        plain = stripped;
    }
    if (m_log && m_logFilter) {
        m_logLines.clear();
        m_logFilter->line(plain, m_logLines);
        for (const std::string& l : m_logLines)
            writeLog(l);
    } else if (m_log) {
        writeLog(plain);
    }
    const std::size_t fresh = m_scan ? m_scan->feed(plain) : 0;
    const std::optional<std::string> url = m_urlFinder.find(plain);
    m_sink(events::ConsoleLine{isStderr, std::move(text)});
    if (url) {
        m_urls.push_back(*url);
        m_sink(events::UrlAnnounced{*url});
    }
    announce(fresh);
}

void OutputPipeline::announce(std::size_t fresh)
{
    const auto& all = matches();
    for (std::size_t i = all.size() - fresh; i < all.size(); ++i) {
        const logmatch::LogMatch& m = all[i];
        m_sink(events::KnownIssueSeen{m.knownIssue, m.title, static_cast<long long>(m.line),
                                      m.excerpt, m.remedy, m.action});
    }
}

} // namespace sp
