#include "detectors/os_info.h"

#include <QString>
#include <QSysInfo>

namespace sp {

OsInfo currentOs()
{
    OsInfo os;
#ifdef _WIN32
    os.family = "windows";
#else
    os.family = "linux";
#endif
    os.version = QSysInfo::productVersion().toStdString();
    os.extra["kernel"] = QSysInfo::kernelVersion().toStdString();
    os.extra["arch"] = QSysInfo::currentCpuArchitecture().toStdString();
    return os;
}

} // namespace sp
