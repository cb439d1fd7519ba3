#include "installers/installer.h"

#include "core/os_family.h"
#include "core/paths.h"
#include "installers/exe_installer.h"
#include "installers/extract.h"
#include "installers/git_checkout.h"
#include "installers/install_lock.h"
#include "installers/pin_store.h"

#include <QDateTime>
#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <thread>

namespace fs = std::filesystem;

namespace sp {

namespace {

std::string mib(std::uint64_t bytes)
{
    return std::to_string((bytes + (1 << 20) - 1) >> 20) + " MiB";
}

} // namespace

Installer::Installer(InstallOptions options) : m_o(std::move(options)), m_store(m_o.prefixRoot)
{
    FetchOptions fo;
    fo.offlineDir = m_o.offlineDir;
    fo.allowNetwork = m_o.allowNetwork;
    fo.settings = m_o.settings;
    fo.downloader = m_o.downloader;
    m_fetcher = std::make_unique<Fetcher>(std::move(fo));
}

Installer::~Installer() = default;

void Installer::notify(const events::FromInstall& e) const
{
    if (m_o.onEvent)
        m_o.onEvent(e);
}

// The stage is the caller's to say (an install or a repair); the session sets it.
void Installer::notice(const std::string& runtime, std::string text) const
{
    notify(events::Notice{events::Stage::Install, runtime, std::move(text)});
}

void Installer::progress(const std::string& runtime, int artifact, const std::string& name,
                         const DownloadProgress& p) const
{
    notify(events::ArtifactProgress{runtime, artifact, name, p.received, p.total, p.bytesPerSecond,
                                    p.etaSeconds});
}

std::string Installer::artifactName(const Artifact& a)
{
    return a.displayName();
}

std::uint64_t Installer::extractCap(const Artifact& a, const Settings& s)
{
    if (a.maxExtractedSize)
        return *a.maxExtractedSize;
    if (a.size && *a.size > 0)
        return std::min<std::uint64_t>(*a.size * 20, s.maxExtractSize);
    return s.maxExtractSize;
}

Expected<InstallResult> Installer::install(const Runtime& rt)
{
    if (auto r = PrefixStore::checkId(rt.id); !r)
        return r.error();
    if (!rt.os.empty() && std::find(rt.os.begin(), rt.os.end(), toString(hostOs())) == rt.os.end())
        return Error::runtime("runtime '" + rt.id + "' is not made for " + toString(hostOs()));
    const bool git = std::any_of(rt.artifacts.begin(), rt.artifacts.end(),
                                 [](const Artifact& a) { return a.isGit(); });
    if (git && rt.artifacts.size() != 1)
        return Error::invalid("runtime '" + rt.id +
                              "': a git artifact must be the runtime's only artifact");
    for (const auto& a : rt.artifacts) {
        if (a.format == "exe-installer" || a.isGit())
            continue; // downloaded like a single file, then run (see runInstallers)
        if (!ExtractSink::isStreamFormat(a.format))
            return Error::invalid("runtime '" + rt.id + "': " + artifactName(a) +
                                  ": unsupported format '" + a.format + "'");
    }
    if (auto r = m_store.ensureRoot(); !r)
        return r.error();
    auto lock = InstallLock::acquire(
        m_store.root(), rt.id, m_o.lockTimeout, [&](const std::string& msg) { notice(rt.id, msg); },
        m_o.cancel);
    if (!lock)
        return lock.error();
    for (const auto& line : m_store.recover(rt.id))
        notice(rt.id, line);
    // A folder of the user's with the runtime's name stops the install before any
    // download: it would otherwise be replaced at commit.
    if (auto r = m_store.checkOwnership(rt.id); !r)
        return r.error();
    return installLocked(rt);
}

std::optional<InstallResult> Installer::alreadyInstalled(const Runtime& rt) const
{
    if (m_o.force || !m_store.isInstalled(rt.id))
        return std::nullopt;
    // Installed from the same bytes? Then there is nothing to do.
    auto receipt = m_store.receipt(rt.id);
    bool same = receipt && receipt->artifacts.size() == rt.artifacts.size();
    for (std::size_t i = 0; same && i < rt.artifacts.size(); ++i) {
        const Artifact& a = rt.artifacts[i];
        same = a.isGit() ? a.commit && receipt->artifacts[i].commit == *a.commit
                         : !a.sha256 || receipt->artifacts[i].sha256 == *a.sha256;
    }
    if (!same)
        return std::nullopt;
    InstallResult result;
    result.id = rt.id;
    result.dir = m_store.runtimeDir(rt.id);
    result.alreadyInstalled = true;
    result.files = receipt->files.size();
    return result;
}

Expected<void> Installer::checkFreeSpace(const Runtime& rt) const
{
    std::uint64_t declared = 0;
    for (const auto& a : rt.artifacts)
        declared += a.expectedSize().value_or(0);
    std::error_code ec;
    const auto space = fs::space(m_store.root(), ec);
    const auto need = static_cast<std::uint64_t>(static_cast<double>(declared) * m_o.spaceFactor);
    if (!ec && need > space.available)
        return Error::runtime("not enough free space in " + paths::toUtf8(m_store.root()) +
                              " to install '" + rt.id + "': need about " + mib(need) + ", " +
                              mib(space.available) + " free")
            .withCause(Cause::DiskFull);
    return {};
}

Expected<std::vector<std::unique_ptr<ExtractSink>>>
Installer::makeSinks(const Runtime& rt, const fs::path& stagingDir, StagingClaims& claims) const
{
    std::vector<std::unique_ptr<ExtractSink>> sinks;
    for (std::size_t i = 0; i < rt.artifacts.size(); ++i) {
        const auto& a = rt.artifacts[i];
        ExtractSink::Options so;
        so.root = stagingDir;
        // A vendor installer arrives as one file; it runs once every hash matched.
        so.format = a.format == "exe-installer" ? std::string("file") : a.format;
        so.archiveName = artifactName(a);
        so.stripComponents = a.stripComponents;
        so.maxExtractedBytes = extractCap(a, m_o.settings);
        so.fileName = a.fileName.empty() ? artifactName(a) : a.fileName;
        so.claims = &claims;
        so.owner = static_cast<int>(i);
        auto sink = ExtractSink::create(std::move(so));
        if (!sink)
            return sink.error();
        sinks.push_back(std::move(*sink));
    }
    return sinks;
}

Expected<void> Installer::fetchAll(const Runtime& rt,
                                   std::vector<std::unique_ptr<ExtractSink>>& sinks,
                                   std::vector<std::optional<Expected<FetchResult>>>& fetched)
{
    const std::size_t n = rt.artifacts.size();
    // Workers share a private token so one failure stops the others without
    // cancelling the caller's token.
    CancelToken inner;
    std::atomic<std::size_t> next{0};
    std::atomic<std::size_t> finished{0};
    auto work = [&] {
        for (std::size_t i = next++; i < n; i = next++) {
            const auto& a = rt.artifacts[i];
            const std::string name = artifactName(a);
            auto onProgress = [&, i, name](const DownloadProgress& p) {
                progress(rt.id, static_cast<int>(i), name, p);
            };
            auto r = m_fetcher->fetch(a, *sinks[i], onProgress, inner);
            if (!r) {
                sinks[i]->abort();
                inner.cancel();
            } else {
                notify(events::ArtifactDone{rt.id, static_cast<int>(i), name});
            }
            fetched[i] = std::move(r);
            ++finished;
        }
    };
    const int parallel = std::clamp(m_o.settings.parallelDownloads, 1, 16);
    std::vector<std::thread> threads;
    for (int t = 0; t < std::min<int>(parallel, static_cast<int>(n)); ++t)
        threads.emplace_back(work);
    while (finished.load() < n) {
        if (m_o.cancel.cancelled())
            inner.cancel();
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    for (auto& t : threads)
        t.join();
    return firstFetchError(rt, fetched);
}

Expected<void>
Installer::firstFetchError(const Runtime& rt,
                           const std::vector<std::optional<Expected<FetchResult>>>& fetched) const
{
    // Report the error that caused the stop, not the cancellations it triggered.
    std::optional<Error> firstError;
    for (const auto& f : fetched) {
        if (f && !*f) {
            const Error& e = f->error();
            if (!firstError ||
                (firstError->code == ErrorCode::Cancelled && e.code != ErrorCode::Cancelled))
                firstError = e;
        }
    }
    if (m_o.cancel.cancelled())
        return Error::cancelled("installation of '" + rt.id + "' cancelled");
    if (firstError) // its code and cause kept
        return firstError->prefixed("installing '" + rt.id + "': ");
    return {};
}

void Installer::fillReceiptHeader(const Runtime& rt, Receipt& receipt) const
{
    receipt.id = rt.id;
    receipt.kind = rt.kind;
    receipt.version = rt.version;
    receipt.installedAt = now();
}

std::string Installer::now() const
{
    const Clock& clock = m_o.clock ? *m_o.clock : Clock::system();
    return QDateTime::fromMSecsSinceEpoch(
               std::chrono::duration_cast<std::chrono::milliseconds>(clock.now().time_since_epoch())
                   .count(),
               Qt::UTC)
        .toString(Qt::ISODate)
        .toStdString();
}

Expected<void>
Installer::checkFirstUsePins(const Runtime& rt,
                             const std::vector<std::optional<Expected<FetchResult>>>& fetched) const
{
    const PinStore pins(m_o.pinFile.empty() ? PinStore::defaultFile() : m_o.pinFile);
    for (std::size_t i = 0; i < rt.artifacts.size(); ++i) {
        const Artifact& a = rt.artifacts[i];
        if (a.pinned())
            continue;
        const FetchResult& f = fetched[i]->value();
        if (auto r = pins.check(a.url, {f.sha256, f.size, now()}, m_o.acceptChangedDownloads); !r)
            return r.error().prefixed("installing '" + rt.id + "': ");
    }
    return {};
}

void Installer::fillReceipt(const Runtime& rt,
                            const std::vector<std::unique_ptr<ExtractSink>>& sinks,
                            const std::vector<std::optional<Expected<FetchResult>>>& fetched,
                            Receipt& receipt, InstallResult& result)
{
    fillReceiptHeader(rt, receipt);
    std::map<std::string, FileRecord> files;
    for (std::size_t i = 0; i < rt.artifacts.size(); ++i) {
        const auto& a = rt.artifacts[i];
        const FetchResult& f = fetched[i]->value();
        receipt.artifacts.push_back(
            {a.url, f.origin, toString(f.source), f.sha256, f.size, a.format, {}});
        for (const auto& rec : sinks[i]->records())
            files[rec.path] = rec;
        for (const auto& w : sinks[i]->warnings()) {
            receipt.warnings.push_back(w);
            notice(rt.id, "warning: " + w);
        }
        result.artifacts.push_back({a.url, f, sinks[i]->extractedBytes()});
    }
    for (auto& [path, rec] : files)
        receipt.files.push_back(std::move(rec));
}

Expected<InstallResult> Installer::installLocked(const Runtime& rt)
{
    if (auto done = alreadyInstalled(rt))
        return *done;
    if (auto r = checkFreeSpace(rt); !r)
        return r.error();
    auto staging = m_store.makeStaging(rt.id);
    if (!staging)
        return staging.error();
    const fs::path stagingDir = *staging;
    struct Cleanup
    {
        fs::path dir;
        bool keep = false;
        ~Cleanup()
        {
            std::error_code e;
            if (!keep)
                fs::remove_all(dir, e);
        }
    } cleanup{stagingDir};

    InstallResult result;
    result.id = rt.id;
    result.dir = m_store.runtimeDir(rt.id);
    Receipt receipt;
    if (auto r = stageArtifacts(rt, stagingDir, receipt, result); !r)
        return r.error();
    if (auto r = checkSymlinksInside(stagingDir, receipt.files); !r)
        return Error::invalid("installing '" + rt.id + "': " + r.error().message)
            .withCause(r.error().cause);
    if (auto r = m_store.commit(rt.id, stagingDir, receipt); !r)
        return r.error();
    cleanup.keep = true;
    result.files = receipt.files.size();
    result.warnings = receipt.warnings;
    return result;
}

Expected<void> Installer::stageArtifacts(const Runtime& rt, const fs::path& stagingDir,
                                         Receipt& receipt, InstallResult& result)
{
    if (rt.artifacts.size() == 1 && rt.artifacts.front().isGit())
        return checkoutGit(rt, stagingDir, receipt, result);
    StagingClaims claims;
    auto sinks = makeSinks(rt, stagingDir, claims);
    if (!sinks)
        return sinks.error();
    std::vector<std::optional<Expected<FetchResult>>> fetched(rt.artifacts.size());
    if (auto r = fetchAll(rt, *sinks, fetched); !r)
        return r.error();
    if (auto r = checkFirstUsePins(rt, fetched); !r)
        return r.error();
    if (auto r = runInstallers(rt, stagingDir, receipt); !r)
        return r.error();
    fillReceipt(rt, *sinks, fetched, receipt, result);
    return {};
}

Expected<void> Installer::checkoutGit(const Runtime& rt, const fs::path& stagingDir,
                                      Receipt& receipt, InstallResult& result)
{
    const Artifact& a = rt.artifacts.front();
    const std::string name = artifactName(a);
    if (!m_o.allowNetwork)
        return Error::runtime("installing '" + rt.id + "': " + a.url + " at commit " +
                              a.commit.value_or("") +
                              " is a git checkout, which needs the network");
    GitCheckoutRequest rq;
    rq.urls = m_fetcher->urlsFor(a); // mirror rules apply to git URLs too
    rq.remoteUrl = a.url;
    rq.commit = a.commit.value_or("");
    rq.dir = stagingDir;
    rq.cancel = m_o.cancel;
    rq.proxy = m_o.settings.proxy.value_or("");
    rq.progress = [&](const DownloadProgress& p) { progress(rt.id, 0, name, p); };
    auto checkout = gitCheckout(rq);
    if (!checkout) {
        if (checkout.error().code == ErrorCode::Cancelled)
            return Error::cancelled("installation of '" + rt.id + "' cancelled");
        return checkout.error().prefixed("installing '" + rt.id + "': ");
    }
    notify(events::ArtifactDone{rt.id, 0, name});
    auto files = workTreeRecords(stagingDir);
    if (!files)
        return files.error();
    fillReceiptHeader(rt, receipt);
    receipt.files = std::move(*files);
    receipt.artifacts.push_back(
        {a.url, checkout->url, "network", {}, checkout->receivedBytes, a.format, checkout->commit});
    FetchResult f{FetchSource::Network, checkout->url, {}, checkout->receivedBytes, {}};
    result.artifacts.push_back({a.url, f, 0});
    return {};
}

Expected<void> Installer::runInstallers(const Runtime& rt, const fs::path& stagingDir,
                                        Receipt& receipt)
{
    for (std::size_t i = 0; i < rt.artifacts.size(); ++i) {
        const auto& a = rt.artifacts[i];
        if (a.format != "exe-installer")
            continue;
        SilentInstall si;
        si.installer =
            stagingDir / paths::fromUtf8(a.fileName.empty() ? artifactName(a) : a.fileName);
        si.args = a.installerArgs;
        si.installDir = rt.installDir;
        for (std::size_t p = si.installDir.find("{data}"); p != std::string::npos;
             p = si.installDir.find("{data}"))
            si.installDir.replace(p, 6, paths::toUtf8(paths::dataDir()));
        si.logFile = paths::logDir() / paths::fromUtf8(rt.id + "-installer.log");
        std::error_code ec;
        fs::create_directories(si.logFile.parent_path(), ec);
        notice(rt.id, "running the installer " + artifactName(a) + " silently");
        auto r = runSilentInstaller(si, m_o.cancel);
        if (!r)
            return r.error().prefixed("installing '" + rt.id + "': ");
        receipt.installDir = si.installDir;
        if (r->rebootRequired)
            receipt.warnings.push_back(artifactName(a) + " asks for a restart of Windows");
    }
    return {};
}

} // namespace sp
