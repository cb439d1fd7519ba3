#include "core/catalog/feed/update.h"

#include "core/catalog/feed/held_folder.h"
#include "core/catalog/loader.h"
#include "core/json_file.h"
#include "core/ownership.h"
#include "core/paths.h"
#include "core/qt_text.h"
#include "stackpilot_version.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QFile>

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

inline constexpr std::int64_t kClockSlackSeconds = 24 * 60 * 60;

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
    // A day of clock difference is tolerated; a feed "published" later than that is
    // either mis-made or this machine's clock is wrong, and neither is taken.
    auto published = parseUtcTime(m->published);
    if (!published || *published > nowOf(options) + kClockSlackSeconds)
        return Error::invalid(source.location() + "/manifest.json: /published: " + m->published +
                              " is in the future (check this machine's clock); refused");
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

DirectorySource::DirectorySource(fs::path dir) : m_dir(std::move(dir))
{
    while (m_dir.has_relative_path() && !m_dir.has_filename()) // "feed/" -> "feed"
        m_dir = m_dir.parent_path();
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
    // The error names the file's whole path already.
    auto bytes = readRegularFile(m_dir / file.path, file.size, "listed feed file");
    if (!bytes)
        return bytes.error();
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
    // A held folder (held_folder.h): an interrupted verify leaves nothing for good.
    removeAbandonedFeedTemps();
    auto tmp = createHeldFolderIn(toPath(QDir::tempPath()), kFeedTempPrefix,
                                  "a catalog feed being verified");
    if (!tmp)
        return tmp.error();
    auto r = verifyFeedInto(source, options, *tmp);
    (void)ownership::removeOwned(*tmp);
    return r;
}

namespace {

// The rollback rule and its bounds, against the floor of the manifest's feed and key.
Expected<void> checkVersion(const std::optional<FeedState>& st, const Manifest& m,
                            const std::string& keyId)
{
    const std::string v = std::to_string(m.version);
    const std::string which = "feed \"" + m.feed + "\" version " + v;
    if (m.version > kMaxFeedVersion)
        return Error::invalid(which + " is above 2^31 (" + std::to_string(kMaxFeedVersion) +
                              "); refused");
    const FeedCounter* c = st ? st->counterFor(m.feed, keyId) : nullptr;
    if (!c)
        return {};
    const std::string h = std::to_string(c->highest);
    if (m.version < c->highest)
        return Error::invalid(which + " is older than version " + h +
                              " already installed; refused (rollback)");
    if (m.version - c->highest > kMaxVersionJump)
        return Error::invalid(which + " jumps more than " + std::to_string(kMaxVersionJump) +
                              " past version " + h + " installed; refused (`catalog reset-feed " +
                              m.feed + "` accepts it)");
    return {};
}

// True when the version in use is this very feed's, version and key.
bool alreadyInUse(const std::optional<FeedState>& st, const FeedStore& store, const Manifest& m,
                  const std::string& keyId)
{
    if (!st || st->active != "v" + std::to_string(m.version) || st->keyId != keyId)
        return false;
    for (const auto& v : store.kept())
        if (v.folder.filename() == st->active)
            return v.manifest.feed == m.feed;
    return false;
}

// Every check that needs the store's state; nullopt: go on and install.
Expected<std::optional<UpdateResult>> checkAgainst(const FeedStore& store, const Checked& c,
                                                   const TrustOptions& options)
{
    auto state = store.state();
    if (!state)
        return state.error();
    const std::string keyId = keyIdHex(c.verified.key.keyId);
    if (auto ok = checkVersion(*state, c.manifest, keyId); !ok)
        return ok.error();
    if (alreadyInUse(*state, store, c.manifest, keyId)) {
        UpdateResult r{Outcome::UpToDate, c.manifest, keyId, {}};
        r.message = "feed " + std::to_string(c.manifest.version) + " is already in use";
        return std::optional<UpdateResult>{r};
    }
    return std::optional<UpdateResult>{skipForVersion(c, options)};
}

// Takes the store's lock, checks the state again (another StackPilot may have switched
// while this one downloaded) and switches to the staged version.
Expected<std::optional<UpdateResult>> install(const FeedStore& store, const Checked& c,
                                              const TrustOptions& options, const fs::path& staging,
                                              FeedState next)
{
    auto held = store.lock();
    if (!held)
        return held.error();
    auto again = checkAgainst(store, c, options);
    if (!again || *again)
        return again;
    if (auto r = store.commit(staging, c.manifest, std::move(next)); !r)
        return r.error();
    return std::optional<UpdateResult>{};
}

} // namespace

Expected<UpdateResult> updateFeed(const FeedSource& source, const TrustOptions& options,
                                  const FeedStore& store)
{
    auto c = checkManifest(source, options);
    if (!c)
        return c.error();
    // Checked before the download, so a refused feed costs no transfer, and again under
    // the lock before the switch.
    if (auto early = checkAgainst(store, *c, options); !early || *early)
        return early ? **early : Expected<UpdateResult>(early.error());
    // Downloaded without the lock: a slow server never blocks a rollback or the
    // window's daily check.
    auto staging = store.createStaging();
    if (!staging)
        return staging.error();
    FeedState next;
    next.source = source.location();
    next.key = c->verified.key.text;
    next.keyId = keyIdHex(c->verified.key.keyId);
    auto done = stage(source, *c, *staging);
    Expected<std::optional<UpdateResult>> installed = std::optional<UpdateResult>{};
    if (done)
        installed = install(store, *c, options, *staging, next);
    (void)ownership::removeOwned(*staging); // gone already when it was switched to
    if (!done)
        return done.error();
    if (!installed || *installed)
        return installed ? **installed : Expected<UpdateResult>(installed.error());
    UpdateResult result{Outcome::Installed, c->manifest, next.keyId, {}};
    result.message = "catalog feed " + std::to_string(c->manifest.version) +
                     " installed (signed by key " + result.keyId + ")";
    return result;
}

} // namespace sp::feed
