#include "core/web_url.h"

#include <algorithm>
#include <cctype>

namespace sp {

namespace {

std::string lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

bool isLabel(const std::string& label)
{
    if (label.empty() || label.size() > 63 || label.front() == '-' || label.back() == '-')
        return false;
    return std::all_of(label.begin(), label.end(),
                       [](unsigned char c) { return std::isalnum(c) || c == '-' || c == '_'; });
}

bool isDnsName(const std::string& host)
{
    if (host.empty() || host.size() > 253)
        return false;
    std::size_t start = 0;
    while (true) {
        const auto dot = host.find('.', start);
        if (!isLabel(host.substr(start, dot == std::string::npos ? dot : dot - start)))
            return false;
        if (dot == std::string::npos)
            return true;
        start = dot + 1;
    }
}

bool isIpv6(const std::string& host)
{
    if (host.size() < 4 || host.front() != '[' || host.back() != ']')
        return false;
    const std::string inner = host.substr(1, host.size() - 2);
    return inner.find(':') != std::string::npos &&
           std::all_of(inner.begin(), inner.end(),
                       [](unsigned char c) { return std::isxdigit(c) || c == ':' || c == '.'; });
}

std::optional<int> portOf(const std::string& digits)
{
    if (digits.empty() || digits.size() > 5 ||
        !std::all_of(digits.begin(), digits.end(), [](unsigned char c) { return std::isdigit(c); }))
        return std::nullopt;
    const int port = std::stoi(digits);
    if (port < 1 || port > 65535)
        return std::nullopt;
    return port;
}

// "host[:port]" (brackets kept for IPv6) into the URL's host and port.
Expected<void> splitHostPort(const std::string& hostPort, const std::string& url, WebUrl& out)
{
    const auto bracket = hostPort.rfind(']');
    const auto colon = hostPort.rfind(':');
    const bool hasPort =
        colon != std::string::npos && (bracket == std::string::npos || colon > bracket);
    out.host = lower(hostPort.substr(0, hasPort ? colon : std::string::npos));
    if (hasPort) {
        out.port = portOf(hostPort.substr(colon + 1));
        if (!out.port)
            return Error::invalid(url + ": the port is not a number from 1 to 65535");
    }
    if (!isRealHost(out.host))
        return Error::invalid(url + ": '" + out.host + "' is not a host name or an IP address");
    return {};
}

} // namespace

std::string WebUrl::authority() const
{
    return port ? host + ":" + std::to_string(*port) : host;
}

bool isRealHost(const std::string& host)
{
    return isIpv6(host) || isDnsName(host);
}

Expected<WebUrl> parseWebUrl(const std::string& url)
{
    for (unsigned char c : url)
        if (c <= 0x20 || c == 0x7f)
            return Error::invalid(url + ": a space or control character in the URL");
    const auto scheme = url.find("://");
    if (scheme == std::string::npos || scheme == 0)
        return Error::invalid(url + ": not a URL (no scheme://)");
    WebUrl out;
    out.scheme = lower(url.substr(0, scheme));
    const auto authStart = scheme + 3;
    const auto authEnd = std::min(url.find_first_of("/?#", authStart), url.size());
    std::string authority = url.substr(authStart, authEnd - authStart);
    if (const auto at = authority.rfind('@'); at != std::string::npos) {
        out.userinfo = authority.substr(0, at);
        authority.erase(0, at + 1);
    }
    if (auto hp = splitHostPort(authority, url, out); !hp)
        return hp.error();
    const auto pathEnd = std::min(url.find_first_of("?#", authEnd), url.size());
    out.path = url.substr(authEnd, pathEnd - authEnd);
    return out;
}

} // namespace sp
