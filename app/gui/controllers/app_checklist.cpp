// Before an install, the window's checklist (MainWindow::onPrimary): the plan's items,
// with the download size the preflight learns from the network just now (the same
// check `run` and the install make; nothing is written). It runs off the GUI thread.

#include "app/common/session/session.h"
#include "app/gui/controllers/app_controller.h"
#include "app/gui/controllers/background.h"
#include "core/format.h"
#include "core/paths.h"
#include "core/qt_text.h"

#include <QLocale>

namespace sp::gui {

namespace {

// The checklist's download line from what the preflight found: the sizes learned, and
// by name the parts nobody gave a size for (plan_view.h, downloadSentence).
QString downloadLine(const Preflight& p, const QString& fallback, const Catalog* catalog,
                     QStringList unsized)
{
    if (p.offline || p.artifacts.empty())
        return fallback; // nothing learned: the catalog's sizes stand
    if (const PreflightArtifact* gone = p.firstMissing())
        return AppController::tr("A download is not available right now: %1. The install "
                                 "will stop before it writes anything.")
            .arg(qs(gone->name));
    for (const std::string& id : p.unsizedRuntimes())
        unsized << (catalog ? runtimeLabel(*catalog, id) : qs(id));
    const QString size = qs(format::bytes(p.downloadBytes));
    if (unsized.isEmpty())
        return AppController::tr("Download: about %1 (checked just now).").arg(size);
    return AppController::tr("Download: about %1 (checked just now), plus %2, whose size is "
                             "not known before the download.")
        .arg(size, QLocale().createSeparatedList(unsized));
}

} // namespace

void AppController::checkDownloads(std::function<void(QStringList)> done)
{
    const PlanView* v = currentPlan();
    if (!v || !v->plan || v->toInstall.isEmpty() || !catalog()) {
        done(v ? v->checklist : QStringList());
        return;
    }
    std::vector<Runtime> runtimes;
    QStringList picked; // packages pip picks at install: no preflight knows their size
    for (const QString& id : v->toInstall)
        if (const Runtime* rt = catalog()->runtime(toStd(id))) {
            runtimes.push_back(*rt);
            if (rt->artifacts.empty() && !rt->system)
                picked << runtimeLabel(*catalog(), rt->id);
        }
    InstallOptions options;
    options.prefixRoot = paths::dataDir() / "runtimes";
    const session::Context context = session::contextFor(catalog(), m_gpus.snapshot());
    auto work = [context, catalog = m_catalog, runtimes = std::move(runtimes), options,
                 profile = toStd(v->profile)] {
        std::vector<const Runtime*> list;
        for (const Runtime& r : runtimes)
            list.push_back(&r);
        session::Session s(context, {});
        return s.preflight(list, options, profile);
    };
    emit stepChanged(tr("Checking the downloads…"), false);
    runInBackground(this, std::move(work),
                    [this, done = std::move(done), checklist = v->checklist, picked](Preflight p) {
                        QStringList items = checklist;
                        if (!items.isEmpty())
                            items.front() = downloadLine(p, items.front(), catalog(), picked);
                        emit stepChanged(QString(), false);
                        done(items);
                    });
}

} // namespace sp::gui
