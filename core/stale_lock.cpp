#include "core/stale_lock.h"

#include "core/qt_text.h"

#include <QLockFile>

namespace fs = std::filesystem;

namespace sp {

bool removeHolderlessLock(const fs::path& lockFile, std::chrono::seconds minAge)
{
    std::error_code ec;
    if (!fs::is_regular_file(fs::symlink_status(lockFile, ec)))
        return false;
    qint64 pid = 0;
    QString host, app;
    if (QLockFile(qpath(lockFile)).getLockInfo(&pid, &host, &app) && pid > 0)
        return false;
    const auto written = fs::last_write_time(lockFile, ec);
    if (ec || fs::file_time_type::clock::now() - written < minAge)
        return false;
    return fs::remove(lockFile, ec);
}

} // namespace sp
