#include "app/cli/commands/bundle_replan.h"

#include "app/common/diag/bundle.h"
#include "core/paths.h"

#include <fstream>
#include <ostream>

namespace sp::cli {

namespace {

std::string joined(const std::vector<std::string>& names)
{
    std::string out;
    for (const auto& n : names)
        out += (out.empty() ? "" : ", ") + n;
    return out;
}

// Writes the bundle's catalog.d files into `dir`; false with a reason on failure.
bool writeCatalogFiles(const BundlePlanInputs& inputs, const std::filesystem::path& dir,
                       std::string* why)
{
    for (const auto& [name, text] : inputs.catalogFiles) {
        std::ofstream out(dir / paths::fromUtf8(name), std::ios::binary);
        out.write(text.data(), static_cast<std::streamsize>(text.size()));
        if (!out) {
            *why = "cannot write " + name + " to " + paths::toUtf8(dir);
            return false;
        }
    }
    return true;
}

} // namespace

std::optional<BundleReplan> BundleReplan::fromOptions(const QCommandLineParser& p, Io& io,
                                                      const std::string& verb, int* exitCode)
{
    BundleReplan r;
    r.m_verb = verb;
    if (!p.isSet(QStringLiteral("hardware")))
        return r;
    r.m_path = toStd(p.value(QStringLiteral("hardware")));
    auto inputs = loadBundlePlanInputs(r.m_path);
    if (!inputs) {
        io.err << "stackpilot-cli " << verb << ": " << inputs.error().message << "\n";
        *exitCode = exitCodeFor(inputs.error());
        return std::nullopt;
    }
    r.m_inputs = std::move(*inputs);
    if (!r.active())
        return r;
    r.m_dir = std::make_shared<QTemporaryDir>();
    std::string why = "cannot make a temporary folder";
    if (!r.m_dir->isValid() ||
        !writeCatalogFiles(r.m_inputs, paths::fromUtf8(toStd(r.m_dir->path())), &why)) {
        io.err << "stackpilot-cli " << verb << ": " << why << "\n";
        *exitCode = 1;
        return std::nullopt;
    }
    r.m_dirPath = paths::fromUtf8(toStd(r.m_dir->path()));
    return r;
}

const std::filesystem::path* BundleReplan::userCatalogDir() const
{
    return active() ? &m_dirPath : nullptr;
}

Expected<Settings> BundleReplan::settings() const
{
    if (!active())
        return Settings::load();
    if (!m_inputs.settingsText)
        return Settings{};
    return Settings::parse(*m_inputs.settingsText, m_path + ": settings.json");
}

void BundleReplan::explain(Io& io) const
{
    if (!active())
        return;
    const std::string prefix = "stackpilot-cli " + m_verb + ": ";
    if (!m_inputs.isZip) {
        io.err << prefix << "planning with the settings in " << m_path
               << " in place of this machine's";
        if (!m_inputs.catalogOverrideNames.empty())
            io.err << "; the user's catalog.d files (" << joined(m_inputs.catalogOverrideNames)
                   << ") travel only in the bundle zip: pass it to plan with them";
        io.err << "\n";
        return;
    }
    std::vector<std::string> names;
    for (const auto& [name, text] : m_inputs.catalogFiles)
        names.push_back(name);
    io.err << prefix << "planning with the bundle user's "
           << (m_inputs.settingsText ? "settings.json" : "default settings") << " and "
           << names.size() << " catalog.d file(s)"
           << (names.empty() ? "" : " (" + joined(names) + ")") << " in place of this machine's\n";
    for (const auto& skipped : m_inputs.skippedEntries)
        io.err << prefix << "skipped " << skipped
               << ": not a plain file name (redaction may have changed it)\n";
}

void BundleReplan::compare(const std::string& workload, const std::string& profile, Io& io) const
{
    const auto it = m_inputs.chosenProfiles.find(workload);
    if (!active() || it == m_inputs.chosenProfiles.end() || it->second == profile)
        return;
    const std::string here = diag::shippedCatalogIdentity().digest;
    io.err << "stackpilot-cli " << m_verb << ": warning: the user's StackPilot chose " << it->second
           << " for " << workload << "; this plan chooses "
           << (profile.empty() ? "no profile" : profile);
    if (!m_inputs.catalogDigest.empty() && m_inputs.catalogDigest != here)
        io.err << " (the user's shipped catalog is " << m_inputs.catalogDigest.substr(0, 12)
               << ", this one " << here.substr(0, 12) << ")";
    io.err << "\n";
}

} // namespace sp::cli
