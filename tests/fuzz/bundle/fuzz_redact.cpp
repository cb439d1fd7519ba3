// The redactor on any text: never crashes, and is stable: what one pass leaves is left
// by the next (a marker is never taken for a secret, so nothing is counted twice); a
// secret known by value never survives. Dictionary: tests/fuzz/dicts/redact.dict.

#include "app/common/diag/redact.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

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
    for (const char* known : {"hf_Sh0rt9", "pa55w0rd"})
        if (once.find(known) != std::string::npos)
            std::abort();
    return 0;
}
