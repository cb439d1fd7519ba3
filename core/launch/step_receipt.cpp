#include "core/launch/step_receipt.h"

#include "core/json_file.h"
#include "core/paths.h"

#include <QCryptographicHash>
#include <algorithm>

namespace fs = std::filesystem;

namespace sp {

namespace {

void addField(QCryptographicHash& h, const std::string& s)
{
    // Length-prefixed, so ["a b"] and ["a", "b"] hash differently.
    const std::string len = std::to_string(s.size()) + ":";
    h.addData(QByteArrayView(len.data(), static_cast<qsizetype>(len.size())));
    h.addData(QByteArrayView(s.data(), static_cast<qsizetype>(s.size())));
}

} // namespace

std::string stepsHash(const Plan& plan)
{
    QCryptographicHash h(QCryptographicHash::Sha256);
    addField(h, "steps");
    for (const auto& step : plan.steps) {
        addField(h, std::to_string(step.size()));
        for (const std::string& arg : step)
            addField(h, arg);
    }
    addField(h, "runtimes");
    for (const PlanRuntime& rt : plan.runtimes)
        for (const std::string* f : {&rt.id, &rt.kind, &rt.version, &rt.dir})
            addField(h, *f);
    addField(h, "env");
    for (const auto& [name, value] : plan.env) {
        addField(h, name);
        addField(h, value);
    }
    return h.result().toHex().toStdString();
}

fs::path stepReceiptFile(const fs::path& dataDir, const std::string& profile)
{
    return dataDir / "steps" / paths::fromUtf8(profile + ".json");
}

bool stepsAlreadyDone(const fs::path& receipt, const std::string& hash)
{
    std::error_code ec;
    if (!fs::exists(receipt, ec))
        return false;
    auto j = readJsonFile(receipt, kSettingsLimits, "step receipt");
    return j && j->is_object() && j->value("hash", "") == hash;
}

Expected<void> writeStepReceipt(const fs::path& receipt, const std::string& hash, std::size_t steps,
                                const std::string& completed)
{
    const nlohmann::json j = {{"hash", hash}, {"completed", completed}, {"steps", steps}};
    return writeFileAtomic(receipt, j.dump(2) + "\n");
}

bool clearStepReceipt(const fs::path& receipt)
{
    std::error_code ec;
    return fs::remove(receipt, ec);
}

std::vector<std::string> clearStepReceiptsUsing(const Catalog& catalog,
                                                const std::string& runtimeId,
                                                const fs::path& dataDir)
{
    std::vector<std::string> cleared;
    for (const Profile& p : catalog.profiles)
        if (std::find(p.runtimes.begin(), p.runtimes.end(), runtimeId) != p.runtimes.end() &&
            clearStepReceipt(stepReceiptFile(dataDir, p.id)))
            cleared.push_back(p.id);
    return cleared;
}

} // namespace sp
