// libFuzzer target: sp::models::parseSafetensors on arbitrary bytes.

#include "core/models/safetensors.h"
#include "tests/support/fuzz_input.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view bytes = sp::fuzz::bytesOf(data, size);
    const auto s = sp::models::parseSafetensors(bytes, size, "fuzz.safetensors");
    if (s && s->dataBytes + s->headerBytes + 8 > size)
        std::abort(); // every tensor lies inside the file
    if (s)
        (void)sp::models::describe(*s);
    return 0;
}
