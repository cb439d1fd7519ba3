// report.md: the human summary, rendered from the already-redacted report JSON, so it
// can say nothing that report.json does not.

#include "app/common/diag/collect_parts.h"
#include "core/text.h"

#include <sstream>

namespace sp::diag::detail {

namespace {

using nlohmann::json;

// j[key], or null when j is no object or has no such key.
const json& at(const json& j, const char* key)
{
    static const json kNull;
    if (!j.is_object())
        return kNull;
    const auto it = j.find(key);
    return it == j.end() ? kNull : *it;
}

// Iterating a member that may be missing or of another type.
const json& items(const json& j, const char* key)
{
    static const json kEmpty = json::array();
    const json& v = at(j, key);
    return v.is_array() || v.is_object() ? v : kEmpty;
}

std::string str(const json& j, const char* key, const std::string& fallback = "")
{
    if (!j.is_object() || !j.contains(key) || j.at(key).is_null())
        return fallback;
    const json& v = j.at(key);
    return v.is_string() ? v.get<std::string>() : v.dump();
}

// One table cell: printable, one line, no column breaks.
std::string cell(const std::string& s)
{
    std::string out;
    for (char c : printable(s)) {
        if (c == '|')
            out += "\\|";
        else if (c == '\n' || c == '\r')
            out += ' ';
        else
            out += c;
    }
    return out.empty() ? " " : out;
}

std::string joined(const json& list, const char* sep = ", ")
{
    std::string out;
    if (list.is_array())
        for (const auto& v : list)
            out += (out.empty() ? "" : sep) + (v.is_string() ? v.get<std::string>() : v.dump());
    return out;
}

void systemSection(std::ostream& o, const json& hw)
{
    o << "## System\n\n";
    o << "- OS: " << cell(str(at(hw, "os"), "family", "unknown")) << " "
      << cell(str(at(hw, "os"), "version")) << "\n";
    o << "- Home: " << cell(str(at(hw, "home"), "path")) << " ("
      << cell(str(at(hw, "home"), "filesystem", "unknown filesystem")) << ")\n\n";
    o << "### GPUs\n\n| # | vendor | name | gfx / compute capability | VRAM MB | driver | PCI | "
         "sources |\n|---|---|---|---|---|---|---|---|\n";
    int i = 0;
    for (const auto& g : items(hw, "gpus"))
        o << "| " << i++ << " | " << cell(str(g, "vendor")) << " | " << cell(str(g, "name"))
          << " | " << cell(str(g, "gfx", str(g, "compute_capability", "?"))) << " | "
          << cell(str(g, "vram_mb")) << " | " << cell(str(g, "driver_version")) << " | "
          << cell(str(g, "pci_id")) << " " << cell(str(g, "pci_bus")) << " | "
          << cell(joined(items(g, "sources"))) << " |\n";
    if (i == 0)
        o << "| | none found | | | | | | |\n";
    o << "\n### Probes\n\n| probe | status | detail |\n|---|---|---|\n";
    for (const auto& p : items(hw, "probes"))
        o << "| " << cell(str(p, "name")) << " | " << cell(str(p, "status")) << " | "
          << cell(str(p, "detail")) << " |\n";
    o << "\nRaw probe outputs are under `probes/`.\n\n";
}

void plans(std::ostream& o, const json& plans, const std::string& focus)
{
    o << "## Chosen profiles and why\n\n";
    for (const auto& [workload, p] : plans.items()) {
        o << "### " << cell(workload) << (workload == focus ? " (looked at closely below)" : "")
          << "\n\n";
        if (p.contains("error")) {
            o << "Could not plan: " << cell(str(p, "error")) << "\n\n";
            continue;
        }
        const json& profile = at(p, "profile");
        if (str(profile, "id").empty())
            o << "No profile fits this machine.\n";
        else
            o << "Profile **" << cell(str(profile, "id")) << "** (" << cell(str(profile, "status"))
              << ") on GPU " << cell(str(p, "gpu", "none")) << ". Runtimes: ";
        std::string rts;
        for (const auto& r : items(p, "runtimes"))
            rts += (rts.empty() ? "" : ", ") + str(r, "id") + " " + str(r, "version");
        if (!str(profile, "id").empty())
            o << cell(rts.empty() ? "none" : rts) << ".\n";
        for (const auto& w : items(p, "warnings"))
            o << "- warning: " << cell(w.is_string() ? w.get<std::string>() : w.dump()) << "\n";
        std::string elsewhere;
        for (const auto& a : items(p, "alternatives")) {
            bool known = str(a, "verdict") == "available";
            for (const auto& r : items(a, "reasons"))
                known = known || !str(r, "known_issue").empty();
            if (!known) {
                elsewhere += (elsewhere.empty() ? "" : ", ") + str(a, "profile");
                continue;
            }
            o << "- " << cell(str(a, "profile")) << ": " << cell(str(a, "verdict"));
            for (const auto& r : items(a, "reasons"))
                o << "; " << cell(str(r, "text"))
                  << (str(r, "known_issue").empty() ? ""
                                                    : " [" + cell(str(r, "known_issue")) + "]");
            o << "\n";
        }
        if (!elsewhere.empty())
            o << "- made for another GPU, OS or vendor: " << cell(elsewhere) << "\n";
        o << "\n";
    }
}

void runtimes(std::ostream& o, const json& list)
{
    o << "## Installed runtimes (verified now)\n\n";
    if (list.empty()) {
        o << "None installed.\n\n";
        return;
    }
    o << "| runtime | kind | version | files | verify |\n|---|---|---|---|---|\n";
    for (const auto& r : list)
        o << "| " << cell(str(r, "id")) << " | " << cell(str(r, "kind")) << " | "
          << cell(str(r, "version")) << " | " << cell(str(r, "files")) << " | "
          << cell(str(r, "verify"))
          << (str(r, "problem_count", "0") == "0" ? ""
                                                  : ", " + str(r, "problem_count") + " problem(s)")
          << " |\n";
    for (const auto& r : list)
        for (const auto& p : items(r, "problems"))
            o << "- " << cell(str(r, "id")) << ": " << cell(str(p, "issue")) << " "
              << cell(str(p, "path")) << "\n";
    o << "\n";
}

void launches(std::ostream& o, const json& list)
{
    o << "## Recent launches\n\n";
    if (list.empty()) {
        o << "None recorded.\n\n";
        return;
    }
    o << "| started | profile | exit | known issues | stopped by |\n|---|---|---|---|---|\n";
    for (const auto& l : list) {
        std::string issues;
        const json& titles = at(l, "known_issue_titles");
        for (const auto& id : items(l, "known_issues")) {
            const std::string s = id.is_string() ? id.get<std::string>() : id.dump();
            issues += (issues.empty() ? "" : "; ") + s +
                      (titles.contains(s) ? " (" + str(titles, s.c_str()) + ")" : "");
        }
        const json& exit = at(l, "exit");
        o << "| " << cell(str(l, "started")) << " | " << cell(str(l, "profile")) << " | "
          << cell(str(exit, "text", exit.dump())) << " | " << cell(issues.empty() ? "none" : issues)
          << " | " << cell(str(l, "stopped_by")) << " |\n";
    }
    o << "\nThe last logs are under `launches/`.\n\n";
}

void environment(std::ostream& o, const json& env)
{
    o << "## Environment difference\n\n";
    if (env.is_null()) {
        o << "No profile to launch, so no environment to compare.\n\n";
        return;
    }
    o << "What launching " << cell(str(env, "profile")) << " (" << cell(str(env, "workload"))
      << ") changes in the user's environment.\n\n| variable | change | before | after | why "
         "|\n|---|---|---|---|---|\n";
    for (const auto& c : items(env, "changes"))
        o << "| " << cell(str(c, "name")) << " | " << cell(str(c, "change")) << " | "
          << cell(str(c, "before")) << " | " << cell(str(c, "after")) << " | "
          << cell(str(c, "reason")) << " |\n";
    o << "\n";
}

void doctor(std::ostream& o, const json& findings)
{
    o << "## Doctor\n\n";
    if (findings.empty())
        o << "No problems found.\n";
    for (const auto& f : findings)
        o << "- **" << cell(str(f, "severity")) << "** " << cell(str(f, "text"))
          << (str(f, "fix").empty() ? "" : " Fix: " + cell(str(f, "fix"))) << "\n";
    o << "\n";
}

void catalogAndContents(std::ostream& o, const json& report)
{
    const json& c = at(report, "catalog");
    o << "## Catalog\n\nShipped catalog digest " << cell(str(c, "digest")) << ".";
    if (!str(c, "error").empty())
        o << " It did not load: " << cell(str(c, "error"));
    o << " User overrides (`catalog.d/`): "
      << cell(joined(items(c, "user_overrides")).empty() ? "none"
                                                         : joined(items(c, "user_overrides")))
      << ".\n";
    for (const auto& w : items(c, "warnings"))
        o << "- " << cell(w.is_string() ? w.get<std::string>() : w.dump()) << "\n";
    if (!str(at(report, "settings"), "error").empty())
        o << "\nsettings.json did not load: " << cell(str(at(report, "settings"), "error")) << "\n";
    o << "\n## Contents\n\n| entry | bytes | redacted | note |\n|---|---|---|---|\n"
      << "| report.md | this file | | |\n| report.json | the same for machines | | |\n";
    for (const auto& e : items(report, "entries")) {
        std::string red;
        for (const auto& [kind, n] : items(e, "redactions").items())
            red += (red.empty() ? "" : ", ") + kind + " " + n.dump();
        o << "| " << cell(str(e, "name")) << " | " << cell(str(e, "bytes")) << " | " << cell(red)
          << " | " << cell(str(e, "note")) << " |\n";
    }
}

} // namespace

std::string renderMarkdown(const json& report)
{
    std::ostringstream o;
    o << "# StackPilot diagnostics\n\nStackPilot " << cell(str(report, "stackpilot_version"))
      << ", bundle format " << cell(str(report, "diagnostics_schema")) << ". Hardware "
      << cell(str(report, "hardware_source")) << ". Secrets, tokens and the user's name were "
      << "redacted from every file in this bundle.\n\n";
    systemSection(o, items(report, "hardware"));
    plans(o, items(report, "plans"), str(report, "focus_workload"));
    runtimes(o, items(report, "runtimes"));
    launches(o, items(report, "launches"));
    environment(o, at(report, "environment"));
    doctor(o, items(report, "doctor"));
    catalogAndContents(o, report);
    return o.str();
}

} // namespace sp::diag::detail
