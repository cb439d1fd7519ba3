// TextDecoder on POSIX: iconv, whose glibc tables know the Windows code pages by
// their "CPnnn" names (CP936 is GBK, CP932 Shift-JIS, CP1252 Western).
#include "core/launch/text_decoder.h"

#include <cerrno>
#include <iconv.h>
#include <string>

namespace sp {

struct TextDecoder::Converter
{
    iconv_t cd = reinterpret_cast<iconv_t>(-1);
    ~Converter()
    {
        if (cd != reinterpret_cast<iconv_t>(-1))
            iconv_close(cd);
    }
};

TextDecoder::TextDecoder(unsigned codePage) : m_codePage(codePage)
{
    if (codePage == 0 || codePage == 65001)
        return;
    auto c = std::make_unique<Converter>();
    c->cd = iconv_open("UTF-8", ("CP" + std::to_string(codePage)).c_str());
    if (c->cd != reinterpret_cast<iconv_t>(-1))
        m_converter = std::move(c);
}

TextDecoder::~TextDecoder() = default;
TextDecoder::TextDecoder(TextDecoder&&) noexcept = default;
TextDecoder& TextDecoder::operator=(TextDecoder&&) noexcept = default;

bool TextDecoder::canConvert() const
{
    return m_converter != nullptr;
}

std::string TextDecoder::decode(std::string_view bytes) const
{
    if (isValidUtf8(bytes))
        return std::string(bytes);
    if (!m_converter)
        return replaceInvalidUtf8(bytes);
    iconv(m_converter->cd, nullptr, nullptr, nullptr, nullptr); // reset shift state
    std::string out(bytes.size() * 3 + 4, '\0');
    char* in = const_cast<char*>(bytes.data());
    std::size_t inLeft = bytes.size();
    char* to = out.data();
    std::size_t outLeft = out.size();
    if (iconv(m_converter->cd, &in, &inLeft, &to, &outLeft) == static_cast<std::size_t>(-1))
        return replaceInvalidUtf8(bytes); // not valid in that code page either
    out.resize(out.size() - outLeft);
    return out;
}

unsigned defaultConsoleCodePage()
{
    return 0;
}

} // namespace sp
