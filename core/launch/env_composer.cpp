// docs/LAUNCH.md, "The composed environment".
#include "core/launch/env_composer.h"

#include "core/strings.h"

#include <algorithm>
#include <cctype>
#include <iterator>
#include <set>

namespace sp {

namespace {

// Linux passes at most 32 pages (MAX_ARG_STRLEN) for one NAME=value; Windows 32,767
// characters for the whole block, which the launch reports by itself.
constexpr std::size_t kMaxVariableBytes = 128 * 1024;

// Variables that pick a GPU, the code a GPU runs, or a GPU stack's install. The
// composed environment owns each of them: the plan sets it, or it goes, whatever the
// profile (docs/LAUNCH.md). Old guides tell people to set them globally.
struct GpuVariable
{
    const char* name;
    bool prefix;   // HIP_PATH_57, CUDA_PATH_V12_4, ...
    bool location; // names an install folder: kept when that is one of the plan's runtimes
    const char* why;
};

constexpr const char* kFilterWhy = "a device filter left in the caller's environment may hide or "
                                   "renumber the GPUs; only the plan pins one";
constexpr GpuVariable kGpuVariables[] = {
    {"HSA_OVERRIDE_GFX_VERSION", false, false,
     "a global HSA override makes ROCm run kernels built for another GPU; the plan sets one "
     "only where the catalog allows it"},
    {"HIP_VISIBLE_DEVICES", false, false, kFilterWhy},
    {"ROCR_VISIBLE_DEVICES", false, false, kFilterWhy},
    {"CUDA_VISIBLE_DEVICES", false, false, kFilterWhy},
    {"GPU_DEVICE_ORDINAL", false, false, kFilterWhy},
    {"ROCM_PATH", false, true, "names a ROCm install that is not one of this profile's runtimes"},
    {"ROCM_HOME", false, true, "names a ROCm install that is not one of this profile's runtimes"},
    {"CUDA_PATH", true, true, "names a CUDA toolkit that is not one of this profile's runtimes"},
    {"CUDA_HOME", false, true, "names a CUDA toolkit that is not one of this profile's runtimes"},
};

std::string runtimeDirOfKind(const Plan& plan, const std::string& kind)
{
    for (const PlanRuntime& rt : plan.runtimes)
        if (rt.kind == kind && !rt.dir.empty())
            return rt.dir;
    return {};
}

// Paths compare as the OS does: on Windows without case and slash direction.
std::string normalPath(std::string p, bool windows)
{
    if (windows) {
        p = lower(p);
        std::replace(p.begin(), p.end(), '/', '\\');
    }
    while (p.size() > 1 && (p.back() == '/' || p.back() == '\\'))
        p.pop_back();
    return p;
}

bool isUnder(const std::string& entry, const std::string& dir, bool windows)
{
    if (dir.empty())
        return false;
    const std::string e = normalPath(entry, windows), d = normalPath(dir, windows);
    return e == d || (e.size() > d.size() && e.compare(0, d.size(), d) == 0 &&
                      (e[d.size()] == '/' || e[d.size()] == '\\'));
}

std::vector<std::string> splitList(const std::string& value, char sep)
{
    std::vector<std::string> out;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= value.size(); ++i) {
        if (i == value.size() || value[i] == sep) {
            if (i > start)
                out.push_back(value.substr(start, i - start));
            start = i + 1;
        }
    }
    return out;
}

// The environment being edited, with Windows' case-insensitive names and a reason
// per variable.
class EnvEditor
{
public:
    EnvEditor(EnvMap env, bool windows) : m_env(std::move(env)), m_windows(windows) {}

    const std::string* find(const std::string& name) const
    {
        const auto it = lookup(name);
        return it == m_env.end() ? nullptr : &it->second;
    }
    std::vector<std::string> namesStartingWith(const std::string& prefix) const
    {
        std::vector<std::string> out;
        for (const auto& [name, value] : m_env)
            if (m_windows ? startsWithNoCase(name, prefix) : name.rfind(prefix, 0) == 0)
                out.push_back(name);
        return out;
    }
    void set(const std::string& name, const std::string& value, const std::string& reason)
    {
        const auto it = lookup(name);
        (it == m_env.end() ? m_env[name] : it->second) = value;
        note(name, reason);
    }
    void erase(const std::string& name, const std::string& reason)
    {
        const auto it = lookup(name);
        if (it == m_env.end())
            return;
        m_env.erase(it);
        note(name, reason);
    }
    std::string key(const std::string& name) const { return m_windows ? lower(name) : name; }
    const EnvMap& env() const { return m_env; }
    const std::map<std::string, std::string>& reasons() const { return m_reasons; }

private:
    EnvMap::const_iterator lookup(const std::string& name) const
    {
        if (!m_windows)
            return m_env.find(name);
        return std::find_if(m_env.begin(), m_env.end(),
                            [&](const auto& kv) { return lower(kv.first) == lower(name); });
    }
    EnvMap::iterator lookup(const std::string& name)
    {
        const auto c = static_cast<const EnvEditor*>(this)->lookup(name);
        return m_env.erase(c, c); // const_iterator -> iterator without moving
    }
    void note(const std::string& name, const std::string& reason)
    {
        std::string& r = m_reasons[key(name)];
        if (r.find(reason) == std::string::npos)
            r += (r.empty() ? "" : "; ") + reason;
    }

    EnvMap m_env;
    bool m_windows;
    std::map<std::string, std::string> m_reasons; // by key()
};

void removeStalePython(EnvEditor& e)
{
    for (const char* name : {"PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "CONDA_PREFIX"})
        e.erase(name, "another Python environment's setting; the profile brings its own");
    e.set("PYTHONNOUSERSITE", "1",
          "packages in the user's site folder must not shadow the profile's");
}

bool planNames(const Plan& plan, const std::string& name, bool windows)
{
    auto same = [&](const std::string& other) {
        return windows ? lower(other) == lower(name) : other == name;
    };
    return std::any_of(plan.env.begin(), plan.env.end(),
                       [&](const auto& kv) { return same(kv.first); }) ||
           std::any_of(plan.envUnset.begin(), plan.envUnset.end(), same);
}

bool namesPlanRuntime(const Plan& plan, const std::string& value, bool windows)
{
    return std::any_of(plan.runtimes.begin(), plan.runtimes.end(),
                       [&](const PlanRuntime& rt) { return isUnder(value, rt.dir, windows); });
}

void removeForeignHipSdk(EnvEditor& e, const Plan& plan, bool windows)
{
    const std::string sdk = runtimeDirOfKind(plan, "hip-sdk");
    for (const std::string& name : e.namesStartingWith("HIP_PATH")) {
        if (planNames(plan, name, windows))
            continue;
        const std::string value = *e.find(name);
        if (sdk.empty())
            e.erase(name, "names a HIP SDK, and this profile uses none");
        else if (normalPath(value, windows) != normalPath(sdk, windows))
            e.erase(name, "names another HIP SDK (" + value + "); the profile's is " + sdk);
    }
}

// Every GPU variable of the caller's that the plan does not set goes, except an
// install folder that is one of the plan's runtimes.
void removeStaleGpuVariables(EnvEditor& e, const Plan& plan, bool windows)
{
    removeForeignHipSdk(e, plan, windows);
    for (const GpuVariable& v : kGpuVariables) {
        const std::string len = v.name;
        for (const std::string& name : e.namesStartingWith(v.name)) {
            if ((!v.prefix && name.size() != len.size()) || planNames(plan, name, windows))
                continue;
            if (v.location && namesPlanRuntime(plan, *e.find(name), windows))
                continue;
            e.erase(name, v.why);
        }
    }
}

// Drops the entries of ROCm or CUDA installs that are not the profile's own.
void filterPathList(EnvEditor& e, const std::string& name, const Plan& plan, bool windows)
{
    const std::string* value = e.find(name);
    if (!value)
        return;
    const char sep = windows ? ';' : ':';
    std::vector<std::string> kept;
    std::vector<std::string> dropped;
    for (const std::string& entry : splitList(*value, sep)) {
        // A CPU profile drops them too: a library found there is loaded by a
        // wheel or tool that probes for a GPU stack, of the wrong version.
        const bool foreign =
            !stackOfPathEntry(entry).empty() && !namesPlanRuntime(plan, entry, windows);
        (foreign ? dropped : kept).push_back(entry);
    }
    if (dropped.empty())
        return;
    e.set(name, join(kept, std::string(1, sep)),
          "entries of a ROCm or CUDA install that is not one of this profile's runtimes "
          "removed: " +
              join(dropped, ", "));
}

void prependRuntimeFolders(EnvEditor& e, const Plan& plan, const std::string& name, bool windows)
{
    if (plan.path.empty())
        return;
    const std::string sep = windows ? ";" : ":";
    std::string value = join(plan.path, sep);
    if (const std::string* old = e.find(name); old && !old->empty())
        value += sep + *old;
    e.set(name, value, "the profile's runtime folders come first");
}

std::vector<EnvChange> difference(const EnvMap& user, const EnvEditor& e, bool windows)
{
    std::map<std::string, EnvChange> byKey;
    for (const auto& [name, value] : user)
        byKey[e.key(name)] = {EnvChange::Removed, name, value, {}, {}};
    for (const auto& [name, value] : e.env()) {
        EnvChange& c = byKey[e.key(name)];
        c.kind = c.name.empty() ? EnvChange::Added : EnvChange::Changed;
        c.name = name;
        c.after = value;
    }
    std::vector<EnvChange> out;
    for (auto& [key, c] : byKey) {
        if (c.kind == EnvChange::Changed && c.before == c.after)
            continue;
        const auto why = e.reasons().find(key);
        c.reason = why == e.reasons().end() ? std::string() : why->second;
        out.push_back(std::move(c));
    }
    (void)windows;
    return out;
}

// Why a variable of the plan cannot reach a process as the dry run shows it, or null.
const char* unpassable(const std::string& name, const std::string& value)
{
    if (name.empty() || name.find_first_of(std::string("=\0", 2)) != std::string::npos)
        return "not set: a name holding '=' (or empty) would reach the workload as another "
               "variable";
    if (value.find('\0') != std::string::npos)
        return "not set: a value holding a NUL byte would reach the workload cut short";
    if (name.size() + 1 + value.size() >= kMaxVariableBytes)
        return "not set: longer than the 128 KiB a process may be given for one variable";
    return nullptr;
}

} // namespace

const char* toString(EnvChange::Kind k)
{
    return k == EnvChange::Added ? "added" : k == EnvChange::Changed ? "changed" : "removed";
}

bool isGpuVariable(const std::string& name, bool windows)
{
    std::string n = name;
    if (windows)
        for (char& c : n)
            c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (n.rfind("HIP_PATH", 0) == 0)
        return true;
    return std::any_of(
        std::begin(kGpuVariables), std::end(kGpuVariables),
        [&](const GpuVariable& v) { return v.prefix ? n.rfind(v.name, 0) == 0 : n == v.name; });
}

std::string stackOfPathEntry(const std::string& entry)
{
    std::string p = lower(entry);
    std::replace(p.begin(), p.end(), '\\', '/');
    for (const char* rocm : {"/opt/rocm", "/amd/rocm/", "/rocm-", "/hip sdk"})
        if (p.find(rocm) != std::string::npos)
            return "rocm";
    for (const char* cuda :
         {"/usr/local/cuda", "/opt/cuda", "/nvidia gpu computing toolkit/cuda", "/cuda-"})
        if (p.find(cuda) != std::string::npos)
            return "cuda";
    return {};
}

ComposedLaunch composeLaunch(const Plan& plan, const EnvMap& user, const std::string& os,
                             const std::vector<std::string>& extraArgs)
{
    const bool windows = os == "windows";
    EnvEditor e(user, windows);
    removeStalePython(e);
    removeStaleGpuVariables(e, plan, windows);
    filterPathList(e, "PATH", plan, windows);
    prependRuntimeFolders(e, plan, "PATH", windows);
    if (!windows) {
        filterPathList(e, "LD_LIBRARY_PATH", plan, windows);
        prependRuntimeFolders(e, plan, "LD_LIBRARY_PATH", windows);
    }
    for (const std::string& name : plan.envUnset)
        e.erase(name, "the profile unsets it");
    std::vector<EnvChange> refused;
    for (const auto& [name, value] : plan.env) {
        if (const char* why = unpassable(name, value)) {
            refused.push_back({EnvChange::Removed, name, value, {}, why});
            continue;
        }
        const auto why = plan.envWhy.find(name);
        e.set(name, value, why == plan.envWhy.end() ? "set by the profile" : why->second);
    }
    ComposedLaunch out;
    out.changes = difference(user, e, windows);
    if (!refused.empty()) {
        out.changes.insert(out.changes.end(), refused.begin(), refused.end());
        std::stable_sort(out.changes.begin(), out.changes.end(),
                         [](const EnvChange& a, const EnvChange& b) { return a.name < b.name; });
    }
    out.env = e.env();
    out.argv = plan.command;
    out.argv.insert(out.argv.end(), plan.args.begin(), plan.args.end());
    out.argv.insert(out.argv.end(), extraArgs.begin(), extraArgs.end());
    out.cwd = plan.cwd;
    return out;
}

} // namespace sp
