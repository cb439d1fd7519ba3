#include "app/common/diag/key_blocks.h"

#include "app/common/diag/redact.h"

#include <limits>
#include <re2/re2.h>

namespace sp::diag {

namespace {

// Lines in a row inside a block with no END that no body holds before the block is
// taken to have been cut: another stream's lines may come between a key's lines.
constexpr int kMaxStrays = 8;
// A logger's prefix before a body line: the base64 word after it is this long at least.
constexpr std::size_t kMinPrefixedBody = 16;

const std::string& keyMarker()
{
    static const std::string m = Redactor::marker(RedactionKind::PrivateKey);
    return m;
}

const RE2& marker(bool begin)
{
    static const RE2 beginRe(R"((-{4,5} ?BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)? ?-{4,5}))");
    static const RE2 endRe(R"((-{4,5} ?END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)? ?-{4,5}))");
    return begin ? beginRe : endRe;
}

struct Span
{
    std::size_t begin = std::string_view::npos;
    std::size_t end = 0;
    bool found() const { return begin != std::string_view::npos; }
};

Span find(bool begin, std::string_view line)
{
    if (line.find("PRIVATE KEY") == std::string_view::npos)
        return {};
    re2::StringPiece hit;
    const re2::StringPiece text(line.data(), line.size());
    if (!marker(begin).Match(text, 0, text.size(), RE2::UNANCHORED, &hit, 1))
        return {};
    const auto at = static_cast<std::size_t>(hit.data() - line.data());
    return {at, at + hit.size()};
}

bool isBase64(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' ||
           c == '/' || c == '=';
}

std::string_view trim(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

bool allBase64(std::string_view s)
{
    for (char c : s)
        if (!isBase64(c))
            return false;
    return true;
}

// A whole line a key's body can be: base64 (or nothing), or one of its headers.
bool wholeBody(std::string_view line)
{
    const std::string_view t = trim(line);
    if (allBase64(t))
        return true;
    for (const char* header : {"Proc-Type:", "DEK-Info:", "Comment:", "Version:", "Hash:"})
        if (t.rfind(header, 0) == 0)
            return true;
    return false;
}

// Where a base64 word at the end of a line starts, after a logger's prefix ("[stderr]
// 12:00:01 MIIEv..."); npos when there is none.
std::size_t prefixedBody(std::string_view line)
{
    const std::string_view t = trim(line);
    const std::size_t space = t.find_last_of(" \t");
    if (space == std::string_view::npos)
        return std::string_view::npos;
    const std::string_view word = t.substr(space + 1);
    if (word.size() < kMinPrefixedBody || !allBase64(word))
        return std::string_view::npos;
    return static_cast<std::size_t>(word.data() - line.data());
}

// The line with its body replaced: the whole line, or the word after its prefix.
std::string bodyReplaced(std::string_view line)
{
    if (wholeBody(line))
        return keyMarker();
    const std::size_t at = prefixedBody(line);
    return at == std::string_view::npos ? keyMarker()
                                        : std::string(line.substr(0, at)) + keyMarker();
}

// What is kept of the text before an END: a logger's prefix ("W ", "12:00:01 INFO "),
// which a space parts from the END, not the body's last characters ("Zm9v==-----END").
std::string_view prefixOf(std::string_view before)
{
    if (!before.empty() && (before.back() == ' ' || before.back() == '\t'))
        return before;
    if (wholeBody(before))
        return {};
    const std::size_t word = prefixedBody(before);
    return word == std::string_view::npos ? before : before.substr(0, word);
}

bool hasBody(std::string_view line)
{
    const std::string_view t = trim(line);
    return (!t.empty() && allBase64(t)) || prefixedBody(line) != std::string_view::npos;
}

} // namespace

bool mayHoldKeyBlock(std::string_view text)
{
    return text.find("PRIVATE KEY") != std::string_view::npos;
}

void KeyBlockLines::feed(std::string_view line, std::vector<std::string>& out)
{
    if (mayHoldKeyBlock(line) && (find(true, line).found() || find(false, line).found())) {
        std::string result = withMarkers(line, out);
        release(out);
        out.push_back(std::move(result));
    } else if (m_inBlock) {
        bodyLine(line, out);
    } else if (hasBody(line) || (!m_held.empty() && wholeBody(line))) {
        hold(line, out);
    } else {
        release(out);
        out.emplace_back(line);
    }
}

// A line with a BEGIN or an END on it, taken apart left to right.
std::string KeyBlockLines::withMarkers(std::string_view line, std::vector<std::string>& out)
{
    std::string result;
    std::string_view rest = line;
    for (;;) {
        const Span b = find(true, rest), e = find(false, rest);
        if (m_inBlock && b.found() && (!e.found() || b.begin < e.begin)) {
            // A new BEGIN inside a block: the block before was cut off, and this one
            // starts afresh (else a second pass would redact what the first kept).
            endBlock();
            continue;
        }
        if (m_inBlock) {
            // Up to this block's END, or (none) the whole rest: a one-line key. A line
            // that began inside the block keeps a logger's prefix before its END.
            if (result.empty()) {
                result.append(prefixOf(rest.substr(0, e.found() ? e.begin : rest.size())));
                result += keyMarker();
            }
            if (!e.found())
                return result;
            rest.remove_prefix(e.end);
            endBlock();
        } else if (b.found() && (!e.found() || b.begin < e.begin)) {
            release(out); // what came before a BEGIN was no key
            result.append(rest.substr(0, b.begin));
            result += keyMarker();
            rest.remove_prefix(b.end);
            endBlock();
            m_inBlock = true;
            ++m_blocks;
        } else if (e.found()) {
            // An END whose BEGIN is not here (cut off): the held lines were its body.
            for (const std::string& held : m_held)
                out.push_back(bodyReplaced(held));
            m_held.clear();
            m_heldBytes = 0;
            result.append(prefixOf(rest.substr(0, e.begin)));
            result += keyMarker();
            rest.remove_prefix(e.end);
            ++m_blocks;
        } else {
            result.append(rest);
            return result;
        }
    }
}

void KeyBlockLines::bodyLine(std::string_view line, std::vector<std::string>& out)
{
    // Once another line came between, a short word alone ("done") is no longer taken
    // for the body's last line: only a base64 run as long as a body's lines are.
    const bool body = m_interrupted ? hasBody(line) && trim(line).size() >= kMinPrefixedBody
                                    : wholeBody(line) || hasBody(line);
    if (body) {
        out.push_back(bodyReplaced(line));
        m_strays = 0;
        return;
    }
    out.emplace_back(line);
    m_interrupted = true;
    if (++m_strays >= kMaxStrays)
        endBlock();
}

void KeyBlockLines::endBlock()
{
    m_inBlock = false;
    m_interrupted = false;
    m_strays = 0;
}

void KeyBlockLines::hold(std::string_view line, std::vector<std::string>& out)
{
    m_held.emplace_back(line);
    m_heldBytes += line.size();
    while (!m_held.empty() && (m_held.size() > m_holdLines || m_heldBytes > m_holdBytes)) {
        m_heldBytes -= m_held.front().size();
        out.push_back(std::move(m_held.front()));
        m_held.pop_front();
    }
}

void KeyBlockLines::release(std::vector<std::string>& out)
{
    for (std::string& held : m_held)
        out.push_back(std::move(held));
    m_held.clear();
    m_heldBytes = 0;
}

void KeyBlockLines::finish(std::vector<std::string>& out)
{
    release(out);
    endBlock();
}

std::string redactKeyBlocks(std::string_view text, std::size_t& blocks)
{
    constexpr std::size_t kAll = std::numeric_limits<std::size_t>::max();
    KeyBlockLines keys(kAll, kAll);
    std::vector<std::string> lines;
    bool lastEnded = true;
    for (std::size_t pos = 0; pos < text.size();) {
        const std::size_t nl = text.find('\n', pos);
        lastEnded = nl != std::string_view::npos;
        keys.feed(text.substr(pos, lastEnded ? nl - pos : std::string_view::npos), lines);
        pos = lastEnded ? nl + 1 : text.size();
    }
    keys.finish(lines);
    blocks = keys.blocks();
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < lines.size(); ++i) {
        out += lines[i];
        if (i + 1 < lines.size() || lastEnded)
            out += '\n';
    }
    return out;
}

} // namespace sp::diag
