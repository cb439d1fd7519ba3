// The redactor on any text: never crashes, and is stable: what one pass leaves is left
// by the next (a marker is never taken for a secret, so nothing is counted twice); a
// secret known by value never survives; valid UTF-8 stays valid (no cut inside a
// character) and no escape byte is added, so what a terminal gets after terminalSafe
// is what the text had. Dictionary: tests/fuzz/dicts/redact.dict.
//
// Then the same text, line by line, through the launch log's stateful filter (a key
// block followed across lines, lines held back): one line out for each line in, no
// known secret in any, and whatever state the text leaves (a block open, lines held),
// a whole key fed after it and one fed before it lose their body.

#include "app/common/diag/log_filter.h"
#include "app/common/diag/redact.h"
#include "core/text.h"
#include "tests/support/fuzz_input.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace {

std::size_t escapes(const std::string& s)
{
    std::size_t n = 0;
    for (char c : s)
        n += c == '\x1b';
    return n;
}

constexpr const char* kBody = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7";

void checkLogFilter(const std::string& text)
{
    static const auto filter = sp::diag::launchLogFilter(
        {{"HF_TOKEN", "hf_Sh0rt9"}, {"DB_PASS", "pa55w0rd"}, {"MY_API_KEY", "k9"}}, {},
        nlohmann::json::object());
    std::vector<std::string> in = {"-----BEGIN PRIVATE KEY-----", kBody,
                                   "-----END PRIVATE KEY-----"};
    sp::fuzz::forEachPiece(text, '\n', [&in](std::string_view line) { in.emplace_back(line); });
    for (const char* l :
         {"-----BEGIN RSA PRIVATE KEY-----", kBody, "-----END RSA PRIVATE KEY-----"})
        in.emplace_back(l);
    std::vector<std::string> out;
    for (const auto& l : in)
        filter->line(l, out);
    filter->finish(out);
    if (out.size() != in.size())
        std::abort();
    // The planted keys' body must be gone, unless the input itself wrote those characters
    // outside any key block (then they are the input's own text, and stay).
    const bool bodyInInput = text.find(kBody) != std::string::npos;
    for (const auto& l : out)
        for (const char* known : {"hf_Sh0rt9", "pa55w0rd", kBody})
            if (l.find(known) != std::string::npos && !(bodyInInput && known == kBody))
                std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    static const sp::diag::Redactor redactor([] {
        sp::diag::Identity id;
        id.names = {"zorbulon"};
        id.homes = {"/home/zorbulon", "C:\\Users\\Zorbulon"};
        id.addSecretValues(
            {{"HF_TOKEN", "hf_Sh0rt9"}, {"DB_PASS", "pa55w0rd"}, {"MY_API_KEY", "k9"}});
        return id;
    }());
    const std::string text = sp::fuzz::textOf(data, size);
    sp::diag::RedactionCounts first, second;
    const std::string once = redactor.text(text, first);
    const std::string twice = redactor.text(once, second);
    if (twice != once || second.total() != 0)
        std::abort();
    if ((sp::fuzz::validUtf8(text) && !sp::fuzz::validUtf8(once)) || escapes(once) > escapes(text))
        std::abort();
    for (const char* known : {"hf_Sh0rt9", "pa55w0rd"})
        if (once.find(known) != std::string::npos)
            std::abort();
    checkLogFilter(text);
    return 0;
}
