#pragma once
// A web address taken apart and checked: the scheme, a host that is a real host name
// or IP address, an optional port, and the rest. The catalog's artifact URLs and
// everything derived from them (mirror folders, mirror rules) go through here, so a
// host such as "..", "." or "" never becomes a file name (issue 35, item 1).

#include "core/expected.h"

#include <optional>
#include <string>

namespace sp {

struct WebUrl
{
    std::string scheme;            // lower case: "http", "https", "git"
    std::string host;              // lower case: "github.com", "127.0.0.1" or "[::1]"
    std::optional<int> port;       // 1..65535 when the URL names one
    std::string path;              // as written, from its '/' up to '?' or '#'; may be empty
    std::string userinfo;          // "user" of "user@host", as written (rarely used)
    std::string authority() const; // host[:port], what a mirror rule is keyed by
};

// The parts of `url`, or why it is not an address with a real host: a DNS name of
// letters, digits, '-' and '_' in dot-separated labels (none empty, none starting or
// ending with '-'), an IPv4 address, or an IPv6 address in brackets.
Expected<WebUrl> parseWebUrl(const std::string& url);

// Whether `host` (lower case, brackets kept for IPv6) is such a host.
bool isRealHost(const std::string& host);

} // namespace sp
