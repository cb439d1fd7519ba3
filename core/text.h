#pragma once
// Text from any input (GPU names from drivers, catalog strings, log lines) is shown to
// a person only after control characters are escaped: a GPU name or a log line must
// not move the cursor, change colours or retitle the terminal.

#include <string>
#include <string_view>

namespace sp {

// Escapes C0 controls other than tab and newline, DEL and the C1 controls (U+0080 to
// U+009F) as \xNN or \u00NN; everything else, UTF-8 included, is kept.
std::string printable(std::string_view text);

// The same, for a byte stream cut at any point: call feed() with each chunk; a C1
// control split across chunks is still caught.
class PrintableFilter
{
public:
    std::string feed(std::string_view chunk);
    std::string finish();

private:
    bool m_pendingC2 = false;
};

// Length of the well-formed UTF-8 sequence starting at s[i] (no overlongs, no
// surrogates, nothing above U+10FFFF), or 0 when the bytes there are not one.
std::size_t utf8SequenceLength(std::string_view s, std::size_t i);

} // namespace sp
