#pragma once
// Lists every path under a folder (with its type and size), so a test can prove
// that a refused archive wrote nothing outside the install folder.

#include <filesystem>
#include <set>
#include <string>

namespace sp::test {

inline std::set<std::string> treeSnapshot(const std::filesystem::path& dir,
                                          const std::string& skipPrefix = {})
{
    namespace fs = std::filesystem;
    std::set<std::string> out;
    std::error_code ec;
    for (fs::recursive_directory_iterator it(dir, fs::directory_options::none, ec), end;
         !ec && it != end; it.increment(ec)) {
        const std::string rel = fs::relative(it->path(), dir, ec).generic_string();
        if (!skipPrefix.empty() && rel.rfind(skipPrefix, 0) == 0)
            continue;
        const auto st = fs::symlink_status(it->path(), ec);
        std::string line = rel + " type=" + std::to_string(static_cast<int>(st.type()));
        if (st.type() == fs::file_type::regular)
            line += " size=" + std::to_string(fs::file_size(it->path(), ec));
        out.insert(line);
    }
    return out;
}

} // namespace sp::test
