#pragma once
// The window's one background helper (besides the session's worker, which owns the
// workflow): work the GUI thread must never wait on (files, the catalog, plans that look
// at the disk) runs on Qt's global pool when it only reads, on orderedPool() when it
// writes (so writes keep their order).
// The result comes back to the GUI thread as a queued call, checked there against
// `context`: when the context is gone, it is dropped.

#include <QCoreApplication>
#include <QMetaObject>
#include <QObject>
#include <QPointer>
#include <QThreadPool>
#include <memory>
#include <utility>

namespace sp::gui {

// The one thread work that writes runs on, in the order it was given (StackPilot's own
// log, bundles).
inline QThreadPool* orderedPool()
{
    static QThreadPool* const pool = [] {
        auto* p = new QThreadPool(QCoreApplication::instance());
        p->setMaxThreadCount(1);
        return p;
    }();
    return pool;
}

template <class Work, class Done>
void runInBackground(QObject* context, Work work, Done done,
                     QThreadPool* pool = QThreadPool::globalInstance())
{
    QPointer<QObject> guard(context);
    pool->start([guard, work = std::move(work), done = std::move(done)]() mutable {
        auto result = std::make_shared<decltype(work())>(work());
        // The application object lives as long as the event loop; the guard is read
        // on the GUI thread, where the context would be destroyed.
        QMetaObject::invokeMethod(
            QCoreApplication::instance(),
            [guard, result, done = std::move(done)]() mutable {
                if (guard)
                    done(std::move(*result));
            },
            Qt::QueuedConnection);
    });
}

} // namespace sp::gui
