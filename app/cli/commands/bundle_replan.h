#pragma once
// `plan --hardware BUNDLE`: plan as the bundle's user did. The user's settings (their
// remedies and profile choices; in report.json and in the zip) and, from the zip, their
// catalog.d files replace this machine's own; a report.json says which catalog.d files
// it could not bring. The result is compared with the profile the user's own plan
// chose, so a helper sees at once when the catalogs differ.

#include "app/cli/command.h"
#include "core/bundle_inputs.h"
#include "core/catalog/loader.h"
#include "core/settings.h"

#include <optional>
#include <string>
#include <vector>

namespace sp::cli {

class BundleReplan
{
public:
    // Reads what --hardware names. A plain snapshot (or no --hardware) gives an inactive
    // object. On failure prints the reason, sets *exitCode and returns nullopt.
    static std::optional<BundleReplan> fromOptions(const QCommandLineParser& p, Io& io,
                                                   const std::string& verb, int* exitCode);

    bool active() const { return m_inputs.isBundle; }
    // The catalog.d files to load instead of this machine's, named inside the bundle;
    // nullopt when inactive.
    std::optional<std::vector<CatalogLoadOptions::Text>> userCatalogTexts() const;
    // The user's settings when active: defaults when the bundle has none or they do not
    // load (as the user's own StackPilot then planned, with a line on io.err); else this
    // machine's.
    Expected<Settings> settings(Io& io) const;
    // One line each on io.err: what of the user's is applied, and what could not be.
    void explain(Io& io) const;
    // A warning when the user's own plan chose another profile for `workload`.
    void compare(const std::string& workload, const std::string& profile, Io& io) const;

private:
    BundlePlanInputs m_inputs;
    std::string m_path;
    std::string m_verb;
};

} // namespace sp::cli
