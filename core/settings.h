#pragma once
// User settings kept in <config>/settings.json. A missing file means defaults; a
// file that is not valid JSON or has a wrong value is an error naming
// "file:line:col". Unknown keys are ignored so a newer StackPilot's file still loads.
//
// {
//   "proxy": "http://proxy.corp:3128",          // CURLOPT_PROXY; "" = environment only
//   "mirrors": {"github.com": ["https://mirror.example/github.com"]},
//   "mirrors_first": true,    // rewritten URLs tried before the original (else after)
//   "parallel_downloads": 3,  // 1..16
//   "max_extract_size": 68719476736  // bytes; bomb guard for artifacts without a bound
// }
//
// Mirror rules rewrite a URL's "scheme://host[:port]" into the prefix: with the rule
// above, https://github.com/a/b.zip becomes https://mirror.example/github.com/a/b.zip.
// The artifact's SHA-256 still decides whether a mirror's bytes are accepted.

#include "core/expected.h"

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace sp {

struct Settings
{
    std::optional<std::string> proxy;
    std::map<std::string, std::vector<std::string>> mirrors; // host -> URL prefixes
    bool mirrorsFirst = true;
    int parallelDownloads = 3;
    std::uint64_t maxExtractSize = std::uint64_t{64} << 30;

    // <config>/settings.json
    static std::filesystem::path defaultFile();
    static Expected<Settings> load(); // defaultFile(); missing = defaults
    static Expected<Settings> loadFile(const std::filesystem::path& file);
    // `name` is used in error messages ("name:line:col: ...").
    static Expected<Settings> parse(const std::string& text, const std::string& name);

    std::string toJson() const; // pretty-printed, round-trips through parse()
    Expected<void> save(const std::filesystem::path& file) const;

    // The mirror URLs for `url` (empty when no rule matches its host).
    std::vector<std::string> mirrorUrlsFor(const std::string& url) const;
    // The URLs to try, in order: rule mirrors and the original(s), deduplicated.
    std::vector<std::string> expandUrls(const std::vector<std::string>& urls) const;
};

} // namespace sp
