// The redactor on any text: never crashes, and is stable: what one pass leaves is left
// by the next (a marker is never taken for a secret, so nothing is counted twice).

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
        return id;
    }());
    const std::string text(reinterpret_cast<const char*>(data), size);
    sp::diag::RedactionCounts first, second;
    const std::string once = redactor.text(text, first);
    const std::string twice = redactor.text(once, second);
    if (twice != once || second.total() != 0)
        std::abort();
    return 0;
}
