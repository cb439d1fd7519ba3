// stackpilot-cli catalog check [DIR] [--deep]: are the artifacts of a catalog where it
// says and what it says (installers/artifact_check.h). DIR is a catalog folder (what
// `catalog publish` reads); without it, the catalog in use is checked.

#include "app/cli/commands/catalog_common.h"
#include "app/cli/commands/catalog_verbs.h"
#include "core/paths.h"
#include "core/settings.h"
#include "installers/artifact_check.h"

#include <nlohmann/json.hpp>
#include <ostream>

namespace sp::cli {

namespace {

std::optional<Catalog> catalogToCheck(const QCommandLineParser& p, Io& io, const std::string& dir,
                                      int* rc)
{
    if (dir.empty()) {
        auto loaded = loadCatalogForCli(p, io, "catalog", rc);
        if (!loaded)
            return std::nullopt;
        return std::move(loaded->catalog);
    }
    CatalogLoadOptions o;
    o.userDir = false;
    o.builtinDir = paths::fromUtf8(dir);
    auto loaded = loadCatalog(o);
    if (!loaded) {
        io.err << "stackpilot-cli catalog: " << loaded.error().message << "\n";
        *rc = exitCodeFor(loaded.error());
        return std::nullopt;
    }
    return std::move(loaded->catalog);
}

} // namespace

int runCatalogCheck(const QCommandLineParser& p, Io& io, const std::string& dir)
{
    int rc = 0;
    auto catalog = catalogToCheck(p, io, dir, &rc);
    if (!catalog)
        return rc;
    ArtifactCheckOptions o;
    o.deep = p.isSet(QStringLiteral("deep"));
    if (p.isSet(QStringLiteral("ca-file")))
        o.downloader.caFile = toPath(p.value(QStringLiteral("ca-file")));
    if (auto s = Settings::load(); s && s->proxy)
        o.downloader.proxy = s->proxy;
    int failed = 0, unchecked = 0, total = 0;
    nlohmann::json report = nlohmann::json::array();
    const bool json = p.isSet(QStringLiteral("json"));
    for (const auto& rt : catalog->runtimes)
        for (const auto& a : rt.artifacts) {
            const ArtifactCheck c = checkArtifact(rt.id, a, o);
            ++total;
            failed += c.verdict == CheckVerdict::Failed;
            unchecked += c.verdict == CheckVerdict::Unchecked;
            if (json)
                report.push_back({{"runtime", c.runtime},
                                  {"url", c.url},
                                  {"verdict", toString(c.verdict)},
                                  {"detail", c.detail}});
            else
                io.out << c.line() << "\n" << std::flush;
        }
    if (json)
        io.out << nlohmann::json{{"artifacts", report}, {"failed", failed}}.dump(2) << "\n";
    else
        io.out << total << " artifact(s): " << total - failed - unchecked << " ok, " << failed
               << " failed, " << unchecked << " unchecked" << (o.deep ? "" : " (no --deep)")
               << "\n";
    return failed ? 1 : 0;
}

} // namespace sp::cli
