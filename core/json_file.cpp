#include "core/json_file.h"

#include "core/paths.h"

#include <fstream>

namespace fs = std::filesystem;

namespace sp {

namespace {

std::string describeType(fs::file_type t)
{
    switch (t) {
    case fs::file_type::directory:
        return "a directory";
    case fs::file_type::fifo:
        return "a FIFO (named pipe)";
    case fs::file_type::character:
        return "a character device";
    case fs::file_type::block:
        return "a block device";
    case fs::file_type::socket:
        return "a socket";
    default:
        return "not a regular file";
    }
}

std::string position(const std::string& text, std::size_t offset)
{
    int line = 1, col = 1;
    for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++line;
            col = 1;
        } else {
            ++col;
        }
    }
    return std::to_string(line) + ":" + std::to_string(col);
}

} // namespace

Expected<std::string> readRegularFile(const fs::path& file, std::uintmax_t maxBytes,
                                      const std::string& what)
{
    const std::string name = paths::toUtf8(file);
    std::error_code ec;
    const auto st = fs::status(file, ec); // stat(), never open(): a FIFO would block
    if (st.type() == fs::file_type::not_found)
        return Error::invalid(name + ": no such file");
    if (ec)
        return Error::invalid(name + ": cannot read: " + ec.message());
    if (st.type() != fs::file_type::regular)
        return Error::invalid(name + ": is " + describeType(st.type()) + ", not a " + what +
                              " file");
    const auto size = fs::file_size(file, ec);
    if (!ec && size > maxBytes)
        return Error::invalid(name + ": " + std::to_string(size) + " bytes is larger than a " +
                              what + " may be (" + std::to_string(maxBytes) + " bytes)");
    std::ifstream in(file, std::ios::binary);
    if (!in)
        return Error::invalid(name + ": cannot open");
    std::string text;
    text.resize(static_cast<std::size_t>(std::min<std::uintmax_t>(ec ? maxBytes : size, maxBytes)) +
                1);
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    text.resize(static_cast<std::size_t>(in.gcount()));
    if (text.size() > maxBytes) // it grew while we read it
        return Error::invalid(name + ": larger than a " + what + " may be (" +
                              std::to_string(maxBytes) + " bytes)");
    return text;
}

std::string checkJsonDepth(const std::string& text, const std::string& origin, int maxDepth)
{
    int depth = 0;
    bool inString = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            if (++depth > maxDepth)
                return origin + ":" + position(text, i) + ": nesting deeper than " +
                       std::to_string(maxDepth) + " levels";
        } else if ((c == ']' || c == '}') && depth > 0) {
            --depth;
        }
    }
    return {};
}

Expected<nlohmann::json> parseJsonText(const std::string& text, const std::string& origin,
                                       const JsonLimits& limits)
{
    if (text.size() > limits.maxBytes)
        return Error::invalid(origin + ": larger than " + std::to_string(limits.maxBytes) +
                              " bytes");
    if (auto e = checkJsonDepth(text, origin, limits.maxDepth); !e.empty())
        return Error::invalid(e);
    // The parser takes a NUL byte for the end of the input: JSON, a NUL and junk
    // would pass as the JSON alone.
    if (const auto nul = text.find('\0'); nul != std::string::npos)
        return Error::invalid(origin + ":" + position(text, nul) + ": invalid JSON: a NUL byte");
    try {
        return nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
        std::string why = e.what();
        if (auto p = why.find("syntax error"); p != std::string::npos)
            why = why.substr(p);
        return Error::invalid(origin + ":" + position(text, e.byte > 0 ? e.byte - 1 : 0) +
                              ": invalid JSON: " + why);
    } catch (const nlohmann::json::exception& e) {
        // A number too large for any type (found by fuzz_snapshot) is out_of_range,
        // not a parse error; it is still bad input, never a crash.
        return Error::invalid(origin + ": invalid JSON: " + e.what());
    }
}

Expected<nlohmann::json> readJsonFile(const fs::path& file, const JsonLimits& limits,
                                      const std::string& what)
{
    auto text = readRegularFile(file, limits.maxBytes, what);
    if (!text)
        return text.error();
    return parseJsonText(*text, paths::toUtf8(file), limits);
}

} // namespace sp

namespace sp {

Expected<void> writeFileAtomic(const std::filesystem::path& file, const std::string& text)
{
    std::error_code ec;
    std::filesystem::create_directories(file.parent_path(), ec);
    auto tmp = file;
    tmp += ".tmp";
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        out << text;
        if (!out.flush())
            return Error::runtime(paths::toUtf8(tmp) + ": cannot write");
    }
    std::filesystem::rename(tmp, file, ec);
    if (ec)
        return Error::runtime(paths::toUtf8(file) + ": cannot write: " + ec.message());
    return {};
}

} // namespace sp
