#include "app/gui/controllers/install_module.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QLibrary>
#include <QStringList>

namespace sp::gui {

namespace {

QString fileName()
{
#ifdef _WIN32
    return QStringLiteral("stackpilot-install.dll");
#else
    return QStringLiteral("libstackpilot-install.so");
#endif
}

QStringList candidates()
{
    QStringList out;
    if (const QString env = qEnvironmentVariable("STACKPILOT_INSTALL_MODULE"); !env.isEmpty())
        out << env;
    const QDir exe(QCoreApplication::applicationDirPath());
    out << exe.filePath(fileName())
        << exe.filePath(QStringLiteral("../lib/stackpilot/") + fileName());
    return out;
}

} // namespace

Expected<InstallModule> loadInstallModule()
{
    QStringList tried;
    for (const QString& path : candidates()) {
        if (!QFileInfo::exists(path)) {
            tried << path;
            continue;
        }
        // Never unloaded: the installer's threads and callbacks may outlive one job.
        QLibrary lib(path);
        lib.setLoadHints(QLibrary::PreventUnloadHint);
        if (!lib.load())
            return Error::runtime("cannot load the installer module " + path.toStdString() + ": " +
                                  lib.errorString().toStdString());
        if (auto fn = reinterpret_cast<InstallAllFn>(lib.resolve(kInstallAllSymbol)))
            return InstallModule{fn};
        return Error::runtime(path.toStdString() + " has no " + kInstallAllSymbol);
    }
    return Error::runtime(
        "the installer module " + fileName().toStdString() + " is missing (looked in " +
        tried.join(QStringLiteral(", ")).toStdString() + "); reinstall StackPilot");
}

} // namespace sp::gui
