// `stackpilot-cli evidence share [--yes] [--ledger URL]`: this machine's smoke-test and
// launch records as shared records (docs/LEDGER.md). Without --yes it only shows exactly
// what would be sent. With it, the records not shared before are queued under
// <data>/share-queue/ and, where a ledger URL is set, sent; what fails to send waits there
// for the next try.

#include "app/cli/command.h"
#include "app/cli/commands/machine_options.h"
#include "app/common/ledger/share.h"
#include "core/catalog/feed/store.h"
#include "core/json_file.h"
#include "core/paths.h"

#include <QDate>
#include <ostream>
#include <set>

namespace sp::cli {

namespace {

namespace fs = std::filesystem;

std::int64_t vramOf(const HardwareSnapshot& snap, const std::string& gpu)
{
    for (const auto& g : snap.gpus)
        if (!g.pciId.empty() && gpu.rfind(g.pciId, 0) == 0)
            return g.vramMb.value_or(0);
    return 0;
}

struct Candidates
{
    std::vector<std::pair<std::string, ledger::SharedRecord>> records; // key, record
    std::vector<std::string> refused;
};

Candidates candidates(const std::vector<EvidenceRecord>& records, const std::set<std::string>& done,
                      const std::string& installId, const HardwareSnapshot& snap)
{
    Candidates out;
    for (const auto& e : records) {
        if (e.kind == EvidenceKind::Bench || done.count(ledger::evidenceKey(e)))
            continue;
        auto r = ledger::shareable(e, installId, vramOf(snap, e.machine.gpu));
        if (r)
            out.records.emplace_back(ledger::evidenceKey(e), std::move(*r));
        else
            out.refused.push_back(r.error().message);
    }
    return out;
}

// --ledger, else STACKPILOT_LEDGER_URL, else the installed feed's ledger.
std::string ledgerUrl(const QCommandLineParser& p)
{
    return ledger::ledgerAddress(p.isSet(QStringLiteral("ledger"))
                                     ? toStd(p.value(QStringLiteral("ledger")))
                                     : std::string());
}

// Queues the records, remembers them as shared, and sends the queue where there is a URL.
nlohmann::json queueAndSend(const Candidates& c, const std::string& url, const fs::path& queue,
                            Io& io)
{
    std::set<std::string> keys;
    std::size_t queued = 0;
    for (const auto& [key, r] : c.records) {
        if (auto q = ledger::enqueue(queue, r); !q) {
            io.err << "stackpilot-cli evidence: " << q.error().message << "\n";
            continue;
        }
        keys.insert(key);
        ++queued;
    }
    (void)ledger::markShared(queue, keys);
    nlohmann::json out = {{"queued", queued}, {"queue", paths::toUtf8(queue)}};
    if (url.empty()) {
        // No ledger: the feed's report form, one address per record, for a browser.
        const std::string form = feed::installedSharing().reportForm;
        out["report_forms"] = nlohmann::json::array();
        for (const auto& kr : c.records)
            if (!form.empty())
                out["report_forms"].push_back(ledger::reportFormAddress(form, kr.second));
        return out;
    }
    const auto sent = ledger::sendQueue(queue, url, std::chrono::system_clock::now(), true);
    out["sent"] = sent.sent;
    out["waiting"] = sent.waiting;
    out["errors"] = sent.errors;
    return out;
}

void printOutcome(const nlohmann::json& o, const std::string& url, Io& io)
{
    io.out << o["queued"].get<std::size_t>() << " record(s) queued";
    if (url.empty() && !o["report_forms"].empty()) {
        io.out << "; there is no ledger, so send each with the feed's report form (open the "
                  "address in a browser):\n";
        for (const auto& f : o["report_forms"])
            io.out << f.get<std::string>() << "\n";
        return;
    }
    if (url.empty()) {
        io.out << "; no ledger URL is set (--ledger URL, STACKPILOT_LEDGER_URL or the feed), so "
                  "they wait in "
               << o["queue"].get<std::string>() << "\n";
        return;
    }
    io.out << ", " << o["sent"].get<std::size_t>() << " sent, " << o["waiting"].get<std::size_t>()
           << " waiting for the next try\n";
    for (const auto& e : o["errors"])
        io.err << "stackpilot-cli evidence: not sent: " << e.get<std::string>() << "\n";
}

} // namespace

int runEvidenceShare(const QCommandLineParser& p, Io& io)
{
    const std::string url = ledgerUrl(p);
    if (!url.empty() && !ledger::sendableUrl(url)) {
        io.err << "stackpilot-cli evidence: records go only to an https:// ledger (or http:// on "
                  "127.0.0.1), not "
               << url.substr(0, 80) << "\n";
        return 2;
    }
    auto records = EvidenceStore().records();
    if (!records) {
        io.err << "stackpilot-cli evidence: " << records.error().message << "\n";
        return exitCodeFor(records.error());
    }
    int rc = 0;
    auto machine = machineForCli(p, io, &rc);
    if (!machine)
        return rc;
    const bool yes = p.isSet(QStringLiteral("yes"));
    auto id =
        ledger::installId(paths::configDir() / "install-id.json", QDate::currentDate().year(), yes);
    if (!id) {
        io.err << "stackpilot-cli evidence: " << id.error().message << "\n";
        return 1;
    }
    const fs::path queue = paths::dataDir() / "share-queue";
    const auto c = candidates(*records, ledger::sharedKeys(queue), *id, *machine);
    for (const auto& why : c.refused)
        io.err << "stackpilot-cli evidence: not shareable: " << why << "\n";
    nlohmann::json shown = nlohmann::json::array();
    for (const auto& kr : c.records)
        shown.push_back(ledger::toJson(kr.second));
    if (!yes) {
        // Exactly what would leave this PC, and nothing is written.
        io.out << shown.dump(2) << "\n";
        if (!p.isSet(QStringLiteral("json")))
            io.out << c.records.size()
                   << " record(s) would be shared; `stackpilot-cli evidence share --yes` "
                      "shares them\n";
        return 0;
    }
    const nlohmann::json outcome = queueAndSend(c, url, queue, io);
    if (p.isSet(QStringLiteral("json")))
        io.out << nlohmann::json{{"records", shown}, {"outcome", outcome}}.dump(2) << "\n";
    else
        printOutcome(outcome, url, io);
    return 0;
}

} // namespace sp::cli
