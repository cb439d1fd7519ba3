// AppController's own lines in the console (issue 33, item 6): what the install and the
// setup steps do, as they happen, among the workload's output. They are notes, not
// numbered, so a known issue's "line N" of the launch log still finds its line.

#include "app/gui/controllers/app_controller.h"
#include "app/gui/models/plan_explain.h"
#include "core/overloads.h"
#include "core/qt_text.h"

#include <QUrl>

namespace sp::gui {

QString AppController::noteFor(const session::Event& e) const
{
    auto label = [this](const std::string& id) {
        const QString l = catalog() ? runtimeLabel(*catalog(), id) : QString();
        return l.isEmpty() ? qs(id) : l;
    };
    return std::visit(
        Overloads{
            [&](const session::RuntimeStarted& r) {
                return tr("Installing %1 (%2 of %3)…")
                    .arg(label(r.runtime))
                    .arg(r.index)
                    .arg(r.count);
            },
            [&](const session::ArtifactDone& d) {
                return tr("Downloaded %1")
                    .arg(QUrl::fromPercentEncoding(QByteArray::fromStdString(d.name)));
            },
            [&](const session::RuntimeInstalled& r) {
                return r.alreadyInstalled
                           ? tr("%1 was installed already").arg(label(r.runtime))
                           : tr("%1 installed in %2 (%n file(s))", nullptr, int(r.files))
                                 .arg(label(r.runtime), qpath(r.dir));
            },
            [&](const session::Notice& n) {
                return n.stage == session::Stage::Install ? qs(n.text) : QString();
            },
            [&](const session::StepChanged& s) { return stepNote(s); },
            [&](const session::LaunchStarted& l) {
                return l.smokeTest
                           ? tr("Checking the stack on this PC before the first start…")
                           : tr("Starting %1; its output follows.").arg(workloadName(m_running));
            },
            [](const auto&) { return QString(); },
        },
        e);
}

QString AppController::stepNote(const session::StepChanged& s) const
{
    switch (s.state) {
    case session::StepState::Started:
        return tr("Setup step %1 of %2: %3").arg(s.index).arg(s.of).arg(commandLine(s.argv));
    case session::StepState::Done:
        return s.index > 0 ? tr("Setup step %1 of %2 done").arg(s.index).arg(s.of) : QString();
    case session::StepState::Skipped:
        return tr("Setup steps skipped: %1").arg(qs(s.text));
    case session::StepState::Failed:
    case session::StepState::Stopped:
        return tr("Setup step %1 of %2 ended: %3")
            .arg(s.index)
            .arg(s.of)
            .arg(s.exit ? qs(s.exit->text) : QString());
    case session::StepState::Warning:
        break;
    }
    return qs(s.text);
}

void AppController::addNote(const session::Event& e)
{
    const QString text = noteFor(e);
    if (!text.isEmpty())
        m_console.append({{QStringLiteral("▸ ") + text, false, true}});
}

} // namespace sp::gui
