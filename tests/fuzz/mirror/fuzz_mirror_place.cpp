// The URL-to-mirror-path mapping of `mirror export` (installers/mirror_place.cpp) on
// arbitrary URLs: whatever it accepts must name a place inside DIR. The folder is one
// plain name that is not the digest folder or the rules file, every path part is a
// plain file name (no separator, NUL or control character, not "." or ".."), and the
// joined path, normalised, still starts with DIR (issue 35, item 1).

#include "core/web_url.h"
#include "installers/mirror_export.h"
#include "tests/support/fuzz_input.h"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>

namespace {

bool plainName(const std::string& s)
{
    if (s.empty() || s == "." || s == ".." || s.size() > 4096)
        return false;
    for (unsigned char c : s)
        if (c < 0x20 || c == 0x7f || c == '/' || c == '\\' || c == ':')
            return false;
    return true;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size > 4096)
        return 0;
    const std::string url = sp::fuzz::textOf(data, size);
    auto parsed = sp::parseWebUrl(url);
    if (parsed && !sp::isRealHost(parsed->host))
        __builtin_trap();
    auto place = sp::mirrorPlaceOf(url);
    if (!place)
        return 0;
    if (!parsed || !plainName(place->folder) || place->folder == "sha256" ||
        place->folder == "mirrors.json" || place->segments.empty())
        __builtin_trap();
    const std::filesystem::path dir = "/export/dir";
    std::filesystem::path joined = dir / place->folder;
    std::string path;
    for (const auto& seg : place->segments) {
        if (!plainName(seg))
            __builtin_trap();
        joined /= seg;
        path += "/" + seg;
    }
    if (path != place->path)
        __builtin_trap();
    const auto normal = joined.lexically_normal().string();
    if (normal.rfind(dir.string() + "/", 0) != 0)
        __builtin_trap();
    return 0;
}
