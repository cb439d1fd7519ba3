// The catalog feed's manifest parser and minisign signature reader on arbitrary bytes:
// the input is split at the first NUL into a manifest and a signature file.

#include "core/catalog/feed/manifest.h"
#include "core/catalog/feed/minisign.h"
#include "tests/support/fuzz_input.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const sp::fuzz::Cut cut = sp::fuzz::cutAt(sp::fuzz::bytesOf(data, size), '\0');
    const std::string manifest(cut.head);
    const std::string signature(cut.rest.value_or(std::string_view()));
    if (auto m = sp::feed::parseManifest(manifest, "fuzz.json")) {
        // What parses must write back to text that parses to the same manifest.
        auto again = sp::feed::parseManifest(sp::feed::toJsonText(*m), "again.json");
        if (!again || sp::feed::toJsonText(*again) != sp::feed::toJsonText(*m))
            __builtin_trap();
    }
    static const auto key =
        sp::feed::parsePublicKey("RWRG+3TmqLmv06xrRHO0pFXmHkIkbUQijvUnnuc/y2r5yPBgoZmkBkGO");
    if (key)
        (void)sp::feed::verifySignature(manifest, signature, {*key}, "fuzz.minisig");
    (void)sp::feed::parsePublicKey(signature);
    return 0;
}
