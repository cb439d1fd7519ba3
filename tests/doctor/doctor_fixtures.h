#pragma once
// A DoctorInput over fixtures: a snapshot built in code, the shipped catalog, a temp
// folder as the filesystem root, and no host probes unless a test sets them.

#include "app/common/doctor/doctor.h"
#include "select/select_fixtures.h"

#include <QTemporaryDir>
#include <algorithm>
#include <filesystem>
#include <fstream>

namespace doctor_fixtures {

namespace fs = std::filesystem;

inline sp::doctor::DoctorInput inputFor(const sp::HardwareSnapshot& snap,
                                        const sp::Catalog& catalog, const QTemporaryDir& dir)
{
    sp::doctor::DoctorInput in;
    in.snapshot = &snap;
    in.catalog = &catalog;
    const std::string root = dir.path().toStdString();
    in.fsRoot = root;
    in.dataDir = root + "/data";
    in.runtimesDir = root + "/data/runtimes";
    in.uid = 1000;
    in.gids = {1000};
    return in;
}

inline bool hasFinding(const std::vector<sp::doctor::Finding>& findings, const std::string& id)
{
    return std::any_of(findings.begin(), findings.end(),
                       [&](const sp::doctor::Finding& f) { return f.id == id; });
}

inline void touch(const fs::path& p)
{
    fs::create_directories(p.parent_path());
    std::ofstream(p) << "x";
}

} // namespace doctor_fixtures
