#include "app/common/ledger/share.h"
#include "core/catalog/feed/store.h"
#include "core/json_file.h"

#include <QUrl>

namespace sp::ledger {

namespace fs = std::filesystem;

std::string evidenceKey(const EvidenceRecord& e)
{
    return e.at + "|" + e.profile + "|" + toString(e.kind);
}

std::string recordText(const SharedRecord& r)
{
    return toJson(r).dump(2) + "\n";
}

namespace {

std::set<std::string> keysIn(const fs::path& file, const char* what)
{
    std::set<std::string> keys;
    auto doc = readJsonFile(file, {8u << 20, 4}, what);
    if (doc && doc->is_array())
        for (const auto& k : *doc)
            if (k.is_string())
                keys.insert(k.get<std::string>());
    return keys;
}

Expected<void> addKey(const fs::path& file, const char* what, const std::string& key)
{
    std::set<std::string> keys = keysIn(file, what);
    keys.insert(key);
    std::error_code ec;
    fs::create_directories(file.parent_path(), ec);
    return writeFileAtomic(file, nlohmann::json(keys).dump(1) + "\n");
}

} // namespace

std::set<std::string> sharedKeys(const fs::path& queue)
{
    return keysIn(queue / "shared.json", "shared records index");
}

Expected<void> markShared(const fs::path& queue, const std::set<std::string>& keys)
{
    std::set<std::string> all = sharedKeys(queue);
    all.insert(keys.begin(), keys.end());
    std::error_code ec;
    fs::create_directories(queue, ec);
    return writeFileAtomic(queue / "shared.json", nlohmann::json(all).dump(1) + "\n");
}

bool declined(const fs::path& queue, const std::string& profileAndGpu)
{
    return keysIn(queue / "declined.json", "declined shares").count(profileAndGpu) > 0;
}

Expected<void> decline(const fs::path& queue, const std::string& profileAndGpu)
{
    return addKey(queue / "declined.json", "declined shares", profileAndGpu);
}

Expected<SendReport> shareOne(const fs::path& queue, const std::string& key, const SharedRecord& r,
                              const std::string& ledgerUrl)
{
    if (auto q = enqueue(queue, r); !q)
        return q.error();
    if (auto m = markShared(queue, {key}); !m)
        return m.error();
    SendReport report;
    report.waiting = 1;
    if (!ledgerUrl.empty())
        report = sendQueue(queue, ledgerUrl, std::chrono::system_clock::now(), true);
    return report;
}

std::string ledgerAddress(const std::string& chosen)
{
    if (!chosen.empty())
        return chosen;
    if (const QString env = qEnvironmentVariable("STACKPILOT_LEDGER_URL"); !env.isEmpty())
        return env.toStdString();
    return feed::installedSharing().ledger;
}

std::string reportFormAddress(const std::string& form, const SharedRecord& r)
{
    if (form.empty())
        return {};
    const auto encode = [](const std::string& text) {
        return QUrl::toPercentEncoding(QString::fromStdString(text)).toStdString();
    };
    const std::string title =
        "Result: " + r.profile + " on " + r.pciId + " (" + (r.passed ? "passed" : "failed") + ")";
    return form + (form.find('?') == std::string::npos ? "?" : "&") + "title=" + encode(title) +
           "&record=" + encode(recordText(r));
}

} // namespace sp::ledger
