#include "http_message.h"

#include "text_util.h"

#include <algorithm>
#include <cctype>

namespace sp::test::http {

namespace {

std::string lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

std::string trim(const std::string& s)
{
    const auto b = s.find_first_not_of(" \t");
    const auto e = s.find_last_not_of(" \t\r");
    return b == std::string::npos ? std::string{} : s.substr(b, e - b + 1);
}

} // namespace

std::optional<RequestHead> parseRequestHead(const std::string& head)
{
    const auto lines = split(head, '\n');
    const auto requestLine = split(trim(lines.empty() ? std::string{} : lines[0]), ' ');
    if (requestLine.size() != 3)
        return std::nullopt;
    RequestHead r;
    r.method = requestLine[0];
    r.target = requestLine[1];
    for (std::size_t i = 1; i < lines.size(); ++i) {
        const auto colon = lines[i].find(':');
        if (colon != std::string::npos)
            r.headers[lower(trim(lines[i].substr(0, colon)))] = trim(lines[i].substr(colon + 1));
    }
    r.keepAlive = requestLine[2] == "HTTP/1.1";
    if (auto it = r.headers.find("connection"); it != r.headers.end())
        r.keepAlive = lower(it->second) != "close";
    return r;
}

ByteRange parseRange(const std::string& header, std::uint64_t size)
{
    ByteRange whole{ByteRange::Kind::Whole, 0, size};
    if (header.rfind("bytes=", 0) != 0 || header.find(',') != std::string::npos)
        return whole;
    const std::string spec = header.substr(6);
    const auto dash = spec.find('-');
    if (dash == std::string::npos)
        return whole;
    const auto a = toNumber(spec.substr(0, dash));
    const auto b = toNumber(spec.substr(dash + 1));
    if (!a && !b)
        return whole;
    std::uint64_t first = 0, last = size ? size - 1 : 0;
    if (a) {
        first = static_cast<std::uint64_t>(*a);
        if (b)
            last = std::min<std::uint64_t>(static_cast<std::uint64_t>(*b), last);
    } else {
        first = size - std::min<std::uint64_t>(static_cast<std::uint64_t>(*b), size);
    }
    if (first >= size || (a && b && static_cast<std::uint64_t>(*b) < first))
        return {ByteRange::Kind::Unsatisfiable, 0, 0};
    return {ByteRange::Kind::Partial, first, last - first + 1};
}

const char* reason(int status)
{
    switch (status) {
    case 200:
        return "OK";
    case 206:
        return "Partial Content";
    case 301:
        return "Moved Permanently";
    case 302:
        return "Found";
    case 304:
        return "Not Modified";
    case 404:
        return "Not Found";
    case 416:
        return "Range Not Satisfiable";
    case 500:
        return "Internal Server Error";
    case 503:
        return "Service Unavailable";
    default:
        return "Status";
    }
}

std::string emptyResponse(int status, const std::string& connection,
                          const std::string& extraHeaders)
{
    return "HTTP/1.1 " + std::to_string(status) + " " + reason(status) + "\r\n" + extraHeaders +
           "Content-Length: 0\r\nConnection: " + connection + "\r\n\r\n";
}

} // namespace sp::test::http
