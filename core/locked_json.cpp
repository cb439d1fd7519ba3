#include "core/locked_json.h"

#include "core/atomic_file.h"
#include "core/paths.h"
#include "core/qt_text.h"

#include <QLockFile>
#include <system_error>

namespace sp {

Expected<nlohmann::json> readJsonDocument(const std::filesystem::path& file,
                                          const JsonLimits& limits, const std::string& what)
{
    std::error_code ec;
    if (!std::filesystem::exists(file, ec))
        return nlohmann::json::object();
    auto j = readJsonFile(file, limits, what);
    if (!j)
        return j.error();
    if (!j->is_object())
        return Error::invalid(paths::toUtf8(file) + ": " + what + " must be a JSON object");
    return j;
}

Expected<std::unique_ptr<QLockFile>> lockDocument(const std::filesystem::path& file)
{
    std::error_code ec;
    std::filesystem::create_directories(file.parent_path(), ec);
    auto lockPath = file;
    lockPath += ".lock";
    auto lock = std::make_unique<QLockFile>(qpath(lockPath));
    lock->setStaleLockTime(30000);
    if (lock->tryLock(10000))
        return lock;
    qint64 pid = 0;
    QString host, app;
    lock->getLockInfo(&pid, &host, &app);
    return Error::runtime(paths::toUtf8(file) + " is locked by process " + std::to_string(pid) +
                          " (" + toStd(app) + "); try again");
}

Expected<void> updateJsonDocument(const std::filesystem::path& file, const JsonLimits& limits,
                                  const std::string& what, const JsonChange& change)
{
    auto lock = lockDocument(file);
    if (!lock)
        return lock.error();
    auto doc = readJsonDocument(file, limits, what);
    if (!doc)
        return doc.error();
    const nlohmann::json before = *doc;
    if (auto changed = change(*doc); !changed)
        return changed;
    if (*doc == before)
        return {};
    return replaceFileAtomically(file, doc->dump(1) + "\n", what);
}

} // namespace sp
