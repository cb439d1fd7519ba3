// TextDecoder on Windows: MultiByteToWideChar from the console's code page, then UTF-8.
#include "core/launch/text_decoder.h"

#include <windows.h>

namespace sp {

struct TextDecoder::Converter
{
    UINT codePage = 0;
};

TextDecoder::TextDecoder(unsigned codePage) : m_codePage(codePage)
{
    if (codePage != 0 && IsValidCodePage(codePage))
        m_converter = std::make_unique<Converter>(Converter{codePage});
}

TextDecoder::~TextDecoder() = default;
TextDecoder::TextDecoder(TextDecoder&&) noexcept = default;
TextDecoder& TextDecoder::operator=(TextDecoder&&) noexcept = default;

bool TextDecoder::canConvert() const
{
    return m_converter != nullptr;
}

namespace {

// Strict when the code page allows it (a few, like 50220, refuse the flag).
int toWide(UINT codePage, std::string_view bytes, wchar_t* out, int outLen)
{
    const int len = static_cast<int>(bytes.size());
    const int n =
        MultiByteToWideChar(codePage, MB_ERR_INVALID_CHARS, bytes.data(), len, out, outLen);
    if (n == 0 && GetLastError() == ERROR_INVALID_FLAGS)
        return MultiByteToWideChar(codePage, 0, bytes.data(), len, out, outLen);
    return n;
}

// Empty when the bytes are not valid in the code page.
std::string fromCodePage(UINT codePage, std::string_view bytes)
{
    const int wlen = toWide(codePage, bytes, nullptr, 0);
    if (wlen <= 0)
        return {};
    std::wstring wide(static_cast<std::size_t>(wlen), L'\0');
    if (toWide(codePage, bytes, wide.data(), wlen) != wlen)
        return {};
    const int n = WideCharToMultiByte(CP_UTF8, 0, wide.data(), wlen, nullptr, 0, nullptr, nullptr);
    if (n <= 0)
        return {};
    std::string out(static_cast<std::size_t>(n), '\0');
    if (WideCharToMultiByte(CP_UTF8, 0, wide.data(), wlen, out.data(), n, nullptr, nullptr) != n)
        return {};
    return out;
}

} // namespace

std::string TextDecoder::decode(std::string_view bytes) const
{
    if (isValidUtf8(bytes))
        return std::string(bytes);
    if (m_converter) {
        std::string converted = fromCodePage(m_converter->codePage, bytes);
        if (!converted.empty())
            return converted;
    }
    return replaceInvalidUtf8(bytes);
}

unsigned defaultConsoleCodePage()
{
    const UINT cp = GetConsoleOutputCP();
    return cp != 0 ? cp : GetOEMCP();
}

} // namespace sp
