// The session's machinery: its worker thread, the jobs' start and end, cancel, the
// events' way to the owner's thread, and the launch as an asynchronous step on the
// worker's loop. The workflow's steps are in session_steps.cpp, session_run.cpp,
// session_verify.cpp and session_history.cpp.

#include "app/common/session/session.h"

#include "core/launch/launch_session.h"

#include <QCoreApplication>
#include <QMetaObject>
#include <QPointer>
#include <QThread>
#include <chrono>

namespace sp::session {

namespace {

// An artifact's progress reaches the front end at most this often.
constexpr long long kProgressEveryMs = 50;
// The most events whose room a delivered batch leaves for the next: 4 MiB (an event is
// about 256 bytes), as much as a flood's batch of lines takes.
constexpr std::size_t kSpareEvents = 16384;

long long nowMs()
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

} // namespace

Session::Session(Context context, EventSink sink, QObject* parent)
    : QObject(parent), m_ctx(std::move(context)), m_sink(std::move(sink))
{
    if (m_ctx.settingsFile.empty())
        m_ctx.settingsFile = Settings::defaultFile();
    // The session's one worker: every job and every call() runs here, in order.
    m_thread = new QThread(this);
    m_thread->setObjectName(QStringLiteral("session"));
    m_worker = new QObject;
    m_worker->moveToThread(m_thread);
    connect(m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    m_thread->start();
}

Session::~Session()
{
    m_closing = true;
    cancel();
    cancel(); // a launch's tree is killed, not waited for
    // The launch lives on the worker: it is ended there, after the job it is in.
    QMetaObject::invokeMethod(
        m_worker,
        [this] {
            delete m_launch;
            m_launch = nullptr;
        },
        Qt::BlockingQueuedConnection);
    m_thread->quit();
    m_thread->wait();
}

void Session::cancel()
{
    m_cancels.fetch_add(1);
    {
        std::lock_guard lock(m_cancelLock);
        m_installCancel.cancel();
    }
    post([this] { applyCancel(); });
}

void Session::applyCancel()
{
    const int n = m_cancels.load();
    if (n == m_cancelsHandled)
        return;
    m_cancelsHandled = n;
    if (m_launch)
        n == 1 ? m_launch->stop() : m_launch->kill();
    if (m_pending)
        confirm(false);
}

void Session::post(std::function<void()> f)
{
    QMetaObject::invokeMethod(
        m_worker, [this, f = std::move(f)] { guarded(f); }, Qt::QueuedConnection);
}

// Whatever runs on the worker runs here: an exception out of a step must not leave a
// front end waiting for an end that never comes (a frozen button). It becomes a failure
// that says so, and the job ends with it.
void Session::guarded(const std::function<void()>& f)
{
    try {
        f();
    } catch (const std::exception& e) {
        crashed(e.what());
    } catch (...) {
        crashed("an unknown exception");
    }
}

void Session::crashed(const std::string& what)
{
    m_pending.reset(); // a waiting confirmation goes with it
    finish(fail(Stage::Plan, Error::runtime("StackPilot's worker stopped on an internal error (" +
                                            what + "); nothing more was done")
                                 .withCause(Cause::Internal)));
}

void Session::postBack(std::function<void()> f)
{
    // Dropped when the session is gone by the time the owner's loop gets to it.
    QMetaObject::invokeMethod(this, std::move(f), Qt::QueuedConnection);
}

bool Session::begin(std::function<void()> job)
{
    if (m_busy || m_ctx.recorded)
        return false;
    m_busy = true;
    m_outcome = Outcome{};
    m_cancels = 0;
    {
        std::lock_guard lock(m_cancelLock);
        m_installCancel = CancelToken();
    }
    post([this, job = std::move(job)] {
        m_cancelsHandled = 0;
        m_verified.clear();
        job();
    });
    return true;
}

void Session::finish(Outcome outcome)
{
    outcome.verified = std::move(m_verified);
    m_verified.clear();
    auto shared = std::make_shared<Outcome>(std::move(outcome));
    postBack([this, shared] {
        flush();
        m_outcome = std::move(*shared);
        m_busy = false;
        emit finished();
    });
}

void Session::finish(Expected<bool> result, std::filesystem::path log)
{
    Outcome o;
    o.result = std::move(result);
    o.log = std::move(log);
    finish(std::move(o));
}

void Session::send(Event e) const
{
    if (!m_sink)
        return;
    const bool here = QThread::currentThread() == thread();
    bool schedule = false;
    {
        std::lock_guard lock(m_outboxLock);
        schedule = m_outbox.empty();
        if (const auto* p = std::get_if<ArtifactProgress>(&e)) {
            // At most one progress per artifact in kProgressEveryMs: the rest is held, and
            // the latest held goes out with the next one due or before the artifact's end.
            const auto key = std::make_pair(p->runtime, p->artifact);
            const long long now = nowMs();
            auto& sent = m_progressSentMs[key];
            if (!here && now - sent < kProgressEveryMs) {
                m_progressHeld[key] = *p;
                return;
            }
            sent = now;
            m_progressHeld.erase(key);
        } else if (const auto* d = std::get_if<ArtifactDone>(&e)) {
            const auto key = std::make_pair(d->runtime, d->artifact);
            if (auto held = m_progressHeld.find(key); held != m_progressHeld.end()) {
                m_outbox.push_back(held->second);
                m_progressHeld.erase(held);
            }
        }
        m_outbox.push_back(std::move(e));
    }
    if (here) {
        flush();
        return;
    }
    // One queued call per batch: later events join it until the owner takes it.
    if (schedule) {
        auto* self = const_cast<Session*>(this);
        QMetaObject::invokeMethod(
            self, [self] { self->flush(); }, Qt::QueuedConnection);
    }
}

void Session::flush() const
{
    std::vector<Event> batch;
    {
        std::lock_guard lock(m_outboxLock);
        batch.swap(m_outbox);
        m_outbox.swap(m_outboxSpare);
    }
    const QPointer<const Session> alive(this); // an event's handler may end the session
    for (const Event& e : batch)
        m_sink(e);
    batch.clear();
    if (!alive || batch.capacity() > kSpareEvents)
        return;
    std::lock_guard lock(m_outboxLock);
    if (m_outboxSpare.capacity() < batch.capacity())
        m_outboxSpare.swap(batch);
}

Error Session::fail(Stage stage, Error e) const
{
    send(Failed{stage, e.code, e.message, e.cause});
    return e;
}

// A launch (or a smoke test: the same, with the smoke test as the workload) on the
// worker's loop; `then` runs there when it has ended.
void Session::launchThen(LaunchRequest request, std::function<void(Event&&)> sink,
                         std::function<void(LaunchEnd)> then, bool smokeTest)
{
    const LaunchStarted started{request.plan.profile, {}, smokeTest};
    if (!smokeTest && m_ctx.catalog)
        for (SharedGpu& s : sharedGpus(*m_ctx.catalog, request))
            sink(std::move(s));
    auto* launch = new LaunchSession(std::move(request),
                                     [sink](const events::FromLaunch& e) { sink(widen(e)); });
    std::string error;
    if (!launch->start(error)) {
        delete launch;
        then(LaunchEnd{fail(Stage::Launch, Error::runtime(error)), {}, false});
        return;
    }
    sink(LaunchStarted{started.profile, launch->files().log, smokeTest});
    m_launch = launch;
    connect(launch, &LaunchSession::finished, m_worker, [this, launch, then = std::move(then)] {
        LaunchEnd end{launch->succeeded(), launch->files().log, launch->timedOut()};
        if (m_launch == launch)
            m_launch = nullptr;
        launch->deleteLater();
        guarded([&] { then(std::move(end)); });
    });
    // A cancel that came while the launch was being set up applies to it now.
    m_cancelsHandled = 0;
    applyCancel();
}

} // namespace sp::session
