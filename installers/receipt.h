#pragma once
// What an installed runtime consists of: <prefix-root>/<id>.receipt.json. Written
// before the runtime folder is renamed into place (see prefix_store.h for the
// order), so every folder that looks installed has a receipt to check it against.

#include "core/expected.h"
#include "installers/extract_writer.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace sp {

struct ReceiptArtifact
{
    std::string url;    // the catalog URL
    std::string origin; // where the bytes came from (mirror URL, offline file, cache)
    std::string source; // offline | cache | network
    std::string sha256;
    std::uint64_t size = 0;
    std::string format;
    std::string commit; // format git: the commit checked out (HEAD, detached)
};

struct Receipt
{
    int schema = 1;
    std::string id;
    std::string kind;
    std::string version;
    std::string installedAt; // ISO 8601, UTC
    std::vector<ReceiptArtifact> artifacts;
    std::vector<FileRecord> files; // sorted by path
    std::vector<std::string> warnings;
    // Where a vendor installer (exe-installer) put its files, outside the prefix.
    std::string installDir;

    std::string toJson() const;
    static Expected<Receipt> parse(const std::string& text, const std::string& name);
    static Expected<Receipt> load(const std::filesystem::path& file);
    // Write to a temporary file beside `file`, flush to disk, rename over `file`.
    Expected<void> save(const std::filesystem::path& file) const;
};

struct VerifyProblem
{
    std::string path;  // relative, '/'-separated
    std::string issue; // missing | modified | wrong-type | wrong-target | outside-prefix
    std::string detail;
};

// Re-hashes every file of `dir` against `receipt`.
std::vector<VerifyProblem> verifyTree(const std::filesystem::path& dir, const Receipt& receipt);

} // namespace sp
