// Reading a snapshot from text or a file, through the bounded JSON reader. Kept apart
// from snapshot.cpp, which is plain C++ that the Windows build compiles without Qt.

#include "core/json_file.h"
#include "core/paths.h"
#include "core/snapshot.h"

namespace sp {

Expected<HardwareSnapshot> parseSnapshot(const std::string& text, const std::string& origin)
{
    auto j = parseJsonText(text, origin, kSnapshotLimits);
    if (!j)
        return j.error();
    return snapshotFromJson(*j, origin);
}

Expected<HardwareSnapshot> loadSnapshotFile(const std::string& path)
{
    auto text =
        readRegularFile(paths::fromUtf8(path), kSnapshotLimits.maxBytes, "hardware snapshot");
    if (!text)
        return text.error();
    return parseSnapshot(*text, path);
}

} // namespace sp
