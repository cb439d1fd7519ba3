#include "core/text.h"

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

std::string printable(std::string_view text)
{
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

} // namespace sp
