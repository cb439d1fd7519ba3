#include "app/common/ledger/ingest.h"

#include "core/json_file.h"
#include "core/paths.h"
#include "core/strings.h"
#include "detectors/nvidia_cc_table.h"
#include "detectors/pci_table.h"

#include <algorithm>
#include <sstream>

namespace sp::ledger {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::optional<std::uint16_t> deviceOf(const std::string& pciId)
{
    if (pciId.size() != 9)
        return std::nullopt;
    return std::uint16_t(std::stoul(pciId.substr(5), nullptr, 16));
}

std::string amdContradiction(const SharedRecord& r, const PciTable& table)
{
    std::optional<std::uint8_t> revision;
    if (!r.revision.empty())
        revision = std::uint8_t(std::stoul(r.revision, nullptr, 16));
    const auto entry = table.lookup(*deviceOf(r.pciId), revision);
    if (!entry || entry->gfx.empty() || r.arch.empty() || entry->gfx == r.arch)
        return {};
    return "its arch " + r.arch + " contradicts its card " + r.pciId +
           (r.revision.empty() ? "" : " rev " + r.revision) + ", which the PCI table gives " +
           entry->gfx;
}

std::string nvidiaContradiction(const SharedRecord& r, const NvidiaCcTable& table)
{
    const auto cc = table.byDevice(*deviceOf(r.pciId));
    if (!cc || r.arch.empty())
        return {};
    std::string sm = "sm_" + *cc;
    sm.erase(std::remove(sm.begin(), sm.end(), '.'), sm.end());
    if (sm == r.arch)
        return {};
    return "its arch " + r.arch + " contradicts its card " + r.pciId +
           ", which NVIDIA's list gives compute capability " + *cc;
}

std::vector<std::string> fencedJson(const std::string& text)
{
    std::vector<std::string> out;
    std::size_t at = 0;
    while ((at = text.find("```json", at)) != std::string::npos) {
        const auto start = text.find('\n', at);
        const auto end = start == std::string::npos ? start : text.find("```", start);
        if (end == std::string::npos)
            break;
        out.push_back(text.substr(start + 1, end - start - 1));
        at = end + 3;
    }
    return out;
}

void addLines(const std::string& text, const std::string& name, std::vector<RecordText>& out)
{
    std::istringstream in(text);
    std::string line;
    for (std::size_t n = 1; std::getline(in, line); ++n)
        if (!trim(line).empty())
            out.push_back({name + ":" + std::to_string(n), line});
}

void addJsonDocument(const std::string& text, const std::string& name, std::vector<RecordText>& out)
{
    // A list of records is split here, each checked on its own with its index; a
    // nesting too deep for a list of records is left whole, to fail as one record.
    if (!checkJsonDepth(text, name, kMaxRecordDepth + 1).empty()) {
        out.push_back({name, text});
        return;
    }
    const auto doc = json::parse(text, nullptr, false);
    if (doc.is_array()) {
        for (std::size_t i = 0; i < doc.size() && i < 1000000; ++i)
            out.push_back({name + "[" + std::to_string(i) + "]", doc[i].dump()});
        return;
    }
    out.push_back({name, text});
}

Expected<std::vector<fs::path>> filesIn(const fs::path& source)
{
    std::error_code ec;
    if (fs::is_regular_file(source, ec))
        return std::vector<fs::path>{source};
    if (!fs::is_directory(source, ec))
        return Error::invalid(paths::toUtf8(source) + ": no such file or folder");
    std::vector<fs::path> files;
    fs::recursive_directory_iterator it(source, fs::directory_options::none, ec);
    for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
        if (it.depth() >= 4)
            it.disable_recursion_pending(); // a deeper tree is not an export
        if (it->is_regular_file(ec) && !it->is_symlink(ec))
            files.push_back(it->path());
    }
    std::sort(files.begin(), files.end());
    return files;
}

// Checks and stores one source's records, in batches of kBatch.
Expected<void> ingestFile(const fs::path& file, const IngestChecks& checks, LedgerStore& store,
                          IngestReport& report)
{
    auto texts = recordTexts(file);
    if (!texts) {
        report.rejected.push_back(texts.error().message);
        return {};
    }
    std::vector<SharedRecord> batch;
    const auto flush = [&]() -> Expected<void> {
        auto added = store.add(batch);
        if (!added)
            return added.error();
        report.added += *added;
        report.duplicates += batch.size() - *added;
        batch.clear();
        return {};
    };
    for (const auto& t : *texts) {
        ++report.read;
        auto doc = parseJsonText(t.text, t.where, {kMaxRecordBytes, kMaxRecordDepth});
        auto rec = doc ? recordFromJson(*doc, t.where) : Expected<SharedRecord>(doc.error());
        if (!rec) {
            report.rejected.push_back(rec.error().message);
            continue;
        }
        if (const auto why = contradiction(*rec, checks); !why.empty()) {
            report.rejected.push_back(t.where + ": " + why);
            continue;
        }
        batch.push_back(std::move(*rec));
        if (batch.size() >= kBatch)
            if (auto f = flush(); !f)
                return f;
    }
    return batch.empty() ? Expected<void>{} : flush();
}

} // namespace

std::string contradiction(const SharedRecord& r, const IngestChecks& checks)
{
    if (!checks.profiles.empty() && !checks.profiles.count(r.profile))
        return "no profile '" + r.profile + "' in the catalog";
    if (r.pciId.empty())
        return {};
    if (r.pciId.rfind("1002:", 0) == 0 && checks.pci)
        return amdContradiction(r, *checks.pci);
    if (r.pciId.rfind("10de:", 0) == 0 && checks.nvidia)
        return nvidiaContradiction(r, *checks.nvidia);
    return {};
}

Expected<std::vector<RecordText>> recordTexts(const fs::path& file)
{
    const std::string name = paths::toUtf8(file);
    auto text = readRegularFile(file, kMaxSourceBytes, "ledger source");
    if (!text)
        return text.error();
    std::vector<RecordText> out;
    const auto ext = lower(paths::toUtf8(file.extension()));
    if (ext == ".jsonl" || ext == ".ndjson")
        addLines(*text, name, out);
    else if (ext == ".json")
        addJsonDocument(*text, name, out);
    else
        for (const auto& fence : fencedJson(*text))
            out.push_back(
                {name + " (```json block " + std::to_string(out.size() + 1) + ")", fence});
    return out;
}

Expected<IngestReport> ingest(const std::vector<fs::path>& sources, const IngestChecks& checks,
                              LedgerStore& store)
{
    IngestReport report;
    for (const auto& source : sources) {
        auto files = filesIn(source);
        if (!files) {
            report.rejected.push_back(files.error().message);
            continue;
        }
        for (const auto& f : *files)
            if (auto done = ingestFile(f, checks, store, report); !done)
                return done.error();
    }
    return report;
}

} // namespace sp::ledger
