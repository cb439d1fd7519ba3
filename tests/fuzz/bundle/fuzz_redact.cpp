// The redactor on any text: never crashes, and is stable: what one pass leaves is left
// by the next (a marker is never taken for a secret, so nothing is counted twice); a
// secret known by value never survives; valid UTF-8 stays valid (no cut inside a
// character) and no escape byte is added, so what a terminal gets after terminalSafe
// is what the text had. Dictionary: tests/fuzz/dicts/redact.dict.

#include "app/common/diag/redact.h"
#include "core/text.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace {

bool validUtf8(const std::string& s)
{
    for (std::size_t i = 0; i < s.size();) {
        const std::size_t len = sp::utf8SequenceLength(s, i);
        if (len == 0)
            return false;
        i += len;
    }
    return true;
}

std::size_t escapes(const std::string& s)
{
    std::size_t n = 0;
    for (char c : s)
        n += c == '\x1b';
    return n;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    static const sp::diag::Redactor redactor([] {
        sp::diag::Identity id;
        id.names = {"zorbulon"};
        id.homes = {"/home/zorbulon", "C:\\Users\\Zorbulon"};
        id.addSecretValues({{"HF_TOKEN", "hf_Sh0rt9"}, {"DB_PASS", "pa55w0rd"}});
        return id;
    }());
    const std::string text(reinterpret_cast<const char*>(data), size);
    sp::diag::RedactionCounts first, second;
    const std::string once = redactor.text(text, first);
    const std::string twice = redactor.text(once, second);
    if (twice != once || second.total() != 0)
        std::abort();
    if ((validUtf8(text) && !validUtf8(once)) || escapes(once) > escapes(text))
        std::abort();
    for (const char* known : {"hf_Sh0rt9", "pa55w0rd"})
        if (once.find(known) != std::string::npos)
            std::abort();
    return 0;
}
