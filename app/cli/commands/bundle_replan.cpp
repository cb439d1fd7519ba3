#include "app/cli/commands/bundle_replan.h"

#include "app/common/diag/bundle.h"
#include "core/text.h"

#include <ostream>

namespace sp::cli {

namespace {

// What a bundle says (entry names, profile ids, messages that quote them) is shown
// with every escape and control escaped: a bundle is someone else's file.
std::string shown(const std::string& text)
{
    return terminalSafe(text, false);
}

std::string joinedNames(const std::vector<std::string>& names)
{
    std::string out;
    for (const auto& n : names)
        out += (out.empty() ? "" : ", ") + n;
    return shown(out);
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
        io.err << "stackpilot-cli " << verb << ": " << shown(inputs.error().message) << "\n";
        *exitCode = exitCodeFor(inputs.error());
        return std::nullopt;
    }
    r.m_inputs = std::move(*inputs);
    return r;
}

std::optional<std::vector<CatalogLoadOptions::Text>> BundleReplan::userCatalogTexts() const
{
    if (!active())
        return std::nullopt;
    std::vector<CatalogLoadOptions::Text> texts;
    for (const auto& [name, text] : m_inputs.catalogFiles)
        texts.push_back({m_path + ": catalog.d/" + name, text});
    return texts;
}

Expected<Settings> BundleReplan::settings(Io& io) const
{
    if (!active())
        return Settings::load();
    if (!m_inputs.settingsText)
        return Settings{};
    auto s = Settings::parse(*m_inputs.settingsText, m_path + ": settings.json");
    if (s)
        return s;
    // The user's StackPilot planned with defaults then too (report.json says so).
    io.err << "stackpilot-cli " << m_verb << ": warning: " << shown(s.error().message)
           << "; planning with default settings, as the user's StackPilot did\n";
    return Settings{};
}

void BundleReplan::explain(Io& io) const
{
    if (!active())
        return;
    const std::string prefix = "stackpilot-cli " + m_verb + ": ";
    if (!m_inputs.isZip) {
        io.err << prefix << "planning with the settings in " << shown(m_path)
               << " in place of this machine's";
        if (!m_inputs.catalogOverrideNames.empty())
            io.err << "; the user's catalog.d files (" << joinedNames(m_inputs.catalogOverrideNames)
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
           << (names.empty() ? "" : " (" + joinedNames(names) + ")")
           << " in place of this machine's\n";
    for (const auto& skipped : m_inputs.skippedEntries)
        io.err << prefix << "skipped " << shown(skipped)
               << ": not a plain file name (redaction may have changed it)\n";
}

void BundleReplan::compare(const std::string& workload, const std::string& profile, Io& io) const
{
    const auto it = m_inputs.chosenProfiles.find(workload);
    if (!active() || it == m_inputs.chosenProfiles.end() || it->second == profile)
        return;
    const std::string here = diag::shippedCatalogIdentity().digest;
    io.err << "stackpilot-cli " << m_verb << ": warning: the user's StackPilot chose "
           << shown(it->second) << " for " << workload << "; this plan chooses "
           << (profile.empty() ? "no profile" : profile);
    if (!m_inputs.catalogDigest.empty() && m_inputs.catalogDigest != here)
        io.err << " (the user's shipped catalog is " << shown(m_inputs.catalogDigest.substr(0, 12))
               << ", this one " << here.substr(0, 12) << ")";
    io.err << "\n";
}

} // namespace sp::cli
