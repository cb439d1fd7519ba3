#include "app/common/diag/cause_words.h"

#include <QCoreApplication>

namespace sp {

QString causeWords(Cause cause)
{
    switch (cause) {
    case Cause::NotFound:
        return QCoreApplication::translate(
            "Cause", "The file to download is no longer at this address. Another stack may "
                     "still install, or a catalog update may fix the address.");
    case Cause::Network:
        return QCoreApplication::translate(
            "Cause", "StackPilot could not reach the download server, or the transfer broke "
                     "off. Check the internet connection; behind a company network, set its "
                     "proxy in StackPilot's settings. Then try again.");
    case Cause::Tls:
        return QCoreApplication::translate(
            "Cause", "StackPilot could not verify that the download server is the real one "
                     "(its certificate was refused), so nothing was taken from it. Check this "
                     "computer's date and time; a company network that inspects secure "
                     "connections needs its certificate installed on this computer.");
    case Cause::Checksum:
        return QCoreApplication::translate(
            "Cause", "The download arrived, but the file is not the one expected: its "
                     "checksum differs (damaged on the way, or replaced on the server). Nothing "
                     "of it was kept. Try again; if it happens again, another stack or a "
                     "catalog update may help.");
    case Cause::Size:
        return QCoreApplication::translate(
            "Cause", "The download arrived, but the file is not the one expected: its size "
                     "differs from the catalog's. Nothing of it was kept. Try again; if it "
                     "happens again, another stack or a catalog update may help.");
    case Cause::DiskFull:
        return QCoreApplication::translate(
            "Cause", "The disk is full. Free some space, or choose another install folder in "
                     "StackPilot's settings, then try again.");
    case Cause::Permission:
        return QCoreApplication::translate(
            "Cause", "The system refused to let StackPilot write a file. Choose an install "
                     "folder of your own in StackPilot's settings, or start StackPilot as "
                     "administrator once, then try again.");
    case Cause::Cancelled:
        return QCoreApplication::translate("Cause",
                                           "Cancelled as asked; nothing half-installed was kept.");
    case Cause::Internal:
        return QCoreApplication::translate(
            "Cause", "StackPilot stopped on an internal error; nothing more was done. Try "
                     "again; if it happens again, export diagnostics and report it.");
    case Cause::Unknown:
        break;
    }
    return QCoreApplication::translate(
        "Cause", "StackPilot stopped on an error it cannot name more precisely; the details "
                 "say what happened. Try again, or export diagnostics to report it.");
}

} // namespace sp
