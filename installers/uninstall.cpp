#include "installers/uninstall.h"

#include "core/launch/profile_env.h"
#include "core/paths.h"
#include "installers/install_lock.h"

#include <algorithm>
#include <chrono>

namespace sp {

namespace fs = std::filesystem;

Expected<void> removeRuntime(const PrefixStore& store, const std::string& id,
                             const std::function<void(const std::string&)>& waiting)
{
    if (auto r = PrefixStore::checkId(id); !r)
        return r;
    std::error_code ec;
    if (!fs::is_directory(store.root(), ec))
        return Error::runtime("runtime '" + id + "' is not installed in " +
                              paths::toUtf8(store.root()));
    // Refuse before taking a lock or cleaning anything.
    if (auto r = store.checkOwnership(id); !r)
        return r;
    if (auto r = store.ensureRoot(); !r)
        return r;
    auto lock = InstallLock::acquire(
        store.root(), id, std::chrono::seconds(30), waiting ? waiting : [](const std::string&) {});
    if (!lock)
        return lock.error();
    store.recover(id);
    return store.remove(id);
}

std::uint64_t treeBytes(const fs::path& dir)
{
    std::uint64_t total = 0;
    std::error_code ec;
    for (fs::recursive_directory_iterator
             it(dir, fs::directory_options::skip_permission_denied, ec),
         end;
         !ec && it != end; it.increment(ec)) {
        std::error_code sizeEc;
        if (it->is_regular_file(sizeEc) && !it->is_symlink(sizeEc))
            total += it->file_size(sizeEc);
    }
    return total;
}

namespace {

bool listed(const std::vector<std::string>& ids, const std::string& id)
{
    return std::find(ids.begin(), ids.end(), id) != ids.end();
}

// Another profile whose runtimes are all installed: an installed stack that still
// needs `runtime`. A variant made of this stack's runtimes only (it differs in options)
// is this install, not another.
bool neededElsewhere(const Catalog& catalog, const PrefixStore& store, const Profile& stack,
                     const std::string& runtime)
{
    for (const Profile& p : catalog.profiles) {
        if (p.id == stack.id || !listed(p.runtimes, runtime) ||
            std::all_of(p.runtimes.begin(), p.runtimes.end(),
                        [&](const std::string& id) { return listed(stack.runtimes, id); }))
            continue;
        const bool installed =
            std::all_of(p.runtimes.begin(), p.runtimes.end(), [&](const std::string& id) {
                const Runtime* r = catalog.runtime(id);
                return (r && r->system) || store.isInstalled(id);
            });
        if (installed)
            return true;
    }
    return false;
}

} // namespace

StackRemoval planStackRemoval(const Catalog& catalog, const PrefixStore& store,
                              const fs::path& dataDir, const std::string& profile)
{
    StackRemoval out;
    out.profile = profile;
    const Profile* p = catalog.profile(profile);
    if (!p)
        return out;
    for (const std::string& id : p->runtimes) {
        const Runtime* r = catalog.runtime(id);
        if (!r || r->system || !store.isInstalled(id) || !store.checkOwnership(id))
            continue;
        if (neededElsewhere(catalog, store, *p, id)) {
            out.kept.push_back(id);
            continue;
        }
        out.runtimes.push_back(id);
        out.bytes += treeBytes(store.runtimeDir(id));
    }
    std::error_code ec;
    const fs::path venv = venvDir(dataDir, profile);
    out.venv = fs::is_directory(venv, ec);
    if (out.venv)
        out.bytes += treeBytes(venv);
    return out;
}

Expected<StackRemoval> removeStack(const Catalog& catalog, const PrefixStore& store,
                                   const fs::path& dataDir, const std::string& profile)
{
    StackRemoval plan = planStackRemoval(catalog, store, dataDir, profile);
    if (!catalog.profile(profile))
        return Error::usage("unknown stack '" + profile + "'");
    for (const std::string& id : plan.runtimes)
        if (auto r = removeRuntime(store, id); !r)
            return Error::runtime(id + ": " + r.error().message);
    if (auto reset = resetProfileState(dataDir, profile); !reset)
        return reset.error();
    return plan;
}

} // namespace sp
