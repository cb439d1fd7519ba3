#pragma once
// Lists every path under a folder (with its type and size), so a test can prove
// that a refused archive wrote nothing outside the install folder.

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <vector>

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

namespace sp::test {

// Every path under a folder with its full contents (files), link target (symlinks) or
// "dir": canaries that must survive a verb byte for byte.
inline std::map<std::string, std::string> treeContents(const std::filesystem::path& dir)
{
    namespace fs = std::filesystem;
    std::map<std::string, std::string> out;
    std::error_code ec;
    for (fs::recursive_directory_iterator it(dir, fs::directory_options::none, ec), end;
         !ec && it != end; it.increment(ec)) {
        const std::string rel = fs::relative(it->path(), dir, ec).generic_string();
        const auto st = fs::symlink_status(it->path(), ec);
        if (st.type() == fs::file_type::regular) {
            std::ifstream in(it->path(), std::ios::binary);
            out[rel] = std::string(std::istreambuf_iterator<char>(in), {});
        } else if (st.type() == fs::file_type::symlink) {
            out[rel] = "symlink:" + fs::read_symlink(it->path(), ec).generic_string();
        } else {
            out[rel] = "type:" + std::to_string(static_cast<int>(st.type()));
        }
    }
    return out;
}

// The canaries of `before` that are missing or changed in `after` (new paths are fine:
// StackPilot may add its own, such as the .locks folder).
inline std::vector<std::string> changedCanaries(const std::map<std::string, std::string>& before,
                                                const std::map<std::string, std::string>& after)
{
    std::vector<std::string> out;
    for (const auto& [path, content] : before) {
        auto it = after.find(path);
        if (it == after.end())
            out.push_back(path + " (deleted)");
        else if (it->second != content)
            out.push_back(path + " (changed)");
    }
    return out;
}

} // namespace sp::test
