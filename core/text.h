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
// Whether printable(text) may differ from `text` (a control, DEL, or a 0xC2 byte that
// may start a C1 control); false: `text` is shown as it is.
bool mayNeedEscaping(std::string_view text);

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

// For a terminal (non-JSON output of the CLI): only SGR colour sequences (ESC [ digits
// and ';' or ':' m) pass, and only when `keepColour` (else they are dropped, as for a
// pipe). Every other escape (OSC 52 clipboard writes, OSC 0 titles, CSI screen clears
// and cursor moves, DCS), C0 controls other than tab and newline, DEL, C1 controls
// (U+0080 to U+009F, and the raw bytes 0x80 to 0x9F) and bytes that are not UTF-8 are
// shown escaped (\x1b, \u009b, \xff): the output is always valid UTF-8, and holds no
// ESC but an SGR's.
std::string terminalSafe(std::string_view text, bool keepColour = true);

// Where the escape sequence starting at s[i] (an ESC) ends: after a CSI's final byte,
// after an OSC, DCS, SOS, PM or APC string's terminator (BEL or ESC \), after a
// two-byte sequence; a sequence broken by a byte outside its grammar ends before that
// byte, so removing [i, end) never cuts a UTF-8 character.
std::size_t escapeSequenceEnd(std::string_view s, std::size_t i);

// Length of the well-formed UTF-8 sequence starting at s[i] (no overlongs, no
// surrogates, nothing above U+10FFFF), or 0 when the bytes there are not one.
std::size_t utf8SequenceLength(std::string_view s, std::size_t i);

} // namespace sp
