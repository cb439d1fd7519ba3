#include "app/gui/models/plan_explain.h"

#include "app/common/diag/redact.h"
#include "app/gui/models/environment_model.h"
#include "app/gui/models/plain_words.h"
#include "core/qt_text.h"

#include <QCoreApplication>
#include <QLocale>

namespace sp::gui {

namespace {

QString labelOf(const PlanView& v, const std::string& id)
{
    for (const RuntimeRow& r : v.runtimes)
        if (r.id == qs(id))
            return r.label;
    return qs(id);
}

QString listOf(const QStringList& items)
{
    return QLocale().createSeparatedList(items);
}

// The parent folder of a runtime's folder, on either kind of path.
QString folderOf(const std::string& dir)
{
    const auto cut = dir.find_last_of("/\\");
    return qs(cut == std::string::npos ? dir : dir.substr(0, cut));
}

void addWhat(PlanExplanation& e, const PlanView& v)
{
    e.what << v.summary;
    e.what << QCoreApplication::translate("PlanExplain", "How far it is proven: %1. %2")
                  .arg(statusPhrase(v.status), statusExplanation(v.status));
    e.what << (v.evidence.isEmpty()
                   ? QCoreApplication::translate(
                         "PlanExplain",
                         "It has not run on this PC yet: StackPilot checks it before the first "
                         "start.")
                   : v.evidence + QLatin1Char('.'));
    e.what << v.othersEvidence;
}

void addAbove(PlanExplanation& e, const PlanView& v)
{
    for (const AlternativeRow& a : v.alternatives)
        e.above << (a.rejected
                        ? QCoreApplication::translate("PlanExplain", "%1 cannot be used here: %2")
                        : QCoreApplication::translate("PlanExplain", "%1: %2"))
                       .arg(a.title, a.plainReason);
    if (!v.otherMachine.isEmpty())
        e.above << QCoreApplication::translate(
            "PlanExplain", "%n other stack(s) are made for other graphics cards or systems.",
            nullptr, int(v.otherMachine.size()));
}

void addChanges(PlanExplanation& e, const PlanView& v, const Plan& plan)
{
    QStringList own, system;
    QString folder;
    for (const PlanRuntime& r : plan.runtimes) {
        if (!v.toInstall.contains(qs(r.id)))
            continue;
        // An SDK whose installer puts it under Program Files is the PC's, not ours.
        if (r.system || r.dir.find("Program Files") != std::string::npos) {
            system << labelOf(v, r.id);
        } else {
            own << labelOf(v, r.id);
            folder = folderOf(r.dir);
        }
    }
    if (!own.isEmpty())
        e.changes << QCoreApplication::translate(
                         "PlanExplain",
                         "Installs %1 into StackPilot's own folder (%2). Removing the stack "
                         "removes them; nothing else on the PC is replaced.")
                         .arg(listOf(own), folder);
    if (!system.isEmpty())
        e.changes << QCoreApplication::translate(
                         "PlanExplain",
                         "Installs %1 for the whole PC with its maker's installer; Windows asks "
                         "for administrator rights once.")
                         .arg(listOf(system));
    if (v.toInstall.isEmpty())
        e.changes << QCoreApplication::translate("PlanExplain",
                                                 "Everything it needs is installed already.");
    const int vars = int(plan.env.size() + plan.envUnset.size());
    if (vars > 0)
        e.changes << QCoreApplication::translate(
                         "PlanExplain",
                         "Sets %n setting(s) for %1 only, while it runs; the PC's own settings "
                         "stay as they are.",
                         nullptr, vars)
                         .arg(v.workloadName);
    if (!plan.venv.empty())
        e.changes << QCoreApplication::translate(
                         "PlanExplain",
                         "Gives %1 a Python of its own, so other Python programs are not touched.")
                         .arg(v.workloadName);
    for (const PlanArgsNote& n : plan.argsNotes)
        e.changes << QCoreApplication::translate("PlanExplain",
                                                 "Starts %1 with a setting for your card: %2")
                         .arg(v.workloadName, userText(n.why));
}

void addUnverifiable(PlanExplanation& e, const PlanView& v, const Plan& plan)
{
    QStringList unpinned, unseen;
    for (const PlanRuntime& r : plan.runtimes) {
        if (r.unpinned)
            unpinned << labelOf(v, r.id);
        if (r.urlUnverified)
            unseen << labelOf(v, r.id);
    }
    if (!unpinned.isEmpty())
        e.unverifiable << QCoreApplication::translate(
                              "PlanExplain",
                              "No published checksum for %1: StackPilot records what arrives the "
                              "first time and warns you if it ever changes.")
                              .arg(listOf(unpinned));
    if (!unseen.isEmpty())
        e.unverifiable << QCoreApplication::translate(
                              "PlanExplain",
                              "No public guide names the download address of %1, so who made "
                              "that file cannot be checked.")
                              .arg(listOf(unseen));
    if (!v.unsizedParts.isEmpty())
        e.unverifiable << downloadSentence(v, DownloadWording::Checklist);
    if (v.status != QLatin1String("tested"))
        e.unverifiable << QCoreApplication::translate(
            "PlanExplain", "Nobody has run StackPilot's own test of this stack on a card "
                           "like yours; the check on this PC before the first start is the "
                           "first proof.");
}

// Plain text for the fold: what the CLI's `plan` prints, secrets masked.
QString expertText(const PlanView& v, const Plan& plan)
{
    QStringList out;
    out << QCoreApplication::translate("PlanExplain", "Profile: %1 (%2)")
               .arg(qs(plan.profile), v.status);
    out << QCoreApplication::translate("PlanExplain", "Downloads and folders:");
    for (const PlanRuntime& r : plan.runtimes)
        out << QStringLiteral("  %1  %2 %3 → %4")
                   .arg(qs(r.id), qs(r.kind), qs(r.version), qs(r.dir));
    out << QCoreApplication::translate("PlanExplain", "Environment of the workload:");
    for (const auto& [name, value] : plan.env) {
        const bool secret = diag::Redactor::isSecretName(name);
        out << QStringLiteral("  %1=%2").arg(qs(name),
                                             secret ? maskedSecret(qs(value)) : qs(value));
        if (const auto why = plan.envWhy.find(name); why != plan.envWhy.end())
            out << QStringLiteral("      %1").arg(qs(why->second));
    }
    for (const auto& name : plan.envUnset)
        out << QCoreApplication::translate("PlanExplain", "  %1 is removed").arg(qs(name));
    std::vector<std::string> command = plan.command;
    command.insert(command.end(), plan.args.begin(), plan.args.end());
    out << QCoreApplication::translate("PlanExplain", "Command: %1").arg(commandLine(command));
    for (const auto& step : plan.steps)
        out << QCoreApplication::translate("PlanExplain", "Setup step: %1").arg(commandLine(step));
    if (!plan.verify.empty())
        out << QCoreApplication::translate("PlanExplain", "Check before the first start: %1")
                   .arg(commandLine(plan.verify));
    for (const auto& w : plan.warnings)
        out << QCoreApplication::translate("PlanExplain", "Planner's note: %1").arg(qs(w));
    return out.join(QLatin1Char('\n'));
}

} // namespace

QString commandLine(const std::vector<std::string>& argv)
{
    QStringList out;
    for (const auto& a : argv)
        out << (a.find(' ') == std::string::npos ? qs(a) : QStringLiteral("\"%1\"").arg(qs(a)));
    return out.join(QLatin1Char(' '));
}

PlanExplanation explainPlan(const PlanView& v)
{
    PlanExplanation e;
    if (!v.plan || v.profile.isEmpty()) {
        e.what << (v.error.isEmpty() ? v.why : v.error);
        addAbove(e, v);
        return e;
    }
    addWhat(e, v);
    addAbove(e, v);
    addChanges(e, v, *v.plan);
    addUnverifiable(e, v, *v.plan);
    e.expert = expertText(v, *v.plan);
    return e;
}

} // namespace sp::gui
