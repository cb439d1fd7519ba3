#include "app/cli/commands/catalog_common.h"

#include "core/paths.h"

#include <ostream>

namespace sp::cli {

std::optional<LoadedCatalog>
loadCatalogForCli(const QCommandLineParser& parser, Io& io, const std::string& verb, int* exitCode,
                  std::optional<std::vector<CatalogLoadOptions::Text>> userTexts)
{
    CatalogLoadOptions options;
    options.userTexts = std::move(userTexts);
    for (const auto& dir : parser.values(QStringLiteral("catalog-dir")))
        options.extraDirs.push_back(toPath(dir));
    auto loaded = loadCatalog(options);
    if (!loaded) {
        io.err << "stackpilot-cli " << verb << ": " << loaded.error().message << "\n";
        *exitCode = sp::cli::exitCodeFor(loaded.error());
        return std::nullopt;
    }
    for (const auto& w : loaded->warnings)
        io.err << w << "\n";
    for (const auto& n : loaded->notices)
        io.err << n << "\n";
    return std::move(*loaded);
}

} // namespace sp::cli
