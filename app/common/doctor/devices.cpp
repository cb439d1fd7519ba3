// Checks on this Linux host: access to /dev/kfd (b) and git on PATH (i).

#include "app/common/doctor/doctor.h"

#include <algorithm>
#include <filesystem>

#ifndef _WIN32
#include <grp.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

namespace sp::doctor {

namespace {

bool hasAmdGpu(const HardwareSnapshot& s)
{
    return std::any_of(s.gpus.begin(), s.gpus.end(),
                       [](const GpuInfo& g) { return g.vendor == Vendor::Amd; });
}

#ifndef _WIN32
// Read and write permission from the mode bits, as the kernel decides it for this uid
// and these groups. Not access(): it answers for the process running the doctor
// (root in CI), not for the user the finding is about.
bool canReadWrite(const struct stat& st, unsigned uid, const std::vector<unsigned>& gids)
{
    if (uid == 0)
        return true;
    const auto rw = [&](mode_t r, mode_t w) { return (st.st_mode & r) && (st.st_mode & w); };
    if (st.st_uid == uid)
        return rw(S_IRUSR, S_IWUSR);
    if (std::find(gids.begin(), gids.end(), st.st_gid) != gids.end())
        return rw(S_IRGRP, S_IWGRP);
    return rw(S_IROTH, S_IWOTH);
}

std::string groupName(gid_t gid)
{
    const group* g = ::getgrgid(gid);
    return g ? g->gr_name : "render";
}
#endif

} // namespace

std::vector<Finding> checkKfdAccess(const DoctorInput& in)
{
#ifdef _WIN32
    (void)in;
    return {};
#else
    if (!in.thisMachine || !isLinux(in) || !hasAmdGpu(*in.snapshot))
        return {};
    const std::string kfd = hostPath(in, "/dev/kfd");
    struct stat st
    {};
    if (::stat(kfd.c_str(), &st) != 0)
        return {{"kfd-missing", "error", "/dev/kfd does not exist: ROCm cannot reach the AMD GPU",
                 "Load the amdgpu kernel driver with compute support (a distribution kernel "
                 "with CONFIG_HSA_AMD, or the amdgpu-dkms package from AMD's ROCm "
                 "repository), then reboot."}};
    if (canReadWrite(st, in.uid, in.gids))
        return {};
    // The device's own group: "render" on current distributions, "video" on older ones.
    const std::string group = groupName(st.st_gid);
    return {{"kfd-permissions", "error",
             "/dev/kfd is not readable and writable by you (group " + group +
                 "): ROCm will report no GPU",
             "Add yourself to the " + group + " group (sudo usermod -aG " + group +
                 " $USER), then log in again."}};
#endif
}

std::vector<Finding> checkGitOnPath(const DoctorInput& in)
{
    if (!in.thisMachine || !isLinux(in))
        return {};
    auto it = in.env.find("PATH");
    const std::string path = it == in.env.end() ? std::string{} : it->second;
    for (const auto& dir : splitList(path, ':')) {
        std::error_code ec;
        const auto git = std::filesystem::path(dir) / "git";
        if (std::filesystem::is_regular_file(git, ec))
            return {};
    }
    // SD.Next's launcher clones and updates its extensions with git; it stops at once
    // without it.
    return {{"git-missing", "warning", "git is not on PATH (SD.Next's launcher calls git)",
             "Install git with your package manager (sudo apt install git, sudo dnf install "
             "git or sudo pacman -S git)."}};
}

} // namespace sp::doctor
