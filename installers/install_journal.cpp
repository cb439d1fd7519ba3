#include "installers/install_journal.h"

#include "core/json_file.h"
#include "core/paths.h"
#include "core/qt_text.h"

#include <QSaveFile>
#include <nlohmann/json.hpp>

namespace fs = std::filesystem;

namespace sp {

fs::path pendingInstallFile(const fs::path& dataDir)
{
    return dataDir / "pending-install.json";
}

Expected<void> writePendingInstall(const fs::path& file, const PendingInstall& p)
{
    std::error_code ec;
    fs::create_directories(file.parent_path(), ec);
    nlohmann::json j{{"workload", p.workload},
                     {"profile", p.profile},
                     {"runtimes", p.runtimes},
                     {"started", p.started}};
    if (!p.failed.empty())
        j["failed"] = p.failed;
    const std::string text = j.dump(2) + "\n";
    QSaveFile f(qpath(file));
    if (!f.open(QIODevice::WriteOnly) ||
        f.write(text.data(), qint64(text.size())) != qint64(text.size()) || !f.commit())
        return Error::runtime(paths::toUtf8(file) +
                              ": cannot write: " + f.errorString().toStdString());
    return {};
}

std::optional<PendingInstall> readPendingInstall(const fs::path& file)
{
    std::error_code ec;
    if (!fs::is_regular_file(file, ec))
        return std::nullopt;
    auto text = readRegularFile(file, 64 * 1024, "pending install");
    if (!text)
        return std::nullopt;
    try {
        const auto j = nlohmann::json::parse(*text);
        PendingInstall p;
        p.workload = j.at("workload").get<std::string>();
        p.profile = j.at("profile").get<std::string>();
        p.runtimes = j.at("runtimes").get<std::vector<std::string>>();
        p.started = j.value("started", "");
        p.failed = j.value("failed", "");
        if (p.workload.empty() || p.runtimes.empty())
            return std::nullopt;
        return p;
    } catch (const nlohmann::json::exception&) {
        return std::nullopt;
    }
}

void clearPendingInstall(const fs::path& file)
{
    std::error_code ec;
    fs::remove(file, ec);
}

void markPendingInstallFailed(const fs::path& file, const std::string& error)
{
    auto p = readPendingInstall(file);
    if (!p)
        return;
    p->failed = error.empty() ? std::string("failed") : error;
    (void)writePendingInstall(file, *p);
}

} // namespace sp

namespace sp {

std::size_t discardPendingInstall(const fs::path& file, const std::vector<fs::path>& partials)
{
    std::size_t removed = 0;
    for (const fs::path& part : partials) {
        const std::string name = paths::toUtf8(part.filename());
        const bool ours = name.size() == 69 && name.compare(64, 5, ".part") == 0 &&
                          name.find_first_not_of("0123456789abcdef") == 64;
        std::error_code ec;
        if (!ours || !fs::is_regular_file(fs::symlink_status(part, ec)))
            continue;
        removed += fs::remove(part, ec) ? 1 : 0;
        fs::remove(fs::path(part).concat(".lock"), ec);
    }
    clearPendingInstall(file);
    return removed;
}

} // namespace sp
