// Runs every check and fills a DoctorInput from this host.

#include "app/common/doctor/doctor.h"

#include <filesystem>
#include <system_error>

#ifndef _WIN32
#include <unistd.h>
#endif

namespace sp::doctor {

namespace {

// Free space of the folder, or of its nearest existing parent: the data folder may
// not exist yet before the first install.
std::optional<std::uint64_t> hostFreeSpace(const std::filesystem::path& folder)
{
    std::filesystem::path p = folder;
    std::error_code ec;
    while (!p.empty() && !std::filesystem::exists(p, ec)) {
        if (p == p.parent_path())
            break;
        p = p.parent_path();
    }
    const auto info = std::filesystem::space(p, ec);
    if (ec)
        return std::nullopt;
    return info.available;
}

} // namespace

bool isLinux(const DoctorInput& in)
{
    return in.snapshot && in.snapshot->os.family == "linux";
}

bool isWindows(const DoctorInput& in)
{
    return in.snapshot && in.snapshot->os.family == "windows";
}

char pathListSeparator(const DoctorInput& in)
{
    return isWindows(in) ? ';' : ':';
}

std::vector<std::string> splitList(const std::string& text, char sep)
{
    std::vector<std::string> parts;
    std::string current;
    for (char c : text) {
        if (c == sep) {
            if (!current.empty())
                parts.push_back(current);
            current.clear();
        } else {
            current += c;
        }
    }
    if (!current.empty())
        parts.push_back(current);
    return parts;
}

std::string hostPath(const DoctorInput& in, const std::string& absolute)
{
    std::string root = in.fsRoot.empty() ? "/" : in.fsRoot;
    if (root.back() == '/')
        root.pop_back();
    return root + absolute;
}

std::vector<Finding> runAllChecks(const DoctorInput& in)
{
    using Check = std::vector<Finding> (*)(const DoctorInput&);
    const Check checks[] = {checkInstallPath,       checkKfdAccess,         checkStackVersions,
                            checkStaleGpuVariables, checkDriverKnownIssues, checkFreeDisk,
                            checkNetworkHome,       checkRuntimesVerify,    checkPortFree,
                            checkGitOnPath};
    std::vector<Finding> all;
    for (Check check : checks) {
        auto found = check(in);
        all.insert(all.end(), found.begin(), found.end());
    }
    return all;
}

void fillFromHost(DoctorInput& in)
{
#ifndef _WIN32
    in.uid = ::getuid();
    in.gids = {::getgid()};
    const int n = ::getgroups(0, nullptr);
    if (n > 0) {
        std::vector<gid_t> groups(static_cast<std::size_t>(n));
        const int got = ::getgroups(n, groups.data());
        for (int i = 0; i < got; ++i)
            in.gids.push_back(groups[static_cast<std::size_t>(i)]);
    }
#endif
    in.freeSpace = hostFreeSpace;
    in.portCheck = checkPort;
}

nlohmann::json toJson(const std::vector<Finding>& findings)
{
    nlohmann::json list = nlohmann::json::array();
    for (const auto& f : findings)
        list.push_back({{"id", f.id}, {"severity", f.severity}, {"text", f.text}, {"fix", f.fix}});
    return {{"findings", list}};
}

} // namespace sp::doctor
