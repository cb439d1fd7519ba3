#include "core/catalog/feed/publish.h"

#include "core/catalog/feed/update.h"
#include "core/catalog/loader.h"
#include "core/json_file.h"
#include "core/paths.h"
#include "stackpilot_version.h"

#include <QDateTime>
#include <algorithm>

namespace fs = std::filesystem;

namespace sp::feed {

namespace {

Expected<std::vector<fs::path>> catalogFiles(const fs::path& dir)
{
    std::vector<fs::path> files;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        if (it->path().extension() == ".json" && it->is_regular_file(ec))
            files.push_back(it->path());
    if (ec)
        return Error::invalid(paths::toUtf8(dir) + ": " + ec.message());
    std::sort(files.begin(), files.end());
    if (files.empty())
        return Error::invalid(paths::toUtf8(dir) + ": no catalog files (*.json)");
    if (files.size() > kMaxFeedFiles)
        return Error::invalid(paths::toUtf8(dir) + ": more than 64 catalog files");
    return files;
}

Expected<void> checkOptions(const PublishOptions& o)
{
    if (o.version <= 0 || o.version > kMaxFeedVersion)
        return Error::usage("--version must be an integer from 1 to 2^31 (" +
                            std::to_string(kMaxFeedVersion) + ")");
    auto expires = parseUtcTime(o.expires);
    if (!expires)
        return Error::usage("--expires: " + expires.error().message);
    const std::int64_t now = o.now != 0 ? o.now : QDateTime::currentSecsSinceEpoch();
    if (*expires <= now)
        return Error::usage("--expires " + o.expires + " is not in the future");
    if (auto s = checkSharing(o.sharing); !s)
        return Error::usage(s.error().message);
    return {};
}

} // namespace

Expected<Manifest> publishFeed(const fs::path& dir, const fs::path& out,
                               const PublishOptions& options)
{
    if (auto r = checkOptions(options); !r)
        return r.error();
    auto files = catalogFiles(dir);
    if (!files)
        return files.error();
    CatalogLoadOptions load;
    load.userDir = false;
    load.builtinDir = dir;
    if (auto loaded = loadCatalog(load); !loaded)
        return Error::invalid("not published, the catalog does not load: " +
                              loaded.error().message);
    Manifest m;
    m.feed = options.feed;
    m.version = options.version;
    const std::int64_t now = options.now != 0 ? options.now : QDateTime::currentSecsSinceEpoch();
    m.published = QDateTime::fromSecsSinceEpoch(now).toUTC().toString(Qt::ISODate).toStdString();
    m.expires = options.expires;
    m.minStackPilot = options.minStackPilot.empty() ? STACKPILOT_VERSION : options.minStackPilot;
    m.sharing = options.sharing;
    for (const auto& f : *files) {
        const std::string name = paths::toUtf8(f.filename());
        if (!isValidFeedPath(name))
            return Error::invalid(paths::toUtf8(f) + ": not a plain catalog file name");
        auto bytes = readRegularFile(f, kMaxFeedFileBytes, "catalog file");
        if (!bytes)
            return bytes.error();
        if (auto r = writeFileAtomic(out / name, *bytes); !r)
            return r.error();
        auto sha = sha256OfFile(out / name);
        if (!sha)
            return sha.error();
        m.files.push_back({name, bytes->size(), *sha});
    }
    if (auto r = writeFileAtomic(out / "manifest.json", toJsonText(m)); !r)
        return r.error();
    return m;
}

} // namespace sp::feed
