// libFuzzer target: sp::models::parseGguf on arbitrary bytes, as the whole file and as
// the start of a larger one (the reader then asks for more instead of failing).

#include "core/models/gguf.h"
#include "tests/support/fuzz_input.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view bytes = sp::fuzz::bytesOf(data, size);
    for (const std::uint64_t fileSize : {std::uint64_t(size), std::uint64_t(size) + 4096}) {
        const auto g = sp::models::parseGguf(bytes, fileSize, "fuzz.gguf");
        if (g && (g->dataOffset > fileSize + 1048576 || g->weightBytes > fileSize))
            std::abort(); // the data cannot begin past the header's end, aligned
        if (g)
            (void)sp::models::describe(*g), (void)sp::models::kvCacheBytes(*g, 1u << 20);
    }
    return 0;
}
