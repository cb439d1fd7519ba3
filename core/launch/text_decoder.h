#pragma once
// Bytes a console program printed -> UTF-8 text, one line at a time.
//
// Valid UTF-8 passes through untouched (the common case, and what every Linux
// workload prints). Anything else is decoded from the console's code page when one
// is set: on a Chinese Windows a Python or llama.cpp error message arrives in code
// page 936 (GBK), and printing those bytes as they are gives mojibake. Without a code
// page, or when the bytes are not valid in it either, each bad byte becomes U+FFFD.
//
// Lines are decoded whole: in every multi-byte code page Windows uses for consoles
// (932, 936, 949, 950) a trail byte is never 0x0A, so splitting at '\n' first is safe.
// The converter is iconv on POSIX (text_decoder_posix.cpp) and MultiByteToWideChar
// on Windows (text_decoder_windows.cpp).

#include <memory>
#include <string>
#include <string_view>

namespace sp {

class TextDecoder
{
public:
    // codePage: a Windows code page number (936, 932, 1252, 65001, ...); 0 = none.
    explicit TextDecoder(unsigned codePage = 0);
    ~TextDecoder();
    TextDecoder(TextDecoder&&) noexcept;
    TextDecoder& operator=(TextDecoder&&) noexcept;

    unsigned codePage() const { return m_codePage; }
    // False when this platform cannot convert from the code page (then bad bytes
    // become U+FFFD).
    bool canConvert() const;
    std::string decode(std::string_view bytes) const;

private:
    struct Converter;
    unsigned m_codePage;
    std::unique_ptr<Converter> m_converter;
};

// The code page a console child prints in: GetConsoleOutputCP(), else GetOEMCP() on
// Windows; 0 on other systems.
unsigned defaultConsoleCodePage();

// Whether the bytes are well-formed UTF-8 (no overlongs, no surrogates).
bool isValidUtf8(std::string_view bytes);
// Each invalid byte replaced by U+FFFD.
std::string replaceInvalidUtf8(std::string_view bytes);

} // namespace sp
