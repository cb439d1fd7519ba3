#pragma once
// `ledger ingest`: shared records from folders of record files, JSON-lines files and
// exported issue bodies (a record in a ```json fence), each checked before it counts:
// the record's own shape (shared_record.h), a profile the catalog knows, a gfx target or
// compute capability that agrees with the card's PCI id through the PCI tables.

#include "app/common/ledger/ledger_store.h"

#include <filesystem>
#include <functional>
#include <set>
#include <string>
#include <vector>

namespace sp {
class PciTable;
class NvidiaCcTable;
} // namespace sp

namespace sp::ledger {

inline constexpr std::uintmax_t kMaxSourceBytes = 256u << 20; // one JSON-lines file
inline constexpr std::size_t kBatch = 5000;                   // records per transaction

struct IngestChecks
{
    std::set<std::string> profiles; // the catalog's profile ids; empty: any
    const PciTable* pci = nullptr;
    const NvidiaCcTable* nvidia = nullptr;
};

struct IngestReport
{
    std::size_t read = 0;              // records found
    std::size_t added = 0;             // new in the ledger
    std::size_t duplicates = 0;        // already there (same record id)
    std::vector<std::string> rejected; // one line each: "FILE:LINE: reason"
};

// Why `r` cannot count, or "" when it can.
std::string contradiction(const SharedRecord& r, const IngestChecks& checks);

// Reads every source (a file or a folder, folders 4 levels deep at most) into `store`.
// An unreadable source is one rejected line; nothing stops the others.
Expected<IngestReport> ingest(const std::vector<std::filesystem::path>& sources,
                              const IngestChecks& checks, LedgerStore& store);

// The records' texts in one source file, each with where it came from ("f.jsonl:12").
// JSON-lines files give a record per line, .json files one record or a list, other files
// the ```json fences in them.
struct RecordText
{
    std::string where;
    std::string text;
};
Expected<std::vector<RecordText>> recordTexts(const std::filesystem::path& file);

} // namespace sp::ledger
