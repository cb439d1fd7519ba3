#include "core/catalog/feed/update.h"

#include "core/catalog/loader.h"
#include "core/json_file.h"
#include "core/ownership.h"
#include "core/paths.h"
#include "core/qt_text.h"
#include "stackpilot_version.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QFile>
#include <QTemporaryDir>

namespace fs = std::filesystem;

namespace sp::feed {

namespace {

// The public halves of the two keys StackPilot's maintainers sign the feed with.
// Either may sign; the second exists so the first can be retired (docs/FEED.md).
const char* const kShippedKeys[] = {
    "RWRG+3TmqLmv06xrRHO0pFXmHkIkbUQijvUnnuc/y2r5yPBgoZmkBkGO",
    "RWS+7LDM+BLFFPb6ZLV5CoOCTNTokfvmh8IHSW3TIEJdYpfyaW2jp/kY",
};

struct Checked
{
    Manifest manifest;
    Verified verified;
    std::string manifestText;
    std::string signatureText;
};

std::int64_t nowOf(const TrustOptions& o)
{
    return o.now != 0 ? o.now : QDateTime::currentSecsSinceEpoch();
}

Expected<Checked> checkManifest(const FeedSource& source, const TrustOptions& options)
{
    Checked c;
    auto text = source.fetchText("manifest.json", kMaxManifestBytes);
    if (!text)
        return text.error();
    auto sig = source.fetchText("manifest.json.minisig", kMaxSignatureBytes);
    if (!sig)
        return sig.error();
    auto verified =
        verifySignature(*text, *sig, options.keys, source.location() + "/manifest.json.minisig");
    if (!verified)
        return verified.error();
    auto m = parseManifest(*text, source.location() + "/manifest.json");
    if (!m)
        return m.error();
    auto expires = parseUtcTime(m->expires);
    if (!expires || nowOf(options) >= *expires)
        return Error::invalid("feed " + std::to_string(m->version) + " expired at " + m->expires +
                              "; refused");
    c.manifest = std::move(*m);
    c.verified = std::move(*verified);
    c.manifestText = std::move(*text);
    c.signatureText = std::move(*sig);
    return c;
}

Expected<void> checkFile(const FeedFile& f, const fs::path& file)
{
    std::error_code ec;
    const auto size = fs::file_size(file, ec);
    if (ec || size != f.size)
        return Error::invalid(f.path + ": size " + std::to_string(ec ? 0 : size) +
                              " is not the listed " + std::to_string(f.size));
    auto sha = sha256OfFile(file);
    if (!sha)
        return sha.error();
    if (*sha != f.sha256)
        return Error::invalid(f.path + ": SHA-256 " + *sha + " is not the listed " + f.sha256);
    return {};
}

// Fetches and checks every file, then loads the staged catalog as the loader would.
Expected<void> stage(const FeedSource& source, const Checked& c, const fs::path& staging)
{
    const fs::path catalog = staging / "catalog";
    std::error_code ec;
    fs::create_directories(catalog, ec);
    if (ec)
        return Error::runtime(paths::toUtf8(catalog) + ": " + ec.message());
    for (const auto& f : c.manifest.files) {
        if (auto r = source.fetchFile(f, catalog / f.path); !r)
            return r;
        if (auto r = checkFile(f, catalog / f.path); !r)
            return r;
    }
    CatalogLoadOptions o;
    o.userDir = false;
    o.builtinDir = catalog;
    if (auto loaded = loadCatalog(o); !loaded)
        return Error::invalid("the feed's catalog does not load: " + loaded.error().message);
    if (auto r = writeFileAtomic(staging / "manifest.json", c.manifestText); !r)
        return r;
    return writeFileAtomic(staging / "manifest.json.minisig", c.signatureText);
}

// nullopt: this StackPilot may use the feed.
std::optional<UpdateResult> skipForVersion(const Checked& c, const TrustOptions& options)
{
    const std::string mine = options.thisVersion.empty() ? STACKPILOT_VERSION : options.thisVersion;
    if (compareVersions(c.manifest.minStackPilot, mine) <= 0)
        return std::nullopt;
    UpdateResult r{Outcome::Skipped, c.manifest, keyIdHex(c.verified.key.keyId), {}};
    r.message = "feed " + std::to_string(c.manifest.version) + " needs StackPilot " +
                c.manifest.minStackPilot + " or newer (this is " + mine +
                "); skipped, the installed catalog stays";
    return r;
}

} // namespace

std::vector<PublicKey> shippedKeys()
{
    std::vector<PublicKey> out;
    for (const char* k : kShippedKeys)
        if (auto key = parsePublicKey(k))
            out.push_back(*key);
    return out;
}

Expected<std::string> sha256OfFile(const fs::path& file)
{
    QFile f(qpath(file));
    if (!f.open(QIODevice::ReadOnly))
        return Error::runtime(paths::toUtf8(file) + ": " + f.errorString().toStdString());
    QCryptographicHash h(QCryptographicHash::Sha256);
    if (!h.addData(&f))
        return Error::runtime(paths::toUtf8(file) + ": cannot be read");
    return h.result().toHex().toStdString();
}

std::string DirectorySource::location() const
{
    return paths::toUtf8(m_dir);
}

Expected<std::string> DirectorySource::fetchText(const std::string& name,
                                                 std::size_t maxBytes) const
{
    return readRegularFile(m_dir / name, maxBytes, name);
}

Expected<void> DirectorySource::fetchFile(const FeedFile& file, const fs::path& dest) const
{
    auto bytes = readRegularFile(m_dir / file.path, file.size, file.path);
    if (!bytes)
        return Error::invalid(location() + "/" + bytes.error().message);
    return writeFileAtomic(dest, *bytes);
}

Expected<UpdateResult> verifyFeedInto(const FeedSource& source, const TrustOptions& options,
                                      const fs::path& dir)
{
    auto c = checkManifest(source, options);
    if (!c)
        return c.error();
    if (auto skip = skipForVersion(*c, options))
        return *skip;
    if (auto r = stage(source, *c, dir); !r)
        return r.error();
    UpdateResult r{Outcome::Verified, c->manifest, keyIdHex(c->verified.key.keyId), {}};
    r.message = "feed " + std::to_string(c->manifest.version) +
                " verified: " + std::to_string(c->manifest.files.size()) +
                " file(s), signed by key " + r.keyId;
    return r;
}

Expected<UpdateResult> verifyFeed(const FeedSource& source, const TrustOptions& options)
{
    QTemporaryDir tmp;
    if (!tmp.isValid())
        return Error::runtime("no temporary folder: " + tmp.errorString().toStdString());
    return verifyFeedInto(source, options, toPath(tmp.path()));
}

Expected<UpdateResult> updateFeed(const FeedSource& source, const TrustOptions& options,
                                  const FeedStore& store)
{
    auto held = store.lock();
    if (!held)
        return held.error();
    auto state = store.state();
    if (!state)
        return state.error();
    auto c = checkManifest(source, options);
    if (!c)
        return c.error();
    const std::int64_t version = c->manifest.version;
    UpdateResult result{Outcome::UpToDate, c->manifest, keyIdHex(c->verified.key.keyId), {}};
    if (*state && version < (*state)->highestVersion)
        return Error::invalid("feed version " + std::to_string(version) +
                              " is older than version " + std::to_string((*state)->highestVersion) +
                              " already installed; refused (rollback)");
    if (*state && (*state)->active == "v" + std::to_string(version)) {
        result.message = "feed " + std::to_string(version) + " is already in use";
        return result;
    }
    if (auto skip = skipForVersion(*c, options))
        return *skip;
    auto staging = store.createStaging();
    if (!staging)
        return staging.error();
    FeedState next;
    next.source = source.location();
    next.key = c->verified.key.text;
    next.keyId = result.keyId;
    auto done = stage(source, *c, *staging);
    if (done)
        done = store.commit(*staging, c->manifest, next);
    if (!done) {
        (void)ownership::removeOwned(*staging);
        return done.error();
    }
    result.outcome = Outcome::Installed;
    result.message = "catalog feed " + std::to_string(version) + " installed (signed by key " +
                     result.keyId + ")";
    return result;
}

} // namespace sp::feed
