#include "core/output_file.h"

#include "core/paths.h"

namespace sp {

namespace {

const char* kindOf(std::filesystem::file_type t)
{
    using T = std::filesystem::file_type;
    switch (t) {
    case T::directory:
        return "a folder";
    case T::block:
    case T::character:
        return "a device";
    case T::fifo:
        return "a FIFO";
    case T::socket:
        return "a socket";
    default:
        return "not a regular file";
    }
}

} // namespace

Expected<void> checkOutputFile(const std::filesystem::path& file)
{
    std::error_code ec;
    const auto st = std::filesystem::status(file, ec);
    if (st.type() == std::filesystem::file_type::not_found ||
        st.type() == std::filesystem::file_type::regular)
        return {};
    if (ec && st.type() == std::filesystem::file_type::none)
        return Error::usage(paths::toUtf8(file) + ": cannot be checked (" + ec.message() +
                            "); choose another output file");
    return Error::usage(paths::toUtf8(file) + ": is " + kindOf(st.type()) +
                        "; the output is written only over a regular file or at a new path");
}

} // namespace sp
