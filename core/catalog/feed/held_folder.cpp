#include "core/catalog/feed/held_folder.h"

#include "core/json_file.h"
#include "core/ownership.h"
#include "core/paths.h"
#include "core/qt_text.h"

#include <QCoreApplication>
#include <QDir>
#include <QUuid>
#include <chrono>
#include <fstream>
#include <sstream>

#ifndef _WIN32
#include <cerrno>
#include <csignal>
#include <sys/stat.h>
#include <unistd.h>
#endif

namespace fs = std::filesystem;

namespace sp::feed {

namespace {

// The start time of process `pid` in clock ticks since boot (/proc/PID/stat, field 22),
// or "" where it cannot be read (not Linux, or no such process).
std::string startTimeOf(long long pid)
{
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto close = stat.rfind(')'); // the command name may hold spaces and ')'
    if (close == std::string::npos)
        return {};
    std::istringstream fields(stat.substr(close + 1));
    std::string field;
    for (int i = 3; i <= 22 && fields >> field; ++i)
        if (i == 22)
            return field;
    return {};
}

long long ownPid()
{
#ifdef _WIN32
    return static_cast<long long>(QCoreApplication::applicationPid());
#else
    return static_cast<long long>(getpid());
#endif
}

bool running(long long pid, const std::string& start)
{
#ifdef _WIN32
    (void)pid;
    (void)start;
    return true; // not checked on Windows: a held folder there is kept
#else
    if (pid <= 0 || (::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH))
        return false;
    // Same pid, another process: the holder is gone and its pid was reused.
    const std::string now = startTimeOf(pid);
    return start.empty() || now.empty() || now == start;
#endif
}

bool olderThan(const fs::path& p, int seconds)
{
    std::error_code ec;
    const auto t = fs::last_write_time(p, ec);
    return !ec && fs::file_time_type::clock::now() - t > std::chrono::seconds(seconds);
}

bool ownedByThisUser(const fs::path& dir)
{
#ifdef _WIN32
    (void)dir;
    return true; // the temporary folder is per user on Windows
#else
    struct stat st
    {};
    return ::lstat(dir.c_str(), &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == ::getuid();
#endif
}

} // namespace

const char* holderName()
{
    return ".stackpilot-holder";
}

Expected<void> createHeldFolder(const fs::path& dir, const std::string& what)
{
    if (auto r = ownership::createOwned(dir, what); !r)
        return r;
    const long long pid = ownPid();
    return writeFileAtomic(dir / holderName(), std::to_string(pid) + " " + startTimeOf(pid) + "\n");
}

Expected<fs::path> createHeldFolderIn(const fs::path& parent, const std::string& prefix,
                                      const std::string& what)
{
    std::error_code ec;
    fs::create_directories(parent, ec);
    if (ec)
        return Error::runtime(paths::toUtf8(parent) + ": " + ec.message());
    const fs::path dir =
        parent / (prefix + std::to_string(ownPid()) + "-" +
                  QUuid::createUuid().toString(QUuid::Id128).left(12).toStdString());
    if (auto r = createHeldFolder(dir, what); !r)
        return r.error();
    return dir;
}

bool holderGone(const fs::path& dir)
{
    auto text = readRegularFile(dir / holderName(), 256, "holder");
    long long pid = 0;
    std::string start;
    if (text) {
        std::istringstream in(*text);
        in >> pid >> start;
    }
    if (!text || pid <= 0) // no holder information: a crash right after the folder was made
        return olderThan(dir, kHolderlessGraceSeconds);
    return !running(pid, start);
}

int removeAbandoned(const fs::path& parent, const std::string& prefix)
{
    int removed = 0;
    std::error_code ec;
    for (fs::directory_iterator it(parent, ec), end; !ec && it != end; it.increment(ec)) {
        const fs::path dir = it->path();
        if (paths::toUtf8(dir.filename()).rfind(prefix, 0) != 0)
            continue;
        if (!ownedByThisUser(dir) || !ownership::isOwned(dir) || !holderGone(dir))
            continue;
        if (ownership::removeOwned(dir))
            ++removed;
    }
    return removed;
}

int removeAbandonedFeedTemps()
{
    return removeAbandoned(toPath(QDir::tempPath()), kFeedTempPrefix);
}

} // namespace sp::feed
