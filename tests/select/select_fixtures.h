#pragma once
// Snapshots built in code and the shipped catalog read from the source tree, so the
// seed tests check the real catalog data and nothing about the host.

#include "core/catalog/loader.h"
#include "core/select/select.h"

#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <fstream>

namespace fixtures {

inline sp::GpuInfo amd(const std::string& name, const std::string& gfx, std::int64_t vram,
                       bool integrated = false)
{
    sp::GpuInfo g;
    g.vendor = sp::Vendor::Amd;
    g.name = name;
    g.gfx = gfx;
    g.vramMb = vram;
    g.integrated = integrated;
    return g;
}

inline sp::GpuInfo nvidia(const std::string& name, const std::string& cc, std::int64_t vram)
{
    sp::GpuInfo g;
    g.vendor = sp::Vendor::Nvidia;
    g.name = name;
    g.computeCapability = cc;
    g.vramMb = vram;
    g.integrated = false;
    return g;
}

inline sp::HardwareSnapshot machine(const std::string& os, std::vector<sp::GpuInfo> gpus,
                                    const std::string& homeFs = "ext4")
{
    sp::HardwareSnapshot s;
    s.os.family = os;
    s.home.path = os == "windows" ? "C:\\Users\\u" : "/home/u";
    s.home.filesystem = homeFs;
    s.home.network = sp::isNetworkFilesystem(homeFs);
    s.gpus = std::move(gpus);
    return s;
}

// The shipped catalog, plus the files of `extraDir` (a --catalog-dir) when given.
inline sp::Catalog loadShippedCatalog(const std::string& extraDir = {})
{
    sp::CatalogLoadOptions o;
    o.builtinDir = STACKPILOT_SOURCE_DIR "/profiles/catalog";
    o.userDir = false;
    if (!extraDir.empty())
        o.extraDirs = {extraDir};
    auto r = sp::loadCatalog(o);
    if (!r)
        qFatal("catalog does not load: %s", r.error().message.c_str());
    return r->catalog;
}

// A catalog from one document's text, references checked; the test stops where it does
// not load.
inline sp::Catalog catalogFromText(const std::string& text, const std::string& name)
{
    sp::CatalogLoader loader;
    auto r = loader.addText(text, name);
    if (!r)
        qFatal("%s", r.error().message.c_str());
    auto refs = loader.checkReferences();
    if (!refs)
        qFatal("%s", refs.error().message.c_str());
    return loader.catalog();
}

inline const sp::Catalog& shippedCatalog()
{
    static const sp::Catalog cat = loadShippedCatalog();
    return cat;
}

// The shipped catalog plus one extra file holding `text`, written into `dir`.
inline sp::Catalog catalogWith(const std::string& text, const QTemporaryDir& dir)
{
    std::ofstream(dir.filePath(QStringLiteral("extra.json")).toStdString()) << text;
    return loadShippedCatalog(dir.path().toStdString());
}

inline sp::SelectSettings settings()
{
    sp::SelectSettings s;
    s.dataDir = "/data/sp";
    s.cacheDir = "/home/u/.cache/stackpilot";
    return s;
}

inline sp::Plan plan(const sp::HardwareSnapshot& snap, const std::string& workload,
                     const sp::SelectSettings& st = settings())
{
    auto p = sp::makePlan(snap, shippedCatalog(), workload, st);
    if (!p)
        qFatal("plan failed: %s", p.error().message.c_str());
    return *p;
}

inline bool hasRuntime(const sp::Plan& p, const std::string& kind, const std::string& idPart = {})
{
    return std::any_of(p.runtimes.begin(), p.runtimes.end(), [&](const sp::PlanRuntime& r) {
        return r.kind == kind && r.id.find(idPart) != std::string::npos;
    });
}

inline bool contains(const std::vector<std::string>& v, const std::string& s)
{
    return std::find(v.begin(), v.end(), s) != v.end();
}

inline const sp::PlanAlternative* alternative(const sp::Plan& p, const std::string& id)
{
    for (const auto& a : p.alternatives)
        if (a.profile == id)
            return &a;
    return nullptr;
}

inline bool citesIssue(const sp::PlanAlternative* a, const std::string& issue)
{
    return a && std::any_of(a->reasons.begin(), a->reasons.end(),
                            [&](const sp::PlanReason& r) { return r.knownIssue == issue; });
}

inline std::string dump(const sp::Plan& p)
{
    return sp::toJson(p).dump(2);
}

} // namespace fixtures
