#include "core/select/select.h"

#include "core/catalog/placeholders.h"
#include "core/catalog/version_range.h"
#include "core/select/conditions.h"

#include <algorithm>

namespace sp {

namespace {

int statusRank(ProfileStatus s)
{
    switch (s) {
    case ProfileStatus::Tested:
        return 0;
    case ProfileStatus::Community:
        return 1;
    case ProfileStatus::Experimental:
        return 2;
    }
    return 3;
}

// > 0 when a has newer runtimes than b, comparing versions of the kinds both use.
int compareNewness(const Profile& a, const Profile& b, const Catalog& cat)
{
    for (const auto& ida : a.runtimes) {
        const Runtime* ra = cat.runtime(ida);
        if (!ra)
            continue;
        for (const auto& idb : b.runtimes) {
            const Runtime* rb = cat.runtime(idb);
            if (!rb || rb->kind != ra->kind)
                continue;
            auto va = parseVersion(ra->version);
            auto vb = parseVersion(rb->version);
            if (va && vb) {
                if (int c = compareVersions(*va, *vb); c != 0)
                    return c;
            }
        }
    }
    return 0;
}

std::string separator(const HardwareSnapshot& s)
{
    return s.os.family == "windows" ? "\\" : "/";
}

bool underPath(const std::string& path, const std::string& base)
{
    if (base.empty() || path.size() < base.size() || path.compare(0, base.size(), base) != 0)
        return false;
    return path.size() == base.size() || path[base.size()] == '/' || path[base.size()] == '\\' ||
           base.back() == '/' || base.back() == '\\';
}

struct Candidate
{
    const Profile* profile;
    std::vector<PlanReason> rejections;
    int specificity = 0;
};

} // namespace

std::optional<std::string> hsaOverrideFor(const std::string& gfx)
{
    // FIELD-NOTES, "Overrides on Linux ROCm": conventions with public evidence.
    static const std::map<std::string, std::string> table = {
        {"gfx1031", "10.3.0"}, {"gfx1032", "10.3.0"}, {"gfx1034", "10.3.0"},
        {"gfx1035", "10.3.0"}, {"gfx1036", "10.3.0"}, {"gfx1103", "11.0.0"},
        {"gfx1101", "11.0.0"}, {"gfx1102", "11.0.0"}, {"gfx90c", "9.0.0"},
    };
    auto it = table.find(gfx);
    if (it == table.end())
        return std::nullopt;
    return it->second;
}

std::optional<int> chooseGpu(const HardwareSnapshot& snapshot)
{
    std::optional<int> best;
    for (int i = 0; i < static_cast<int>(snapshot.gpus.size()); ++i) {
        const auto& g = snapshot.gpus[i];
        if (g.vendor == Vendor::Other)
            continue;
        if (!best) {
            best = i;
            continue;
        }
        const auto& b = snapshot.gpus[*best];
        const bool gi = g.integrated.value_or(false);
        const bool bi = b.integrated.value_or(false);
        if (gi != bi) {
            if (!gi)
                best = i;
            continue;
        }
        if (g.vramMb.value_or(0) > b.vramMb.value_or(0))
            best = i;
    }
    return best;
}

Expected<Plan> makePlan(const HardwareSnapshot& snap, const Catalog& cat,
                        const std::string& workloadId, const SelectSettings& settings)
{
    const Workload* workload = cat.workload(workloadId);
    if (!workload) {
        std::string known;
        for (const auto& w : cat.workloads)
            known += (known.empty() ? "" : ", ") + w.id;
        return Error::usage("unknown workload '" + workloadId + "' (known: " + known + ")");
    }
    if (!settings.profile.empty()) {
        const Profile* forced = cat.profile(settings.profile);
        if (!forced)
            return Error::usage("unknown profile '" + settings.profile + "'");
        if (forced->workload != workloadId)
            return Error::usage("profile '" + settings.profile + "' is for workload '" +
                                forced->workload + "', not '" + workloadId + "'");
    }

    Plan plan;
    plan.workload = workloadId;
    plan.gpu = chooseGpu(snap);
    const GpuInfo* gpu = plan.gpu ? &snap.gpus[*plan.gpu] : nullptr;

    // Evaluate every profile of the workload: unmet match conditions, then known issues.
    std::vector<Candidate> candidates;
    for (const auto& p : cat.profiles) {
        if (p.workload != workloadId)
            continue;
        Candidate c{&p, {}, specificity(p.match)};
        const MatchContext ctx{snap, gpu, cat, &p};
        for (auto& text : unmetConditions(p.match, ctx))
            c.rejections.push_back({std::move(text), {}});
        for (const auto& id : p.runtimes) {
            // A runtime built for another OS cannot run here, whatever the match says.
            const Runtime* r = cat.runtime(id);
            if (r && !r->os.empty() &&
                std::find(r->os.begin(), r->os.end(), snap.os.family) == r->os.end())
                c.rejections.push_back({"runtime " + id + " is only for " + r->os.front(), {}});
        }
        if (c.rejections.empty()) {
            // A fallback runs on the CPU: GPU-specific known issues do not concern it.
            const MatchContext issueCtx{snap, p.fallback ? nullptr : gpu, cat, &p};
            for (const auto& ki : cat.knownIssues) {
                if (!ki.rejectsProfiles || !ki.applies.is_object() || ki.applies.empty())
                    continue;
                if (unmetConditions(ki.applies, issueCtx).empty()) {
                    std::string text = "known issue: " + ki.title;
                    if (!ki.remedy.text.empty())
                        text += " (" + ki.remedy.text + ")";
                    c.rejections.push_back({text, ki.id});
                }
            }
        }
        candidates.push_back(std::move(c));
    }
    auto better = [&](const Candidate& a, const Candidate& b) {
        if (a.profile->fallback != b.profile->fallback)
            return !a.profile->fallback;
        if (statusRank(a.profile->status) != statusRank(b.profile->status))
            return statusRank(a.profile->status) < statusRank(b.profile->status);
        if (a.specificity != b.specificity)
            return a.specificity > b.specificity;
        if (int n = compareNewness(*a.profile, *b.profile, cat); n != 0)
            return n > 0;
        return a.profile->id < b.profile->id;
    };
    std::vector<const Candidate*> fitting;
    for (const auto& c : candidates)
        if (c.rejections.empty())
            fitting.push_back(&c);
    std::sort(fitting.begin(), fitting.end(),
              [&](const Candidate* a, const Candidate* b) { return better(*a, *b); });

    const Candidate* chosen = nullptr;
    if (!settings.profile.empty()) {
        for (const auto& c : candidates)
            if (c.profile->id == settings.profile)
                chosen = &c;
        if (!chosen->rejections.empty()) {
            std::string why;
            for (const auto& r : chosen->rejections)
                why += "; " + r.text + (r.knownIssue.empty() ? "" : " [" + r.knownIssue + "]");
            return Error::runtime("profile '" + settings.profile + "' does not fit this machine" +
                                  why);
        }
    } else if (!fitting.empty()) {
        chosen = fitting.front();
    }

    // Alternatives: the other fitting profiles in rank order, then the rejected ones.
    for (const Candidate* c : fitting) {
        if (c == chosen)
            continue;
        PlanAlternative alt{c->profile->id, "available", {}};
        if (chosen) {
            const Profile& w = *chosen->profile;
            std::string why = "ranked below " + w.id + ": ";
            if (c->profile->fallback != w.fallback)
                why += "a fallback ranks after every GPU profile";
            else if (c->profile->status != w.status)
                why += "status " + toString(c->profile->status) + " is below " + toString(w.status);
            else if (c->specificity != chosen->specificity)
                why += "its match is less specific to this GPU";
            else if (compareNewness(*c->profile, w, cat) != 0)
                why += "its runtimes are older";
            else
                why += "same rank, ordered by id";
            alt.reasons.push_back({why, {}});
        }
        plan.alternatives.push_back(std::move(alt));
    }
    for (const auto& c : candidates)
        if (!c.rejections.empty())
            plan.alternatives.push_back({c.profile->id, "rejected", c.rejections});

    if (!chosen) {
        plan.warnings.push_back("no profile of workload '" + workloadId +
                                "' fits this machine; see the alternatives for why");
        return plan;
    }
    const Profile& profile = *chosen->profile;
    plan.profile = profile.id;
    plan.status = profile.status;
    plan.references = profile.references;

    const std::string sep = separator(snap);
    const bool windows = snap.os.family == "windows";
    // The GPU's index among the snapshot's GPUs of its vendor (see select.h).
    int vendorIndex = 0;
    if (gpu)
        for (int i = 0; i < *plan.gpu; ++i)
            vendorIndex += snap.gpus[i].vendor == gpu->vendor ? 1 : 0;

    auto runtimeDir = [&](const Runtime& r) -> std::string {
        if (!r.installDir.empty())
            return r.installDir; // expanded below, it may use {data}
        return settings.dataDir + sep + "runtimes" + sep + r.id;
    };
    std::function<std::optional<std::string>(const std::string&)> resolve;
    auto expand = [&](const std::string& s) { return expandPlaceholders(s, resolve); };
    resolve = [&](const std::string& name) -> std::optional<std::string> {
        if (name == "gfx")
            return gpu && gpu->gfx ? std::optional<std::string>(*gpu->gfx) : std::nullopt;
        if (name == "gpu_index")
            return gpu ? std::optional<std::string>(std::to_string(vendorIndex)) : std::nullopt;
        if (name == "data")
            return settings.dataDir;
        if (name == "cache")
            return settings.cacheDir;
        if (name == "python")
            return profile.python.empty()
                       ? std::string(windows ? "python" : "python3")
                       : expandPlaceholders(profile.python, [&](const std::string& n) {
                             return n == "python" ? std::nullopt : resolve(n);
                         });
        if (name.rfind("runtime:", 0) == 0) {
            const Runtime* r = cat.runtime(name.substr(8));
            if (!r)
                return std::nullopt;
            return expandPlaceholders(runtimeDir(*r), [&](const std::string& n) {
                return n.rfind("runtime:", 0) == 0 ? std::nullopt : resolve(n);
            });
        }
        return std::nullopt;
    };

    auto setEnv = [&](const std::string& k, const std::string& v, const std::string& why) {
        plan.env[k] = v;
        plan.envWhy[k] = why;
    };
    for (const auto& id : profile.runtimes) {
        const Runtime* r = cat.runtime(id);
        if (!r)
            continue; // the loader refuses this; stay safe on hand-built catalogs
        plan.runtimes.push_back({r->id, r->kind, r->version, expand("{runtime:" + r->id + "}"),
                                 r->system, r->hasUnpinnedArtifact()});
        for (const auto& [k, v] : r->env) {
            auto why = r->envWhy.count(k) ? r->envWhy.at(k) : "set by runtime " + r->id;
            setEnv(k, expand(v), why);
        }
    }
    for (const auto& [k, v] : workload->env)
        setEnv(k, expand(v), "set by workload " + workload->id);
    for (const auto& [k, v] : profile.env) {
        auto why = profile.envWhy.count(k) ? profile.envWhy.at(k) : "set by profile " + profile.id;
        setEnv(k, expand(v), why);
    }

    // Pin the chosen GPU so an integrated GPU (or a second card) is never picked by the runtime.
    if (gpu && !profile.fallback) {
        const std::string idx = std::to_string(vendorIndex);
        if (gpu->vendor == Vendor::Amd && !windows) {
            // ROCR filters the devices first and HIP numbers what is left, so HIP sees
            // the pinned GPU as device 0.
            setEnv("ROCR_VISIBLE_DEVICES", idx,
                   "pins the chosen GPU (" + gpu->name + ", AMD device " + idx +
                       ") at the ROCr level");
            setEnv("HIP_VISIBLE_DEVICES", "0",
                   "HIP numbers only the devices ROCR_VISIBLE_DEVICES leaves visible, so the "
                   "pinned GPU is 0");
        } else if (gpu->vendor == Vendor::Amd) {
            setEnv("HIP_VISIBLE_DEVICES", idx,
                   "pins the chosen GPU (" + gpu->name + ", AMD device " + idx + ")");
        } else if (gpu->vendor == Vendor::Nvidia) {
            setEnv("CUDA_DEVICE_ORDER", "PCI_BUS_ID",
                   "makes CUDA number GPUs in PCI bus order, the order detection lists them in");
            setEnv("CUDA_VISIBLE_DEVICES", idx,
                   "pins the chosen GPU (" + gpu->name + ", NVIDIA device " + idx + ")");
        }
    }

    // HSA_OVERRIDE_GFX_VERSION: Linux ROCm only, only for a gfx the ROCm has no kernels
    // for, only to a target of the same major version that the ROCm does support.
    if (gpu && gpu->vendor == Vendor::Amd && gpu->gfx && !windows) {
        for (const auto& id : profile.runtimes) {
            const Runtime* r = cat.runtime(id);
            if (!r || r->kind != "rocm" || r->supportedGfx.empty())
                continue;
            const std::string& g = *gpu->gfx;
            auto supports = [&](const std::string& target) {
                return std::any_of(r->supportedGfx.begin(), r->supportedGfx.end(),
                                   [&](const std::string& p) { return gfxMatches(p, target); });
            };
            if (supports(g))
                break;
            auto ov = hsaOverrideFor(g);
            std::string target;
            if (ov) {
                auto v = parseVersion(*ov);
                if (v && v->size() == 3)
                    target = "gfx" + std::to_string((*v)[0]) + std::to_string((*v)[1]) +
                             std::to_string((*v)[2]);
            }
            const std::string major = g.substr(3, g.size() >= 6 && g.size() == 7 ? 2 : 1);
            if (ov && !target.empty() && target.rfind("gfx" + major, 0) == 0 && supports(target)) {
                std::string why = g + " has no native kernels in " + r->id + "; " + target +
                                  " is the same family and is supported";
                if (g == "gfx1101" || g == "gfx1102")
                    plan.warnings.push_back("HSA_OVERRIDE_GFX_VERSION=" + *ov + " for " + g +
                                            " is riskier than for other cards: watch for crashes");
                setEnv("HSA_OVERRIDE_GFX_VERSION", *ov, why);
            } else {
                plan.warnings.push_back(
                    g + " is not supported by " + r->id +
                    " and no safe HSA_OVERRIDE_GFX_VERSION is known [rocm-unsupported-gfx]");
            }
            break;
        }
    }

    // Caches on a network home break MIOpen and PyTorch (seed 004): move them to a local folder.
    if (homeIsNetwork(snap)) {
        std::string base = settings.localCacheDir;
        if (base.empty()) {
            base = settings.cacheDir;
            if (base.empty() || underPath(base, snap.home.path)) {
                std::string user = snap.home.path;
                while (!user.empty() && (user.back() == '/' || user.back() == '\\'))
                    user.pop_back();
                user = user.substr(user.find_last_of("/\\") == std::string::npos
                                       ? 0
                                       : user.find_last_of("/\\") + 1);
                base = windows ? "C:\\StackPilotCache\\" + user : "/var/tmp/stackpilot-" + user;
            }
        }
        const std::string why =
            "the home folder " + snap.home.path + " is on " + snap.home.filesystem +
            " (a network filesystem); caches there break GPU stacks, so they go to " + base +
            " on a local disk [hsa-aperture-violation]";
        const std::pair<const char*, const char*> caches[] = {
            {"TORCH_HOME", "torch"},
            {"XDG_CACHE_HOME", "xdg-cache"},
            {"HF_HOME", "huggingface"},
            {"PIP_CACHE_DIR", "pip"},
            {"MIOPEN_USER_DB_PATH", "miopen-db"},
            {"MIOPEN_CUSTOM_CACHE_DIR", "miopen-cache"},
            {"TRITON_CACHE_DIR", "triton"},
        };
        for (const auto& [var, sub] : caches)
            setEnv(var, base + sep + sub, why);
        for (const auto& r : plan.runtimes) {
            auto v = parseVersion(r.version);
            if (r.kind == "zluda" && v && compareVersions(*v, {3, 9, 6}) >= 0)
                setEnv("ZLUDA_CACHE_DIR", base + sep + "zluda", why);
        }
    }

    plan.envUnset = profile.envUnset;
    for (const auto& k : plan.envUnset)
        if (plan.env.count(k))
            plan.warnings.push_back("profile " + profile.id + " both sets and unsets " + k);
    const auto& cmd = workload->commandByOs.count(snap.os.family)
                          ? workload->commandByOs.at(snap.os.family)
                          : workload->command;
    for (const auto& a : profile.command.empty() ? cmd : profile.command)
        plan.command.push_back(expand(a));
    plan.cwd = expand(profile.cwd.empty() ? workload->cwd : profile.cwd);
    for (const auto& a : profile.args)
        plan.args.push_back(expand(a));
    for (const auto& step : profile.steps) {
        std::vector<std::string> out;
        for (const auto& a : step)
            out.push_back(expand(a));
        plan.steps.push_back(std::move(out));
    }
    for (const auto& w : profile.warnings)
        plan.warnings.push_back(w);
    std::string unpinned;
    for (const auto& r : plan.runtimes)
        if (r.unpinned)
            unpinned += (unpinned.empty() ? "" : ", ") + r.id;
    if (!unpinned.empty())
        plan.warnings.push_back("no pinned SHA-256 yet, so these downloads cannot be verified: " +
                                unpinned);
    return plan;
}

} // namespace sp
