// stackpilot-cli catalog check [DIR] [--deep]: are the artifacts of a catalog where it
// says and what it says (installers/artifact_check.h), and are its user texts complete
// and clean (core/catalog/user_text.h). DIR is a catalog folder (what `catalog publish`
// reads); without it, the catalog in use is checked (its built-in part for the texts).

#include "app/cli/commands/catalog_common.h"
#include "app/cli/commands/catalog_verbs.h"
#include "core/catalog/download_sizes.h"
#include "core/paths.h"
#include "core/settings.h"
#include "installers/artifact_check.h"

#include <nlohmann/json.hpp>
#include <ostream>

namespace sp::cli {

namespace {

// The catalog to check, its user texts checked too (the built-in one, or DIR).
std::optional<LoadedCatalog> catalogToCheck(const QCommandLineParser& p, Io& io,
                                            const std::string& dir, int* rc)
{
    CatalogLoadOptions o;
    o.checkUserTexts = true;
    if (dir.empty()) {
        for (const auto& extra : p.values(QStringLiteral("catalog-dir")))
            o.extraDirs.push_back(toPath(extra));
    } else {
        o.userDir = false;
        o.builtinDir = paths::fromUtf8(dir);
    }
    auto loaded = loadCatalog(o);
    if (!loaded) {
        io.err << "stackpilot-cli catalog: " << loaded.error().message << "\n";
        *rc = exitCodeFor(loaded.error());
        return std::nullopt;
    }
    for (const auto& w : loaded->warnings)
        io.err << w << "\n";
    for (const auto& n : loaded->notices)
        io.err << n << "\n";
    return std::move(*loaded);
}

// The user texts' rule (docs/CATALOG.md, "User texts"): one line per problem, then a
// count; the number of problems.
std::size_t reportUserTexts(const LoadedCatalog& c, Io& io, bool json)
{
    const auto& problems = c.userTextProblems;
    if (json) // the report's "user_text_problems"
        return problems.size();
    for (const auto& line : problems)
        io.out << line << "\n";
    io.out << "user texts: " << c.catalog.profiles.size() << " profile(s), "
           << c.catalog.workloads.size() << " workload(s), " << c.catalog.knownIssues.size()
           << " known issue(s): " << problems.size() << " problem(s)\n";
    return problems.size();
}

// The sizes' rule (docs/CATALOG.md, "Sizes"): every download carries its size or says
// that none was found; the count of those without one is the figure to bring to 0. Read
// from the catalog alone, so it is the same with or without --deep.
nlohmann::json reportSizes(const Catalog& c, Io& io, bool json)
{
    const SizeCount n = countSizes(c);
    if (!json) {
        for (const auto& what : n.withoutSize)
            io.out << "no size   " << what << "\n";
        io.out << "sizes: " << n.downloads << " download(s), " << n.sized << " with a size ("
               << n.unverified << " unverified), " << n.withoutSizeCount() << " without a size ("
               << n.unknown << " marked size_unknown, " << n.unmarked << " unmarked); " << n.git
               << " git checkout(s), sized by the server\n";
    }
    return {{"downloads", n.downloads},
            {"with_size", n.sized},
            {"unverified", n.unverified},
            {"without_size", n.withoutSizeCount()},
            {"size_unknown", n.unknown},
            {"unmarked", n.unmarked},
            {"git", n.git},
            {"missing", n.withoutSize}};
}

} // namespace

int runCatalogCheck(const QCommandLineParser& p, Io& io, const std::string& dir)
{
    int rc = 0;
    auto loaded = catalogToCheck(p, io, dir, &rc);
    if (!loaded)
        return rc;
    const Catalog* catalog = &loaded->catalog;
    const bool json = p.isSet(QStringLiteral("json"));
    const std::size_t textProblems = reportUserTexts(*loaded, io, json);
    const nlohmann::json sizes = reportSizes(*catalog, io, json);
    ArtifactCheckOptions o;
    o.deep = p.isSet(QStringLiteral("deep"));
    if (p.isSet(QStringLiteral("timeout"))) // checked by catalog.cpp
        o.gitDeadline = std::chrono::seconds(p.value(QStringLiteral("timeout")).toLongLong());
    if (p.isSet(QStringLiteral("ca-file")))
        o.downloader.caFile = toPath(p.value(QStringLiteral("ca-file")));
    if (auto s = Settings::load(); s && s->proxy)
        o.downloader.proxy = s->proxy;
    int failed = 0, unchecked = 0, total = 0;
    nlohmann::json report = nlohmann::json::array();
    // One line (or JSON entry) per download; a model's files are named by the model.
    const auto record = [&](const ArtifactCheck& c, const char* owner) {
        ++total;
        failed += c.verdict == CheckVerdict::Failed;
        unchecked += c.verdict == CheckVerdict::Unchecked;
        if (json)
            report.push_back({{owner, c.runtime},
                              {"url", c.url},
                              {"verdict", toString(c.verdict)},
                              {"detail", c.detail}});
        else
            io.out << c.line() << "\n" << std::flush;
    };
    for (const auto& rt : catalog->runtimes)
        for (const auto& a : rt.artifacts)
            record(checkArtifact(rt.id, a, o), "runtime");
    for (const auto& m : catalog->models)
        for (const auto& f : m.files)
            record(checkModelFile(m.id, f, o), "model");
    if (json)
        io.out << nlohmann::json{{"artifacts", report},
                                 {"failed", failed},
                                 {"sizes", sizes},
                                 {"user_text_problems", loaded->userTextProblems}}
                      .dump(2)
               << "\n";
    else
        io.out << total << " artifact(s): " << total - failed - unchecked << " ok, " << failed
               << " failed, " << unchecked << " unchecked" << (o.deep ? "" : " (no --deep)")
               << "\n";
    return failed || textProblems ? 1 : 0;
}

} // namespace sp::cli
