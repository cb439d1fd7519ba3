#include "core/paths.h"

#include "core/qt_text.h"

#include <QCoreApplication>
#include <QDir>
#include <QStandardPaths>
#include <cstdlib>

#ifndef STACKPILOT_BUILD_DATA_DIR
#define STACKPILOT_BUILD_DATA_DIR ""
#endif

namespace sp::paths {

namespace {

std::filesystem::path envPath(const char* name)
{
    const QString v = qEnvironmentVariable(name);
    return v.isEmpty() ? std::filesystem::path{} : toPath(v);
}

std::filesystem::path portableOr(const char* sub, QStandardPaths::StandardLocation loc,
                                 const char* suffix = nullptr)
{
    if (auto home = envPath("STACKPILOT_HOME"); !home.empty())
        return home / sub;
    auto base = toPath(QStandardPaths::writableLocation(loc));
    if (base.empty())
        base = toPath(QDir::homePath()) / ".stackpilot";
    if (base.filename() != "stackpilot")
        base /= "stackpilot";
    return suffix ? base / suffix : base;
}

std::filesystem::path& userData()
{
    static std::filesystem::path p;
    return p;
}

std::filesystem::path& userCache()
{
    static std::filesystem::path p;
    return p;
}

std::filesystem::path defaultDataDir()
{
    return portableOr("data", QStandardPaths::GenericDataLocation);
}

} // namespace

void setUserFolders(const std::filesystem::path& data, const std::filesystem::path& cache)
{
    userData() = data;
    userCache() = cache;
}

std::filesystem::path configDir()
{
    return portableOr("config", QStandardPaths::GenericConfigLocation);
}

std::filesystem::path dataDir()
{
    return userData().empty() ? defaultDataDir() : userData();
}

std::filesystem::path cacheDir()
{
    return userCache().empty() ? portableOr("cache", QStandardPaths::GenericCacheLocation)
                               : userCache();
}

std::filesystem::path logDir()
{
    if (auto home = envPath("STACKPILOT_HOME"); !home.empty())
        return home / "logs";
    return defaultDataDir() / "logs";
}

std::filesystem::path shippedDataDir()
{
    if (auto d = envPath("STACKPILOT_DATA_DIR"); !d.empty())
        return d;
    std::error_code ec;
    if (QCoreApplication::instance()) {
        const auto exeDir = toPath(QCoreApplication::applicationDirPath());
        for (auto candidate :
             {exeDir / ".." / "share" / "stackpilot", exeDir / "share" / "stackpilot"}) {
            if (std::filesystem::exists(candidate / "catalog", ec) ||
                std::filesystem::exists(candidate / "gpu", ec))
                return std::filesystem::weakly_canonical(candidate, ec);
        }
    }
    return std::filesystem::path(STACKPILOT_BUILD_DATA_DIR);
}

std::filesystem::path fromUtf8(const std::string& s)
{
    return toPath(qs(s));
}

std::string toUtf8(const std::filesystem::path& p)
{
    return toStd(qpath(p));
}

} // namespace sp::paths
