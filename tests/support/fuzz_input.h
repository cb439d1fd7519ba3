#pragma once
// The glue every libFuzzer target under tests/fuzz would otherwise repeat: the input's
// bytes as text, a leading byte that picks a variant, the input cut once at a separator
// (a file and its signature, a pattern and a text), and the input fed in chunks, in
// pieces or as a log's lines. Header-only: the fuzz preset builds no test libraries.

#include "core/text.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace sp::fuzz {

// The input's bytes, NULs and invalid UTF-8 included.
inline std::string_view bytesOf(const std::uint8_t* data, std::size_t size)
{
    return {reinterpret_cast<const char*>(data), size};
}

// The same as a string, for the readers that take one.
inline std::string textOf(const std::uint8_t* data, std::size_t size)
{
    return std::string(bytesOf(data, size));
}

// The first byte, or 0 for an empty input: it picks a target's variant (a code page, a
// parser's mode, a chunk size) so that one corpus covers all of them.
inline unsigned firstByte(const std::uint8_t* data, std::size_t size)
{
    return size > 0 ? data[0] : 0u;
}

// `text` cut at the first `sep`: what comes before it, and everything after it (further
// separators included), or no rest when there is no `sep`.
struct Cut
{
    std::string_view head;
    std::optional<std::string_view> rest;
};

inline Cut cutAt(std::string_view text, char sep)
{
    const std::size_t at = text.find(sep);
    if (at == std::string_view::npos)
        return {text, std::nullopt};
    return {text.substr(0, at), text.substr(at + 1)};
}

// `text` in pieces of `chunk` bytes (the last one shorter), as a pipe delivers it.
template <typename Fn> void forEachChunk(std::string_view text, std::size_t chunk, Fn&& fn)
{
    for (std::size_t i = 0; i < text.size(); i += chunk)
        fn(text.substr(i, chunk));
}

// Every piece between separators, the empty ones too: n separators give n + 1 pieces
// (an empty text is one empty piece).
template <typename Fn> void forEachPiece(std::string_view text, char sep, Fn&& fn)
{
    for (Cut cut = cutAt(text, sep);; cut = cutAt(*cut.rest, sep)) {
        fn(cut.head);
        if (!cut.rest)
            return;
    }
}

// The lines of a log: a newline ends a line, so a final newline starts no empty line and
// an empty text has none.
template <typename Fn> void forEachLogLine(std::string_view text, Fn&& fn)
{
    while (!text.empty()) {
        const Cut cut = cutAt(text, '\n');
        fn(cut.head);
        text = cut.rest.value_or(std::string_view());
    }
}

// Whether `s` is valid UTF-8 by the product's own reading of it (core/text.h).
inline bool validUtf8(std::string_view s)
{
    for (std::size_t i = 0; i < s.size();) {
        const std::size_t len = sp::utf8SequenceLength(s, i);
        if (len == 0)
            return false;
        i += len;
    }
    return true;
}

} // namespace sp::fuzz
