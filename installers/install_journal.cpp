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
    const std::string text = nlohmann::json{{"workload", p.workload},
                                            {"profile", p.profile},
                                            {"runtimes", p.runtimes},
                                            {"started", p.started}}
                                 .dump(2) +
                             "\n";
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

} // namespace sp
