// The catalog feed's manifest parser and minisign signature reader on arbitrary bytes:
// the input is split at the first NUL into a manifest and a signature file.

#include "core/catalog/feed/manifest.h"
#include "core/catalog/feed/minisign.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string input(reinterpret_cast<const char*>(data), size);
    const auto nul = input.find('\0');
    const std::string manifest = input.substr(0, nul);
    const std::string signature = nul == std::string::npos ? std::string() : input.substr(nul + 1);
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
