#include "app/gui/models/plan_view.h"

#include "core/format.h"
#include "core/launch/launch_prep.h"
#include "core/qt_text.h"

#include <algorithm>

namespace sp::gui {

namespace {

QString kindLabel(const Runtime& r)
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
        return QCoreApplication::translate("PlanView", "%1 %2 (source)")
            .arg(qs(name), qs(r.version));
    }
    return qs(r.id);
}

bool backgroundKind(const std::string& kind)
{
    return kind == "python" || kind == "git" || kind == "source";
}

std::uint64_t declaredBytes(const Runtime& r, bool& known)
{
    std::uint64_t total = 0;
    for (const auto& a : r.artifacts) {
        if (a.size)
            total += *a.size;
        else
            known = false;
    }
    return total;
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
        row.label = kindLabel(*r);
        row.system = r->system;
        row.bytes = declaredBytes(*r, row.sizeKnown);
        const bool isMissing = std::find(missing.begin(), missing.end(), pr.id) != missing.end();
        row.installed = !isMissing;
        if (isMissing) {
            v.toInstall << row.id;
            v.downloadBytes += row.bytes;
        }
        v.runtimes.push_back(row);
    }
    for (const auto& id : plan.repair)
        if (!v.toInstall.contains(qs(id)))
            v.toInstall << qs(id);
}

void addReasons(PlanView& v, const Catalog& catalog, const HardwareSnapshot& snap, const Plan& plan)
{
    const Profile* prof = catalog.profile(plan.profile);
    v.why = prof && !prof->notes.empty()
                ? qs(prof->notes)
                : QCoreApplication::translate("PlanView", "The best-ranked profile of %1 for %2.")
                      .arg(v.workloadName, gpuWords(snap, plan));
    v.details << QCoreApplication::translate("PlanView", "GPU: %1").arg(gpuWords(snap, plan));
    for (const auto& w : plan.warnings)
        v.details << QCoreApplication::translate("PlanView", "Warning: %1").arg(qs(w));
    for (const auto& [name, why] : plan.envWhy)
        v.details << QCoreApplication::translate("PlanView", "%1: %2").arg(qs(name), qs(why));
    for (const auto& ref : plan.references)
        v.details << QCoreApplication::translate("PlanView", "Source: %1").arg(qs(ref));
    const auto groups = groupAlternatives(plan);
    for (const PlanAlternative* a : groups.explained) {
        AlternativeRow row{
            qs(a->profile), stackTitle(catalog, a->profile), a->verdict == "rejected", {}, {},
            a->failedHere};
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
    // apart by their ids.
    QStringList titles{v.title};
    for (const AlternativeRow& a : v.alternatives)
        titles << a.title;
    for (AlternativeRow& a : v.alternatives)
        if (titles.count(a.title) > 1)
            a.title += QStringLiteral(" (%1)").arg(a.profile);
    if (!v.title.isEmpty() && titles.count(v.title) > 1)
        v.title += QStringLiteral(" (%1)").arg(v.profile);
}

} // namespace

QString stackTitle(const Catalog& catalog, const std::string& profileId)
{
    const Profile* p = catalog.profile(profileId);
    if (!p)
        return qs(profileId);
    QStringList parts;
    for (const auto& id : p->runtimes)
        if (const Runtime* r = catalog.runtime(id); r && !backgroundKind(r->kind))
            parts << kindLabel(*r);
    if (p->fallback && parts.isEmpty())
        return QCoreApplication::translate("PlanView", "CPU only");
    return parts.isEmpty() ? qs(profileId) : parts.join(QStringLiteral(" + "));
}

PlanView buildPlanView(const Catalog& catalog, const HardwareSnapshot& snapshot,
                       const std::string& workload, const Expected<Plan>& plan)
{
    PlanView v;
    v.workload = qs(workload);
    const Workload* w = catalog.workload(workload);
    v.workloadName = w && !w->name.empty() ? qs(w->name) : v.workload;
    if (!plan) {
        v.error = qs(plan.error().message);
        return v;
    }
    v.plan = *plan;
    v.profile = qs(plan->profile);
    if (plan->profile.empty()) {
        v.why = QCoreApplication::translate(
                    "PlanView", "No profile of %1 fits this machine; the other profiles say why.")
                    .arg(v.workloadName);
        addReasons(v, catalog, snapshot, *plan);
        return v;
    }
    v.title = stackTitle(catalog, plan->profile);
    v.status = qs(toString(plan->status));
    addRuntimes(v, catalog, *plan);
    addReasons(v, catalog, snapshot, *plan);
    return v;
}

} // namespace sp::gui
