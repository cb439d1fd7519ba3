#include "app/gui/models/plan_view.h"

#include "app/gui/models/plain_words.h"
#include "core/catalog/download_sizes.h"
#include "core/evidence/evidence.h"
#include "core/format.h"
#include "core/launch/launch_prep.h"
#include "core/qt_text.h"

#include <QDate>
#include <QLocale>
#include <algorithm>

namespace sp::gui {

namespace {

// The backend of a llama.cpp build, from the last part of its id: "Vulkan", "CUDA 12.4".
QString llamaBackend(const std::string& id)
{
    const QString last = qs(id.substr(id.rfind('-') + 1));
    if (last.startsWith(QLatin1String("rocm")))
        return QStringLiteral("ROCm ") + last.mid(4);
    if (last.startsWith(QLatin1String("cuda")))
        return QStringLiteral("CUDA ") + last.mid(4);
    if (last == QLatin1String("hip"))
        return QStringLiteral("HIP");
    if (last == QLatin1String("vulkan"))
        return QStringLiteral("Vulkan");
    return last == QLatin1String("cpu") ? QCoreApplication::translate("PlanView", "processor")
                                        : last;
}

QString kindLabel(const Runtime& r, const Catalog& catalog)
{
    if (r.kind == "hip-sdk")
        return QCoreApplication::translate("PlanView", "HIP SDK %1").arg(qs(r.version));
    if (r.kind == "zluda")
        return QCoreApplication::translate("PlanView", "ZLUDA %1").arg(qs(r.version));
    if (r.kind == "rocblas-library") {
        const auto g = r.id.find("gfx");
        const std::string gfx = g == std::string::npos ? "" : r.id.substr(g, r.id.find('-', g) - g);
        return QCoreApplication::translate("PlanView", "rocBLAS for %1").arg(qs(gfx));
    }
    if (r.kind == "rocm")
        return QCoreApplication::translate("PlanView", "ROCm %1").arg(qs(r.version));
    if (r.kind == "torch-wheels")
        return QCoreApplication::translate("PlanView", "PyTorch %1").arg(qs(r.version));
    if (r.kind == "llama-cpp")
        return QCoreApplication::translate("PlanView", "llama.cpp build %1 (%2)")
            .arg(qs(r.version), llamaBackend(r.id));
    if (r.kind == "llamafile")
        return QCoreApplication::translate("PlanView", "llamafile %1").arg(qs(r.version));
    if (r.kind == "python")
        return QCoreApplication::translate("PlanView", "Python %1").arg(qs(r.version));
    if (r.kind == "git")
        return QCoreApplication::translate("PlanView", "Git %1").arg(qs(r.version));
    if (r.kind == "source") {
        const std::string name = r.id.size() > 4 && r.id.compare(r.id.size() - 4, 4, "-src") == 0
                                     ? r.id.substr(0, r.id.size() - 4)
                                     : r.id;
        // A workload's own source is called by the workload's name: "SD.Next".
        const Workload* w = catalog.workload(name);
        const QString shown = !w                    ? qs(name)
                              : !w->ui.name.empty() ? userText(w->ui.name)
                                                    : qs(w->name);
        return QCoreApplication::translate("PlanView", "%1 %2 (source)").arg(shown, qs(r.version));
    }
    return qs(r.id);
}

bool backgroundKind(const std::string& kind)
{
    return kind == "python" || kind == "git" || kind == "source";
}

QString gpuWords(const HardwareSnapshot& snap, const Plan& plan)
{
    if (!plan.gpu)
        return QCoreApplication::translate("PlanView", "this machine (no usable GPU)");
    const GpuInfo& g = snap.gpus[std::size_t(*plan.gpu)];
    return QCoreApplication::translate("PlanView", "%1 (%2)")
        .arg(qs(g.name), qs(format::gpuTarget(g)));
}

void addRuntimes(PlanView& v, const Catalog& catalog, const Plan& plan)
{
    const auto missing = missingRuntimes(plan);
    for (const PlanRuntime& pr : plan.runtimes) {
        const Runtime* r = catalog.runtime(pr.id);
        if (!r)
            continue;
        RuntimeRow row;
        row.id = qs(r->id);
        row.label = kindLabel(*r, catalog);
        row.system = r->system;
        const RuntimeDownload d = runtimeDownload(*r);
        row.bytes = d.bytes;
        row.sizeKnown = d.complete || !d.downloaded;
        const bool isMissing = std::find(missing.begin(), missing.end(), pr.id) != missing.end();
        row.installed = !isMissing;
        if (isMissing) {
            v.toInstall << row.id;
            v.downloadBytes += row.bytes;
            if (!row.sizeKnown)
                v.unsizedParts << row.label;
        }
        v.runtimes.push_back(row);
    }
    for (const auto& id : plan.repair)
        if (!v.toInstall.contains(qs(id)))
            v.toInstall << qs(id);
}

// Why an alternative is not first, in a user's words: a known problem's own title, a
// failed check, or the planner's rank code.
QString plainReason(const Catalog& catalog, const PlanAlternative& a)
{
    if (a.failedHere)
        return rankPhrase("failed-here");
    for (const auto& r : a.reasons) {
        if (!r.knownIssue.empty()) {
            const KnownIssue* k = catalog.knownIssue(r.knownIssue);
            const QString title = k && !k->ui.title.empty()
                                      ? userText(k->ui.title)
                                      : QString::fromStdString(k ? k->title : "");
            return QCoreApplication::translate("PlanView", "Known problem on your card: %1")
                .arg(title);
        }
        if (!r.rank.empty())
            return rankPhrase(r.rank);
    }
    return a.verdict == "rejected"
               ? QCoreApplication::translate("PlanView", "It does not fit this PC's graphics "
                                                         "card or system.")
               : rankPhrase("same");
}

QString evidenceOf(const std::map<std::string, LocalVerdict>& verdicts, const std::string& id)
{
    const auto it = verdicts.find(id);
    return it == verdicts.end() ? QString() : evidencePhrase(it->second, QDate::currentDate());
}

void addAlternatives(PlanView& v, const Catalog& catalog, const Plan& plan,
                     const std::map<std::string, LocalVerdict>& verdicts)
{
    const auto groups = groupAlternatives(plan);
    for (const PlanAlternative* a : groups.explained) {
        AlternativeRow row{qs(a->profile),
                           stackTitle(catalog, a->profile),
                           a->verdict == "rejected",
                           {},
                           {},
                           a->failedHere,
                           plainReason(catalog, *a),
                           evidenceOf(verdicts, a->profile)};
        for (const auto& r : a->reasons) {
            row.reasons << qs(r.text);
            if (!r.knownIssue.empty() && !row.knownIssues.contains(qs(r.knownIssue)))
                row.knownIssues << qs(r.knownIssue);
        }
        v.alternatives.push_back(row);
    }
    for (const auto& id : groups.otherMachine)
        v.otherMachine << qs(id);
    // Profiles with the same runtimes (they differ in arguments or variables) are told
    // apart by their route, or by a number.
    QStringList titles{v.title};
    for (const AlternativeRow& a : v.alternatives)
        titles << a.title;
    int variant = 1;
    for (AlternativeRow& a : v.alternatives) {
        if (titles.count(a.title) < 2)
            continue;
        const Profile* p = catalog.profile(toStd(a.profile));
        const QString route = p ? userText(p->ui.route) : QString();
        a.title += route.isEmpty()
                       ? QCoreApplication::translate("PlanView", " (variant %1)").arg(++variant)
                       : QStringLiteral(" (%1)").arg(route);
    }
}

// The card's words for a user (plain_words.h): no id, no maintainer's term.
void addUserWords(PlanView& v, const Catalog& catalog, const HardwareSnapshot& snap,
                  const Plan& plan, const std::map<std::string, LocalVerdict>& verdicts)
{
    const Profile* prof = catalog.profile(plan.profile);
    const bool onGpu = plan.gpu && prof && !prof->fallback;
    v.onCpu = prof && !onGpu;
    v.headline = onGpu ? QCoreApplication::translate("PlanView", "%1 on your %2")
                             .arg(v.workloadName, qs(snap.gpus[std::size_t(*plan.gpu)].name))
                       : QCoreApplication::translate("PlanView", "%1 on this PC's processor")
                             .arg(v.workloadName);
    const QString route = prof ? userText(prof->ui.route) : QString();
    v.verdictLine = statusPhrase(v.status);
    v.verdictLine[0] = v.verdictLine[0].toUpper();
    if (!route.isEmpty())
        v.verdictLine += QStringLiteral(" · ") + route;
    v.summary = prof && !prof->ui.summary.empty()
                    ? userText(prof->ui.summary)
                    : QCoreApplication::translate("PlanView", "The stack that fits %1 best.")
                          .arg(gpuWords(snap, plan));
    // The profile's own advice; what the planner adds (unverified downloads) is in the
    // checklist, in its words.
    if (prof && !prof->ui.warnings.empty())
        for (const auto& w : prof->ui.warnings)
            v.warnings << userText(w);
    else if (prof)
        for (const auto& w : prof->warnings)
            v.warnings << qs(w);
    // A card none of the GPU stacks fits: say so, and what the processor means.
    bool gpuStackFits = false;
    for (const auto& a : plan.alternatives)
        if (const Profile* p = catalog.profile(a.profile); p && a.verdict == "available")
            gpuStackFits = gpuStackFits || !p->fallback;
    if (!onGpu && !gpuStackFits && !snap.gpus.empty())
        v.summary = QCoreApplication::translate(
                        "PlanView", "None of the stacks StackPilot knows runs %1 on your %2, so "
                                    "this one runs it on the processor: expect minutes where a "
                                    "supported graphics card takes seconds. %3")
                        .arg(v.workloadName, qs(snap.gpus.front().name), v.summary);
    v.evidence = evidenceOf(verdicts, plan.profile);
    v.othersEvidence = proofPhrase(
        prof && prof->proof ? &*prof->proof : nullptr,
        onGpu ? archOf(snap.gpus[std::size_t(*plan.gpu)]) : std::string(), QDate::currentDate());
    const auto it = verdicts.find(plan.profile);
    v.failedHere = it != verdicts.end() && it->second.state == LocalVerdict::State::Failed;
}

// What a user must know before the install starts, in the order it matters: what is
// downloaded, what needs administrator rights, what cannot be checked, then the
// profile's own advice (antivirus, a long first start).
void addChecklist(PlanView& v, const Catalog& catalog)
{
    int unpinned = 0;
    QStringList admin;
    for (const QString& id : v.toInstall) {
        const Runtime* r = catalog.runtime(toStd(id));
        if (!r)
            continue;
        for (const Artifact& a : r->artifacts)
            unpinned += a.pinned() ? 0 : 1;
        if (r->system || r->installDir.find("Program Files") != std::string::npos)
            admin << kindLabel(*r, catalog);
    }
    v.checklist << downloadSentence(v, DownloadWording::Checklist);
    if (!admin.isEmpty())
        v.checklist << QCoreApplication::translate(
                           "PlanView", "Administrator rights: Windows will ask for them to "
                                       "install %1.")
                           .arg(admin.join(QStringLiteral(", ")));
    if (unpinned > 0)
        v.checklist << QCoreApplication::translate(
            "PlanView",
            "%n download(s) have no published checksum: StackPilot records what arrives the "
            "first time and warns you if it ever changes.",
            nullptr, unpinned);
    v.checklist << v.warnings;
}

} // namespace

QString downloadSentence(const PlanView& v, DownloadWording wording)
{
    const QString size = qs(format::bytes(v.downloadBytes));
    const QString unsized = QLocale().createSeparatedList(v.unsizedParts);
    const int n = int(v.toInstall.size());
    if (wording == DownloadWording::Card) {
        if (n == 0)
            return QCoreApplication::translate("PlanView", "Everything is installed.");
        if (v.unsizedParts.isEmpty())
            return QCoreApplication::translate("PlanView",
                                               "To install: %n part(s), about %1 to "
                                               "download.",
                                               nullptr, n)
                .arg(size);
        if (v.downloadBytes == 0)
            return QCoreApplication::translate("PlanView",
                                               "To install: %n part(s). The download size of %1 "
                                               "is not known before the download.",
                                               nullptr, n)
                .arg(unsized);
        return QCoreApplication::translate("PlanView",
                                           "To install: %n part(s), about %1 to download, plus "
                                           "%2, whose size is not known before the download.",
                                           nullptr, n)
            .arg(size, unsized);
    }
    if (v.unsizedParts.isEmpty())
        return QCoreApplication::translate("PlanView", "Download: about %1.").arg(size);
    if (v.downloadBytes == 0)
        return QCoreApplication::translate("PlanView", "Download: the size of %1 is not known "
                                                       "before the download.")
            .arg(unsized);
    return QCoreApplication::translate("PlanView", "Download: about %1, plus %2, whose size is "
                                                   "not known before the download.")
        .arg(size, unsized);
}

QString runtimeLabel(const Catalog& catalog, const std::string& runtimeId)
{
    const Runtime* r = catalog.runtime(runtimeId);
    return r ? kindLabel(*r, catalog) : QString();
}

QString modelLabel(const Catalog& catalog, const std::string& modelId)
{
    const Model* m = catalog.model(modelId);
    if (!m)
        return qs(modelId); // a user's own file: its path is its name
    QString name = m->ui.name.empty() ? qs(m->id) : userText(m->ui.name);
    if (!m->quant.empty() && !name.contains(qs(m->quant)))
        name += QStringLiteral(" (%1)").arg(qs(m->quant));
    return name;
}

QString stackTitle(const Catalog& catalog, const std::string& profileId)
{
    const Profile* p = catalog.profile(profileId);
    if (!p)
        return qs(profileId);
    QStringList parts;
    for (const auto& id : p->runtimes)
        if (const Runtime* r = catalog.runtime(id); r && !backgroundKind(r->kind))
            parts << kindLabel(*r, catalog);
    if (p->fallback && parts.isEmpty())
        return QCoreApplication::translate("PlanView", "CPU only");
    return parts.isEmpty() ? qs(profileId) : parts.join(QStringLiteral(" + "));
}

PlanView buildPlanView(const Catalog& catalog, const HardwareSnapshot& snapshot,
                       const std::string& workload, const Expected<Plan>& plan,
                       const std::map<std::string, LocalVerdict>& verdicts)
{
    PlanView v;
    v.workload = qs(workload);
    const Workload* w = catalog.workload(workload);
    v.workloadName = w && !w->ui.name.empty() ? userText(w->ui.name)
                     : w && !w->name.empty()  ? qs(w->name)
                                              : v.workload;
    if (w)
        v.about = userText(w->ui.about);
    if (!plan) {
        v.error = qs(plan.error().message);
        return v;
    }
    v.plan = *plan;
    v.profile = qs(plan->profile);
    if (plan->profile.empty()) {
        v.why = QCoreApplication::translate(
                    "PlanView", "No stack for %1 fits this PC; the other stacks say why.")
                    .arg(v.workloadName);
        addAlternatives(v, catalog, *plan, verdicts);
        return v;
    }
    v.title = stackTitle(catalog, plan->profile);
    v.status = qs(toString(plan->status));
    addRuntimes(v, catalog, *plan);
    addUserWords(v, catalog, snapshot, *plan, verdicts);
    v.why = v.summary;
    if (!v.toInstall.isEmpty())
        addChecklist(v, catalog);
    addAlternatives(v, catalog, *plan, verdicts);
    return v;
}

} // namespace sp::gui
