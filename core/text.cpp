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

} // namespace sp
