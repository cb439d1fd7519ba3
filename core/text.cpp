#include "core/text.h"

#include <algorithm>
#include <cstdio>

namespace sp {

namespace {

void escapeByte(unsigned char c, std::string& out)
{
    char buf[8];
    std::snprintf(buf, sizeof buf, "\\x%02x", c);
    out += buf;
}

} // namespace

std::string PrintableFilter::feed(std::string_view chunk)
{
    std::string out;
    out.reserve(chunk.size());
    for (const char ch : chunk) {
        const auto c = static_cast<unsigned char>(ch);
        if (m_pendingC2) {
            m_pendingC2 = false;
            if (c >= 0x80 && c <= 0x9f) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\u%04x", c);
                out += buf;
                continue;
            }
            out += '\xc2';
        }
        if (c == 0xc2) {
            m_pendingC2 = true;
        } else if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f) {
            escapeByte(c, out);
        } else {
            out += ch;
        }
    }
    return out;
}

std::string PrintableFilter::finish()
{
    const bool pending = m_pendingC2;
    m_pendingC2 = false;
    return pending ? std::string("\xc2") : std::string();
}

bool mayNeedEscaping(std::string_view text)
{
    return std::any_of(text.begin(), text.end(), [](char ch) {
        const auto c = static_cast<unsigned char>(ch);
        return (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f || c == 0xc2;
    });
}

std::string printable(std::string_view text)
{
    if (!mayNeedEscaping(text))
        return std::string(text);
    PrintableFilter f;
    return f.feed(text) + f.finish();
}

namespace {

bool isContinuation(unsigned char c)
{
    return (c & 0xC0) == 0x80;
}

} // namespace

// Length of a valid UTF-8 sequence starting at s[i], or 0 when it is invalid.
std::size_t utf8SequenceLength(std::string_view s, std::size_t i)
{
    const auto b0 = static_cast<unsigned char>(s[i]);
    if (b0 < 0x80)
        return 1;
    std::size_t len = 0;
    unsigned char lo = 0x80;
    unsigned char hi = 0xBF;
    if (b0 >= 0xC2 && b0 <= 0xDF) {
        len = 2;
    } else if (b0 >= 0xE0 && b0 <= 0xEF) {
        len = 3;
        if (b0 == 0xE0)
            lo = 0xA0;
        else if (b0 == 0xED)
            hi = 0x9F; // no UTF-16 surrogates
    } else if (b0 >= 0xF0 && b0 <= 0xF4) {
        len = 4;
        if (b0 == 0xF0)
            lo = 0x90;
        else if (b0 == 0xF4)
            hi = 0x8F;
    } else {
        return 0;
    }
    if (i + len > s.size())
        return 0;
    const auto b1 = static_cast<unsigned char>(s[i + 1]);
    if (b1 < lo || b1 > hi)
        return 0;
    for (std::size_t k = 2; k < len; ++k)
        if (!isContinuation(static_cast<unsigned char>(s[i + k])))
            return 0;
    return len;
}

std::size_t escapeSequenceEnd(std::string_view s, std::size_t i)
{
    if (i + 1 >= s.size())
        return s.size();
    const auto kind = static_cast<unsigned char>(s[i + 1]);
    if (kind == '[') { // CSI: parameters 0x30-0x3F, intermediates 0x20-0x2F, final 0x40-0x7E
        std::size_t j = i + 2;
        while (j < s.size() && s[j] >= 0x20 && s[j] <= 0x3f)
            ++j;
        if (j < s.size() && s[j] >= 0x40 && s[j] <= 0x7e)
            return j + 1;
        return j;
    }
    if (kind == ']' || kind == 'P' || kind == 'X' || kind == '^' || kind == '_') {
        // A string up to BEL or ESC backslash; a byte below 0x20 that is neither (a
        // newline) ends a broken one. UTF-8 inside is removed whole.
        for (std::size_t j = i + 2; j < s.size(); ++j) {
            const auto c = static_cast<unsigned char>(s[j]);
            if (c == '\a')
                return j + 1;
            if (c == 0x1b)
                return j + 1 < s.size() && s[j + 1] == '\\' ? j + 2 : j;
            if (c < 0x20)
                return j;
        }
        return s.size();
    }
    // ESC and one byte (ESC c, ESC 7, ESC ( B's first half); never a UTF-8 lead byte.
    return kind >= 0x20 && kind <= 0x7e ? i + 2 : i + 1;
}

namespace {

bool isSgr(std::string_view seq)
{
    if (seq.size() < 3 || seq[1] != '[' || seq.back() != 'm')
        return false;
    for (std::size_t k = 2; k + 1 < seq.size(); ++k)
        if (!((seq[k] >= '0' && seq[k] <= '9') || seq[k] == ';' || seq[k] == ':'))
            return false;
    return true;
}

} // namespace

std::string terminalSafe(std::string_view s, bool keepColour)
{
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size();) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c == 0x1b) {
            const std::size_t end = escapeSequenceEnd(s, i);
            if (isSgr(s.substr(i, end - i))) {
                if (keepColour)
                    out.append(s.substr(i, end - i));
                i = end;
            } else {
                escapeByte(c, out); // the rest of it shows as plain text
                ++i;
            }
            continue;
        }
        if (c < 0x80) {
            if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f)
                escapeByte(c, out);
            else
                out += static_cast<char>(c);
            ++i;
            continue;
        }
        const std::size_t len = utf8SequenceLength(s, i);
        if (len == 0) {
            escapeByte(c, out);
            ++i;
        } else if (len == 2 && c == 0xc2 && static_cast<unsigned char>(s[i + 1]) <= 0x9f) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned char>(s[i + 1]));
            out += buf;
            i += 2;
        } else {
            out.append(s.substr(i, len));
            i += len;
        }
    }
    return out;
}

} // namespace sp
