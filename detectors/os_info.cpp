#include "detectors/os_info.h"

#include "core/os_family.h"

#include <QString>
#include <QSysInfo>

namespace sp {

OsInfo currentOs()
{
    OsInfo os;
    os.family = toString(hostOs());
    os.version = QSysInfo::productVersion().toStdString();
    os.extra["kernel"] = QSysInfo::kernelVersion().toStdString();
    os.extra["arch"] = QSysInfo::currentCpuArchitecture().toStdString();
    return os;
}

} // namespace sp
