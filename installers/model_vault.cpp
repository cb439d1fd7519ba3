#include "installers/model_vault.h"

#include "core/format.h"
#include "core/locked_json.h"
#include "core/paths.h"
#include "installers/install_lock.h"
#include "installers/model_pieces.h"

#include <algorithm>

namespace sp {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr JsonLimits kIndexLimits{16u << 20, 8};
// Room left beside a pull for everything else on the disk (logs, the index, a cache).
constexpr std::uint64_t kDiskMargin = 64u << 20;

VaultFile fromJson(const json& j)
{
    VaultFile f;
    f.sha256 = j.value("sha256", "");
    f.size = j.value("size", std::uint64_t(0));
    f.name = j.value("name", "");
    f.model = j.value("model", "");
    f.source = j.value("source", "");
    const std::string s = j.value("storage", "owned");
    f.storage = s == "linked"       ? VaultStorage::Linked
                : s == "referenced" ? VaultStorage::Referenced
                                    : VaultStorage::Owned;
    f.path = paths::fromUtf8(j.value("path", ""));
    return f;
}

fs::path indexFile(const fs::path& root)
{
    return root / "index.json";
}

std::uint64_t sizeOr0(const fs::path& p)
{
    std::error_code ec;
    const auto n = fs::file_size(p, ec);
    return ec ? 0 : std::uint64_t(n);
}

Expected<void> checkSpace(const fs::path& root, std::uint64_t need, const ModelFile& file)
{
    std::error_code ec;
    fs::create_directories(root, ec);
    const auto space = fs::space(root, ec);
    if (ec || std::uint64_t(space.available) >= need + kDiskMargin)
        return {};
    return Error::runtime(file.displayName() + " needs " + format::bytes(need) + " more on " +
                          paths::toUtf8(root) + ", and " + format::bytes(space.available) +
                          " is free; nothing was downloaded")
        .withCause(Cause::DiskFull);
}

} // namespace

json toJson(const VaultFile& f)
{
    return {{"sha256", f.sha256},
            {"size", f.size},
            {"name", f.name},
            {"model", f.model},
            {"source", f.source},
            {"storage", toString(f.storage)},
            {"path", paths::toUtf8(f.path)}};
}

const char* toString(VaultStorage s)
{
    switch (s) {
    case VaultStorage::Linked:
        return "linked";
    case VaultStorage::Referenced:
        return "referenced";
    case VaultStorage::Owned:
        break;
    }
    return "owned";
}

ModelVault::ModelVault(fs::path root) : m_root(std::move(root)) {}

fs::path ModelVault::defaultRoot()
{
    return paths::dataDir() / "models";
}

fs::path ModelVault::blobPath(const std::string& sha256) const
{
    return m_root / "blobs" / ("sha256-" + sha256);
}

Expected<std::vector<VaultFile>> ModelVault::files() const
{
    auto doc = readJsonDocument(indexFile(m_root), kIndexLimits, "model index");
    if (!doc)
        return doc.error();
    std::vector<VaultFile> out;
    if (doc->contains("files") && (*doc)["files"].is_array())
        for (const json& j : (*doc)["files"])
            if (j.is_object())
                out.push_back(fromJson(j));
    return out;
}

Expected<void> ModelVault::record(const std::vector<VaultFile>& files)
{
    return updateJsonDocument(indexFile(m_root), kIndexLimits, "model index", [&](json& doc) {
        json& list = doc["files"];
        if (!list.is_array())
            list = json::array();
        for (const VaultFile& f : files) {
            auto same = [&](const json& j) {
                return j.value("sha256", "") == f.sha256 && j.value("model", "") == f.model;
            };
            list.erase(std::remove_if(list.begin(), list.end(), same), list.end());
            list.push_back(toJson(f));
        }
        doc["schema_version"] = 1;
        return Expected<void>{};
    });
}

std::optional<fs::path> ModelVault::pathOf(const Model& model) const
{
    auto known = files();
    if (!known)
        return std::nullopt;
    std::optional<fs::path> first;
    for (const ModelFile& f : model.files) {
        auto it = std::find_if(known->begin(), known->end(),
                               [&](const VaultFile& v) { return v.sha256 == f.sha256; });
        std::error_code ec;
        if (it == known->end() || !fs::is_regular_file(it->path, ec))
            return std::nullopt;
        if (!first)
            first = it->path;
    }
    return first;
}

Expected<PullReport> ModelVault::pull(const Model& model, const PullOptions& options)
{
    PullReport report;
    report.model = model.id;
    report.alreadyThere = true;
    for (const ModelFile& file : model.files) {
        auto got = pullFile(model, file, options, report);
        if (!got)
            return got.error();
        report.files.push_back(*got);
    }
    if (auto r = record(report.files); !r)
        return r.error();
    return report;
}

Expected<VaultFile> ModelVault::pullFile(const Model& model, const ModelFile& file,
                                         const PullOptions& options, PullReport& report)
{
    VaultFile v{file.sha256, file.size,           file.displayName(),   model.id,
                file.url,    VaultStorage::Owned, blobPath(file.sha256)};
    if (sizeOr0(v.path) == file.size)
        return v; // named by its digest; `models verify` re-hashes
    report.alreadyThere = false;
    // Two pulls of one file share its transfer: the second waits for the first and then
    // finds the blob. Across processes too (a QLockFile: a killed pull holds nothing).
    auto lock = InstallLock::acquire(
        m_root / "partial", "pull-" + file.sha256, std::chrono::milliseconds(-1),
        [&](const std::string&) {
            report.notes.push_back(file.displayName() +
                                   ": another pull of it is under way; waiting for it");
        },
        options.cancel);
    if (!lock)
        return lock.error();
    if (sizeOr0(v.path) == file.size) {
        report.notes.push_back(file.displayName() +
                               " arrived with the other pull: nothing fetched");
        return v;
    }
    return fetchFile(file, std::move(v), options, report);
}

// The transfer itself, under the file's pull lock: into incoming/, piece by piece where
// the catalog gives pieces, then renamed into blobs/.
Expected<VaultFile> ModelVault::fetchFile(const ModelFile& file, VaultFile v,
                                          const PullOptions& options, PullReport& report)
{
    DownloadRequest request;
    request.urls = {file.url};
    request.urls.insert(request.urls.end(), file.mirrors.begin(), file.mirrors.end());
    request.size = file.size;
    request.partialFile = m_root / "partial" / (file.sha256 + ".part");
    if (auto space =
            checkSpace(m_root, file.size - std::min(file.size, sizeOr0(request.partialFile)), file);
        !space)
        return space.error();
    DownloaderOptions o = options.downloader;
    o.cacheDir = m_root / "incoming"; // the same filesystem as blobs/: a rename, no copy
    const Downloader downloader(o);
    std::optional<PieceChecker> pieces;
    DiscardSink none; // the downloader checks the whole file's digest itself
    if (file.chunks) {
        // The pieces are checked here, so a wrong file is kept to be repaired, not dropped.
        pieces.emplace(*file.chunks);
        request.loopbackHttpUnpinned = true;
    } else {
        request.sha256 = file.sha256;
    }
    ByteSink& sink = pieces ? static_cast<ByteSink&>(*pieces) : none;
    auto fetched = downloader.fetch(request, sink, options.progress, options.cancel);
    if (!fetched && !pieces && fetched.error().cause == Cause::Checksum) {
        report.notes.push_back(file.displayName() +
                               ": the file's SHA-256 did not match and the catalog gives no "
                               "piece digests, so all of it was fetched again");
        fetched = downloader.fetch(request, sink, options.progress, options.cancel);
    }
    if (!fetched)
        return fetched.error();
    report.networkBytes += fetched->networkBytes;
    report.replayedBytes += fetched->replayedBytes;
    if (pieces && fetched->sha256 != file.sha256) {
        if (pieces->bad().empty())
            return Error::runtime(file.displayName() +
                                  ": every piece matched but the file's "
                                  "SHA-256 did not; the catalog's piece digests are wrong")
                .withCause(Cause::Checksum);
        auto fixed =
            repairPieces(fetched->file, file, pieces->bad(), request.urls, o, options.cancel);
        if (!fixed)
            return fixed.error();
        report.piecesRefetched += *fixed;
        report.notes.push_back(file.displayName() + ": " + std::to_string(pieces->bad().size()) +
                               " of " + std::to_string(file.chunks->sha256.size()) +
                               " pieces were wrong and were fetched again alone");
        auto whole = Sha256::ofFile(fetched->file);
        if (!whole || *whole != file.sha256) {
            std::error_code ec;
            fs::remove(fetched->file, ec);
            return Error::runtime(file.displayName() + ": still not the expected file after its "
                                                       "pieces were repaired")
                .withCause(Cause::Checksum);
        }
    }
    std::error_code ec;
    fs::create_directories(v.path.parent_path(), ec);
    fs::rename(fetched->file, v.path, ec);
    if (ec)
        return Error::runtime("cannot move " + file.displayName() +
                              " into the vault: " + ec.message());
    return v;
}

Expected<std::vector<std::string>> ModelVault::verify() const
{
    auto known = files();
    if (!known)
        return known.error();
    std::vector<std::string> changed;
    for (const VaultFile& f : *known) {
        auto got = Sha256::ofFile(f.path);
        if (!got)
            changed.push_back(f.name + ": " + got.error().message);
        else if (*got != f.sha256)
            changed.push_back(f.name + ": its bytes changed (" + paths::toUtf8(f.path) + ")");
    }
    return changed;
}

Expected<std::uint64_t> ModelVault::remove(const std::string& model)
{
    auto known = files();
    if (!known)
        return known.error();
    std::uint64_t freed = 0;
    std::vector<std::string> gone;
    auto sharedWithAnother = [&](const VaultFile& f) {
        return std::any_of(known->begin(), known->end(), [&](const VaultFile& o) {
            return o.model != model && o.sha256 == f.sha256;
        });
    };
    for (const VaultFile& f : *known) {
        if (f.model != model)
            continue;
        // Only a blob of StackPilot's own, at the place the vault names by digest, and
        // only when no other model's entry uses the same bytes.
        if (f.storage != VaultStorage::Referenced && f.path == blobPath(f.sha256) &&
            !sharedWithAnother(f)) {
            std::error_code ec;
            if (fs::remove(f.path, ec) && f.storage == VaultStorage::Owned)
                freed += f.size;
        }
        gone.push_back(f.sha256);
    }
    if (gone.empty())
        return Error::usage("no model '" + model + "' is in the vault");
    auto r = updateJsonDocument(indexFile(m_root), kIndexLimits, "model index", [&](json& doc) {
        json& list = doc["files"];
        if (list.is_array())
            list.erase(std::remove_if(list.begin(), list.end(),
                                      [&](const json& j) { return j.value("model", "") == model; }),
                       list.end());
        return Expected<void>{};
    });
    if (!r)
        return r.error();
    return freed;
}

} // namespace sp
