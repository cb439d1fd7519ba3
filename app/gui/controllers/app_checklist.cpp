// Before an install, the window's checklist: the session's preview (ConfirmInstall) in
// words, in the order it matters: what is downloaded and the disk it needs, what needs
// administrator rights, what cannot be checked, then the stack's own advice.

#include "app/gui/controllers/app_controller.h"
#include "app/gui/models/plan_view.h"
#include "core/format.h"
#include "core/qt_text.h"

#include <QLocale>

namespace sp::gui {

namespace {

QString downloadLine(const session::ConfirmInstall& c, const Catalog& catalog)
{
    QStringList unsized;
    for (const std::string& id : c.unsized)
        unsized << runtimeLabel(catalog, id);
    const QString size = qs(format::bytes(c.downloadBytes));
    if (unsized.isEmpty())
        return AppController::tr("Download: about %1 (checked just now).").arg(size);
    if (c.downloadBytes == 0)
        return AppController::tr("Download: the size of %1 is not known before the download.")
            .arg(QLocale().createSeparatedList(unsized));
    return AppController::tr("Download: about %1 (checked just now), plus %2, whose size is "
                             "not known before the download.")
        .arg(size, QLocale().createSeparatedList(unsized));
}

} // namespace

QStringList checklistFor(const session::ConfirmInstall& c, const Catalog& catalog,
                         const QStringList& advice)
{
    QStringList items{downloadLine(c, catalog)};
    if (!c.model.empty()) // the model goes into the vault first, counted in the download
        items << AppController::tr("Model: %1, %2, checked against its published digest.")
                     .arg(modelLabel(catalog, c.model), qs(format::bytes(c.modelBytes)));
    if (c.diskNeeded > 0) {
        const QString need = qs(format::bytes(c.diskNeeded));
        items << (c.diskFree ? AppController::tr("Disk: about %1 while installing; %2 free.")
                                   .arg(need, qs(format::bytes(*c.diskFree)))
                             : AppController::tr("Disk: about %1 while installing.").arg(need));
        if (c.diskFree && *c.diskFree < c.diskNeeded)
            items << AppController::tr("The disk has less free space than the install needs: "
                                       "free some space first, or choose another folder in "
                                       "Settings.");
    }
    QStringList admin;
    for (const std::string& id : c.needsAdmin)
        admin << runtimeLabel(catalog, id);
    if (!admin.isEmpty())
        items << AppController::tr("Administrator rights: Windows will ask for them to install "
                                   "%1.")
                     .arg(admin.join(QStringLiteral(", ")));
    if (c.unpinned > 0)
        items << AppController::tr("%n download(s) have no published checksum: StackPilot "
                                   "records what arrives the first time and warns you if it "
                                   "ever changes.",
                                   nullptr, c.unpinned);
    items << advice;
    return items;
}

} // namespace sp::gui
