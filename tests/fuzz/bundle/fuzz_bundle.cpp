// A diagnostics bundle from any bytes: as a zip (libarchive under the zip limits: entry
// count, entry size, compression ratio) or as a report.json. Whatever snapshot comes out
// must survive a JSON round trip unchanged, like one read from detect --json.

#include "core/snapshot.h"
#include "core/zip_reader.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    auto snap = sp::looksLikeZip(bytes) ? sp::snapshotFromBundleBytes(bytes, "fuzz.zip")
                                        : sp::parseSnapshot(bytes, "report.json");
    if (!snap)
        return 0;
    const std::string once = sp::toJson(*snap).dump();
    auto again = sp::parseSnapshot(once, "again.json");
    if (!again || sp::toJson(*again).dump() != once)
        std::abort();
    return 0;
}
