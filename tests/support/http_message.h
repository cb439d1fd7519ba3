#pragma once
// The HTTP/1.1 text the test server reads and writes, apart from its sockets: the
// request head, one byte range, and the empty responses (status, redirect, 304, 416).

#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace sp::test::http {

struct RequestHead
{
    std::string method;
    std::string target;
    std::map<std::string, std::string> headers; // names in lower case
    bool keepAlive = true;
};

// `head` is everything before the blank line; nullopt for a malformed request line.
std::optional<RequestHead> parseRequestHead(const std::string& head);

struct ByteRange
{
    enum class Kind
    {
        Whole,
        Partial,
        Unsatisfiable
    };
    Kind kind = Kind::Whole;
    std::uint64_t start = 0;
    std::uint64_t length = 0;
};

// One range "bytes=A-", "bytes=A-B" or "bytes=-N" of a body of `size` bytes; anything
// else (several ranges, another unit) is ignored and the whole body is sent.
ByteRange parseRange(const std::string& header, std::uint64_t size);

const char* reason(int status);
// A response with no body: the status line, `extraHeaders` (each ending in "\r\n"),
// Content-Length: 0 and the Connection header.
std::string emptyResponse(int status, const std::string& connection,
                          const std::string& extraHeaders = {});

} // namespace sp::test::http
