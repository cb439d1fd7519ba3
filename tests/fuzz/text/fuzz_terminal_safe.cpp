// libFuzzer target: terminalSafe on any bytes gives valid UTF-8 with no ESC but an SGR
// colour sequence's (none at all without colours), no C0 control but tab and newline,
// and no C1 control; stripAnsi keeps valid UTF-8 valid.

#include "core/launch/output.h"
#include "core/text.h"
#include "tests/support/fuzz_input.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace {

// The SGR at s[i] (an ESC): ESC [ digits ; : m. Returns its end, or 0.
std::size_t sgrEnd(const std::string& s, std::size_t i)
{
    if (i + 2 >= s.size() || s[i + 1] != '[')
        return 0;
    for (std::size_t j = i + 2; j < s.size(); ++j) {
        const char c = s[j];
        if (c == 'm')
            return j + 1;
        if (!((c >= '0' && c <= '9') || c == ';' || c == ':'))
            return 0;
    }
    return 0;
}

void check(const std::string& out, bool colours)
{
    if (!sp::fuzz::validUtf8(out))
        std::abort();
    for (std::size_t i = 0; i < out.size(); ++i) {
        const auto c = static_cast<unsigned char>(out[i]);
        if (c == 0x1b) {
            const std::size_t end = colours ? sgrEnd(out, i) : 0;
            if (end == 0)
                std::abort(); // an escape that is not a colour
            i = end - 1;
        } else if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7f) {
            std::abort();
        } else if (c == 0xc2 && i + 1 < out.size() &&
                   static_cast<unsigned char>(out[i + 1]) <= 0x9f) {
            std::abort(); // a C1 control
        }
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string in = sp::fuzz::textOf(data, size);
    check(sp::terminalSafe(in, true), true);
    check(sp::terminalSafe(in, false), false);
    if (sp::fuzz::validUtf8(in) && !sp::fuzz::validUtf8(sp::stripAnsi(in)))
        std::abort();
    return 0;
}
