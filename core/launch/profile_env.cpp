#include "core/launch/profile_env.h"

#include "core/launch/step_receipt.h"
#include "core/ownership.h"
#include "core/paths.h"

namespace fs = std::filesystem;

namespace sp {

fs::path venvDir(const fs::path& dataDir, const std::string& profile)
{
    return dataDir / "venvs" / paths::fromUtf8(profile);
}

Expected<void> claimVenv(const fs::path& venv, const std::string& profile)
{
    std::error_code ec;
    if (fs::symlink_status(venv, ec).type() == fs::file_type::not_found) {
        fs::create_directories(venv.parent_path(), ec);
        if (ec)
            return Error::runtime(paths::toUtf8(venv.parent_path()) +
                                  ": cannot create: " + ec.message());
        return ownership::createOwned(venv, "virtual environment of profile " + profile);
    }
    if (ownership::isOwned(venv))
        return {};
    return Error::runtime(ownership::notOursMessage(
        venv, "move it elsewhere so that StackPilot can create the profile's own venv there"));
}

Expected<ProfileReset> resetProfileState(const fs::path& dataDir, const std::string& profile)
{
    const fs::path venv = venvDir(dataDir, profile);
    std::error_code ec;
    const bool exists = fs::symlink_status(venv, ec).type() != fs::file_type::not_found;
    // Refuse before removing anything, so a refusal leaves the receipt too.
    if (exists && !ownership::isOwned(venv))
        return Error::runtime(
            ownership::notOursMessage(venv, "move it elsewhere, then run this again"));
    ProfileReset out;
    if (exists) {
        if (auto r = ownership::removeOwned(venv); !r)
            return r.error();
        out.venvRemoved = true;
    }
    out.receiptRemoved = clearStepReceipt(stepReceiptFile(dataDir, profile));
    return out;
}

} // namespace sp
