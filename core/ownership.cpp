#include "core/ownership.h"

#include "core/paths.h"
#include "core/qt_text.h"

#include <QSaveFile>

namespace fs = std::filesystem;

namespace sp::ownership {

const char* markerName()
{
    return ".stackpilot-owner";
}

Expected<void> mark(const fs::path& dir, const std::string& what)
{
    QSaveFile f(qpath((dir / markerName())));
    const std::string text = "Created by StackPilot: " + what +
                             ".\nStackPilot may delete this folder; it deletes no folder "
                             "without this file.\n";
    if (!f.open(QIODevice::WriteOnly) ||
        f.write(text.data(), static_cast<qint64>(text.size())) !=
            static_cast<qint64>(text.size()) ||
        !f.commit()) {
        const int err = errno; // of the write that failed: Qt keeps only its text
        return Error::runtime(paths::toUtf8(dir) +
                              ": cannot write the owner marker: " + f.errorString().toStdString())
            .withCause(f.error() == QFileDevice::PermissionsError ? Cause::Permission
                                                                  : causeFromErrno(err));
    }
    return {};
}

Expected<void> createOwned(const fs::path& dir, const std::string& what)
{
    std::error_code ec;
    if (!fs::create_directory(dir, ec) || ec)
        return Error::runtime(paths::toUtf8(dir) + ": cannot create: " +
                              (ec ? ec.message() : std::string("it already exists")))
            .withCause(causeFromError(ec));
    return mark(dir, what);
}

bool isOwned(const fs::path& dir)
{
    std::error_code ec;
    return fs::is_directory(fs::symlink_status(dir, ec)) &&
           fs::is_regular_file(fs::symlink_status(dir / markerName(), ec));
}

std::string notOursMessage(const fs::path& p, const std::string& advice)
{
    return paths::toUtf8(p) + " was not created by StackPilot (it has no owner marker), so it " +
           "is left as it is; " + advice;
}

Expected<void> removeOwned(const fs::path& dir)
{
    std::error_code ec;
    if (fs::symlink_status(dir, ec).type() == fs::file_type::not_found)
        return {};
    if (!isOwned(dir))
        return Error::runtime(
            notOursMessage(dir, "move it elsewhere or choose another folder for StackPilot"));
    fs::remove_all(dir, ec);
    if (ec)
        return Error::runtime(paths::toUtf8(dir) + ": cannot delete: " + ec.message());
    return {};
}

} // namespace sp::ownership
