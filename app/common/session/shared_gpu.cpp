// Two workloads on one card (issue 31, item 5): allowed, and said before the second one
// starts, with the card's memory and what each stack asks of it. The running launches are
// found by their open records and live lock holders (core/launch/launch_log.h), so a
// workload started by the CLI, by the window or by another StackPilot counts alike.

#include "app/common/session/session.h"

namespace sp::session {

namespace {

std::optional<std::int64_t> needOf(const Catalog& catalog, const std::string& profile)
{
    const Profile* p = catalog.profile(profile);
    return p ? p->match.minVramMb : std::nullopt;
}

bool sameCard(const LaunchRecord& r, const PlanGpu& card)
{
    if (!r.gpuBus.empty() && !card.pciBus.empty())
        return r.gpuBus == card.pciBus;
    return !r.gpuName.empty() && r.gpuName == card.name;
}

} // namespace

std::vector<SharedGpu> sharedGpus(const Catalog& catalog, const LaunchRequest& request)
{
    std::vector<SharedGpu> out;
    const auto& card = request.plan.card;
    const Profile* own = catalog.profile(request.plan.profile);
    if (!card || (own && own->fallback))
        return out; // on the processor: no card to share
    for (const LaunchRecord& r : runningLaunches(request.logsRoot, request.dataDir)) {
        if (r.workload == request.plan.workload || !sameCard(r, *card))
            continue;
        SharedGpu s;
        s.workload = request.plan.workload;
        s.other = r.workload;
        s.gpu = card->name;
        s.pciBus = card->pciBus;
        s.memoryMb = card->memoryMb;
        s.needMb = needOf(catalog, request.plan.profile);
        s.otherNeedMb = needOf(catalog, r.profile);
        out.push_back(std::move(s));
    }
    return out;
}

} // namespace sp::session
