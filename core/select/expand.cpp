#include "core/select/expand.h"

#include "core/catalog/placeholders.h"
#include "core/paths.h"
#include "core/select/select.h"

namespace sp {

namespace {
// {python} may name a runtime folder, whose install_dir may use {data}: three levels
// are enough for the catalog's templates, and the bound stops a cycle in a user file.
constexpr int kMaxDepth = 4;
} // namespace

PlanExpander::PlanExpander(const HardwareSnapshot& snap, const Catalog& cat, const Profile& profile,
                           const GpuInfo* gpu, int vendorIndex, const SelectSettings& settings)
    : m_catalog(cat), m_profile(profile), m_gpu(gpu), m_vendorIndex(vendorIndex),
      m_settings(settings), m_windows(snap.os.family == "windows")
{}

std::string PlanExpander::expand(const std::string& text) const
{
    return expandPlaceholders(text, [&](const std::string& n) { return resolve(n, 0); });
}

std::optional<std::string> PlanExpander::basePython() const
{
    // The loader makes sure a profile that uses {python} or {base_python} has a source
    // for it (catalog_checks.cpp): no plan ever runs a bare system python.
    for (const auto& id : m_profile.runtimes) {
        const Runtime* r = m_catalog.runtime(id);
        if (!r || r->kind != "python")
            continue;
        const auto exe = r->executable.find(m_windows ? "windows" : "linux");
        if (exe == r->executable.end())
            continue;
        std::string rel = exe->second;
        for (auto& c : rel)
            if (c == '/' || c == '\\')
                c = separator()[0];
        return runtimeDir(*r) + separator() + rel;
    }
    return std::nullopt;
}

std::string PlanExpander::runtimeDir(const Runtime& r) const
{
    if (r.installDir.empty())
        return m_settings.dataDir + separator() + "runtimes" + separator() + r.id;
    // An install_dir never names another runtime's folder (no chains to follow).
    return expandPlaceholders(r.installDir, [&](const std::string& n) {
        return n.rfind("runtime:", 0) == 0 ? std::nullopt : resolve(n, 1);
    });
}

std::optional<std::string> PlanExpander::resolve(const std::string& name, int depth) const
{
    if (depth >= kMaxDepth)
        return std::nullopt;
    if (name == "gfx")
        return m_gpu && m_gpu->gfx ? std::optional<std::string>(*m_gpu->gfx) : std::nullopt;
    if (name == "gpu_index")
        return m_gpu ? std::optional<std::string>(std::to_string(m_vendorIndex)) : std::nullopt;
    if (name == "data")
        return m_settings.dataDir;
    if (name == "cache")
        return m_settings.cacheDir;
    if (name == "checks") // StackPilot's own smoke tests, shipped beside the catalog
        return paths::toUtf8(paths::shippedDataDir() / "checks");
    if (name == "venv")
        return m_settings.dataDir + separator() + "venvs" + separator() + m_profile.id;
    if (name == "base_python")
        return basePython();
    if (name == "python") {
        if (!m_profile.python.empty())
            return expandPlaceholders(m_profile.python, [&](const std::string& n) {
                return n == "python" ? std::nullopt : resolve(n, depth + 1);
            });
        if (m_profile.venv)
            return *resolve("venv", depth + 1) + separator() +
                   (m_windows ? "Scripts\\python.exe" : "bin/python");
        return basePython();
    }
    if (name.rfind("runtime:", 0) == 0) {
        const Runtime* r = m_catalog.runtime(name.substr(8));
        return r ? std::optional<std::string>(runtimeDir(*r)) : std::nullopt;
    }
    return std::nullopt;
}

} // namespace sp
