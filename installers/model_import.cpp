#include "installers/model_import.h"

#include "core/json_file.h"
#include "core/locked_json.h"
#include "core/paths.h"
#include "installers/file_identity.h"
#include "installers/sha256.h"

#include <algorithm>
#include <cstdlib>

namespace sp {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr int kMaxDepth = 8;
constexpr int kMaxEntries = 100000;
constexpr JsonLimits kManifestLimits{1u << 20, 16};
constexpr JsonLimits kCacheLimits{16u << 20, 4};

bool isModelFile(const fs::path& p)
{
    const std::string ext = paths::toUtf8(p.extension());
    return ext == ".gguf" || ext == ".safetensors";
}

// Every entry below `root`, at most kMaxDepth deep and kMaxEntries in all; folder links
// are not followed (a loop, or a way out of the folder the user named).
template <class Fn> void walk(const fs::path& root, Fn&& fn)
{
    std::error_code ec;
    fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec);
    int seen = 0;
    for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
        if (++seen > kMaxEntries)
            break;
        if (it.depth() >= kMaxDepth)
            it.disable_recursion_pending();
        fn(it->path());
    }
}

std::string relativeName(const fs::path& p, const fs::path& root)
{
    // Lexically: a snapshot's file is a link, and its own name is the one that counts.
    const fs::path r = p.lexically_relative(root);
    return paths::toUtf8(r.empty() ? p.filename() : fs::path(r.generic_string()));
}

// models--ORG--NAME/snapshots/REV/FILE, a link into ../../blobs: named ORG/NAME/FILE.
void findHuggingFace(const fs::path& root, std::vector<FoundModel>& out)
{
    walk(root, [&](const fs::path& p) {
        const std::string s = relativeName(p, root);
        const auto snap = s.find("/snapshots/");
        if (s.rfind("models--", 0) != 0 || snap == std::string::npos || !isModelFile(p))
            return;
        std::string repo = s.substr(8, snap - 8);
        for (std::size_t at; (at = repo.find("--")) != std::string::npos;)
            repo.replace(at, 2, "/");
        std::error_code ec;
        const fs::path bytes = fs::canonical(p, ec);
        if (!ec)
            out.push_back({bytes, repo + "/" + paths::toUtf8(p.filename()), "huggingface"});
    });
}

// manifests/HOST/NAMESPACE/MODEL/TAG (JSON) names the model layer blobs/sha256-HEX.
void findOllama(const fs::path& root, std::vector<FoundModel>& out)
{
    walk(root / "manifests", [&](const fs::path& p) {
        std::error_code ec;
        if (!fs::is_regular_file(p, ec))
            return;
        auto doc = readJsonFile(p, kManifestLimits, "ollama manifest");
        if (!doc || !doc->is_object() || !(*doc)["layers"].is_array())
            return;
        for (const json& layer : (*doc)["layers"]) {
            if (!layer.is_object() ||
                layer.value("mediaType", "") != "application/vnd.ollama.image.model")
                continue;
            std::string digest = layer.value("digest", "");
            std::replace(digest.begin(), digest.end(), ':', '-');
            const fs::path blob = root / "blobs" / digest;
            const std::string model = paths::toUtf8(p.parent_path().filename());
            if (fs::is_regular_file(blob, ec))
                out.push_back({blob, model + ":" + paths::toUtf8(p.filename()), "ollama"});
        }
    });
}

void findInFolder(const fs::path& root, std::vector<FoundModel>& out)
{
    walk(root, [&](const fs::path& p) {
        std::error_code ec;
        if (isModelFile(p) && fs::is_regular_file(p, ec))
            out.push_back({p, relativeName(p, root), "folder"});
    });
}

// The digest of `file`, from the cache while its identity is unchanged.
Expected<std::string> digestOf(const fs::path& file, json& cache, ImportReport& report)
{
    const auto id = fileIdentity(file);
    if (!id)
        return Error::runtime(paths::toUtf8(file) + ": cannot be read");
    if (const auto it = cache.find(id->key()); it != cache.end() && it->is_string())
        return it->get<std::string>();
    auto sha = Sha256::ofFile(file);
    if (!sha)
        return sha.error();
    ++report.hashed;
    cache[id->key()] = *sha;
    return *sha;
}

// A hard link in the vault to the user's file (same filesystem: no byte copied), or the
// file referenced where it is.
VaultFile place(ModelVault& vault, const FoundModel& f, const std::string& sha,
                ImportReport& report)
{
    VaultFile v{sha,
                0,
                paths::toUtf8(f.file.filename()),
                f.name,
                paths::toUtf8(f.file),
                VaultStorage::Referenced,
                f.file};
    std::error_code ec;
    v.size = std::uint64_t(fs::file_size(f.file, ec));
    const fs::path blob = vault.blobPath(sha);
    fs::create_directories(blob.parent_path(), ec);
    if (fs::exists(blob, ec) && fs::equivalent(blob, f.file, ec)) {
        v.storage = VaultStorage::Linked; // linked by an earlier import
        v.path = blob;
    } else if (!fs::exists(blob, ec) && (fs::create_hard_link(f.file, blob, ec), !ec)) {
        v.storage = VaultStorage::Linked;
        v.path = blob;
        ++report.linked;
    } else {
        ++report.referenced;
    }
    return v;
}

} // namespace

std::vector<FoundModel> findModels(const fs::path& root)
{
    std::vector<FoundModel> out;
    std::error_code ec;
    bool huggingFace = false;
    for (fs::directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec))
        huggingFace = huggingFace || paths::toUtf8(it->path().filename()).rfind("models--", 0) == 0;
    if (fs::is_directory(root / "manifests", ec) && fs::is_directory(root / "blobs", ec))
        findOllama(root, out);
    else if (huggingFace)
        findHuggingFace(root, out);
    else
        findInFolder(root, out);
    return out;
}

std::vector<fs::path> defaultModelFolders()
{
    auto env = [](const char* name) -> fs::path {
        const char* v = std::getenv(name);
        return v && *v ? paths::fromUtf8(v) : fs::path();
    };
    const fs::path home = env("HOME").empty() ? env("USERPROFILE") : env("HOME");
    std::vector<fs::path> candidates = {env("HF_HUB_CACHE"),
                                        env("HF_HOME").empty() ? fs::path()
                                                               : env("HF_HOME") / "hub",
                                        home / ".cache" / "huggingface" / "hub",
                                        env("OLLAMA_MODELS"),
                                        home / ".ollama" / "models",
                                        home / ".lmstudio" / "models",
                                        home / ".cache" / "lm-studio" / "models"};
    std::vector<fs::path> out;
    std::error_code ec;
    for (const fs::path& c : candidates)
        if (!c.empty() && fs::is_directory(c, ec) &&
            std::find(out.begin(), out.end(), c) == out.end())
            out.push_back(c);
    return out;
}

Expected<ImportReport> importModels(ModelVault& vault, const std::vector<FoundModel>& found)
{
    ImportReport report;
    const fs::path cacheFile = vault.root() / "hash-cache.json";
    auto cache = readJsonDocument(cacheFile, kCacheLimits, "model hash cache");
    if (!cache)
        return cache.error();
    for (const FoundModel& f : found) {
        auto sha = digestOf(f.file, *cache, report);
        if (!sha) {
            report.skipped.push_back(f.name + ": " + sha.error().message);
            continue;
        }
        report.files.push_back(place(vault, f, *sha, report));
    }
    if (auto w = writeFileAtomic(cacheFile, cache->dump()); !w)
        return w.error();
    if (auto r = vault.record(report.files); !r)
        return r.error();
    return report;
}

} // namespace sp
