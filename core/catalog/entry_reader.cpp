#include "core/catalog/entry_reader.h"

#include "core/catalog/cause_reader.h"
#include "core/catalog/field_reader.h"
#include "core/catalog/placeholders.h"
#include "core/catalog/proof_reader.h"
#include "core/catalog/ui_reader.h"
#include "core/catalog/version_range.h"
#include "core/logmatch/signature.h"
#include "core/web_url.h"

#include <algorithm>
#include <cctype>
#include <set>

namespace sp {

namespace {

using json = nlohmann::json;

const std::set<std::string> kFormats = {"zip",  "tar.gz",        "tar.xz", "tar.zst", "deb",
                                        "file", "exe-installer", "7z",     "git"};

bool lowerHex(const std::string& s, std::size_t length)
{
    return s.size() == length && std::all_of(s.begin(), s.end(), [](char c) {
               return std::isdigit(static_cast<unsigned char>(c)) || (c >= 'a' && c <= 'f');
           });
}

// "bin", "cmd/git.exe", "." - never absolute, never "..".
bool relativeInside(const std::string& path)
{
    if (path.empty() || path.front() == '/' || path.front() == '\\' ||
        (path.size() > 1 && path[1] == ':'))
        return false;
    std::size_t start = 0;
    while (start <= path.size()) {
        const auto end = path.find_first_of("/\\", start);
        if (path.substr(start, end - start) == "..")
            return false;
        if (end == std::string::npos)
            break;
        start = end + 1;
    }
    return true;
}

// Reads one file's entries into catalog types; throws CatalogReadFailure with
// "file:line:col: reason".
class Reader : public FieldReader
{
public:
    using FieldReader::FieldReader;

    Artifact artifact(const json& a, const std::string& ptr)
    {
        checkFields(a, ptr, "artifact");
        Artifact out;
        out.url = str(a, ptr, "url", true);
        out.mirrors = strList(a, ptr, "mirrors");
        out.format = str(a, ptr, "format", true);
        if (!kFormats.count(out.format))
            fail(child(ptr, "format"),
                 "'format' '" + out.format + "' is not a known archive format");
        const bool git = out.isGit();
        const bool web = out.url.rfind("https://", 0) == 0 || out.url.rfind("http://", 0) == 0;
        if (!web && !(git && out.url.rfind("git://", 0) == 0))
            fail(child(ptr, "url"), git ? "a git artifact's 'url' must be an https, http or git URL"
                                        : "'url' must be an http(s) URL");
        checkHosts(ptr, out);
        if (git)
            gitPin(a, ptr, out);
        else
            hashPin(a, ptr, out);
        sizeOf(a, ptr, out);
        out.stripComponents = static_cast<int>(
            std::min<std::uint64_t>(count(a, ptr, "strip_components").value_or(0), 64));
        out.fileName = str(a, ptr, "file_name", false);
        out.installerArgs = strList(a, ptr, "installer_args");
        out.maxExtractedSize = count(a, ptr, "max_extracted_size");
        urlEvidence(a, ptr, out);
        return out;
    }

    // Every address an artifact is fetched from names a real host: a host such as ".."
    // would otherwise become a folder name in `mirror export` (issue 35, item 1).
    void checkHosts(const std::string& ptr, const Artifact& out)
    {
        if (auto u = parseWebUrl(out.url); !u)
            fail(child(ptr, "url"), u.error().message);
        for (std::size_t i = 0; i < out.mirrors.size(); ++i)
            if (auto u = parseWebUrl(out.mirrors[i]); !u)
                fail(child(child(ptr, "mirrors"), std::to_string(i)), u.error().message);
    }

    // The download's size (docs/CATALOG.md, "Sizes"): checked, recorded without a digest
    // to tie it to the file (size_unverified), or explicitly not known (size_unknown).
    void sizeOf(const json& a, const std::string& ptr, Artifact& out)
    {
        const auto size = count(a, ptr, "size");
        const bool unverified = boolean(a, ptr, "size_unverified");
        out.sizeUnknown = boolean(a, ptr, "size_unknown");
        if (out.sizeUnknown && size)
            fail(child(ptr, "size_unknown"), "an artifact with a 'size' cannot be 'size_unknown'");
        if (unverified && !size)
            fail(child(ptr, "size_unverified"), "'size_unverified' needs the 'size' it qualifies");
        (unverified ? out.unverifiedSize : out.size) = size;
    }

    // Where the asset name was seen (url_evidence: http(s) addresses), or the explicit
    // mark that it was not (url_unverified); never both.
    void urlEvidence(const json& a, const std::string& ptr, Artifact& out)
    {
        out.urlEvidence = strList(a, ptr, "url_evidence");
        out.urlUnverified = boolean(a, ptr, "url_unverified");
        if (a.contains("url_evidence") && out.urlEvidence.empty())
            fail(child(ptr, "url_evidence"), "'url_evidence' must list at least one address");
        for (std::size_t i = 0; i < out.urlEvidence.size(); ++i) {
            const auto& e = out.urlEvidence[i];
            if (e.rfind("https://", 0) != 0 && e.rfind("http://", 0) != 0)
                fail(child(child(ptr, "url_evidence"), std::to_string(i)),
                     "'url_evidence' entries must be http(s) addresses");
        }
        if (out.urlUnverified && !out.urlEvidence.empty())
            fail(child(ptr, "url_unverified"),
                 "an artifact with 'url_evidence' cannot be 'url_unverified'");
    }

    // A download is pinned by its SHA-256, or explicitly marked unpinned.
    void hashPin(const json& a, const std::string& ptr, Artifact& out)
    {
        const bool unpinned = boolean(a, ptr, "unpinned");
        if (a.contains("commit"))
            fail(child(ptr, "commit"), "'commit' is only for artifacts of format \"git\"");
        if (a.contains("sha256")) {
            auto h = str(a, ptr, "sha256", true);
            if (!lowerHex(h, 64))
                fail(child(ptr, "sha256"), "'sha256' must be 64 lower-case hex digits");
            if (unpinned)
                fail(child(ptr, "unpinned"), "an artifact with a sha256 cannot be 'unpinned'");
            out.sha256 = h;
        } else if (!unpinned) {
            fail(ptr, "artifact has no 'sha256': pin it or mark it \"unpinned\": true");
        }
        out.tag = str(a, ptr, "tag", false);
    }

    // A git checkout is pinned by its commit id, which is also its integrity check:
    // there is no archive to hash.
    void gitPin(const json& a, const std::string& ptr, Artifact& out)
    {
        if (a.contains("sha256"))
            fail(child(ptr, "sha256"), "a git artifact has no 'sha256': its 'commit' pins it");
        if (a.contains("unpinned"))
            fail(child(ptr, "unpinned"), "a git artifact is always pinned to a 'commit'");
        if (!a.contains("commit"))
            fail(ptr, "a git artifact needs 'commit': the 40-hex commit id to check out");
        auto c = str(a, ptr, "commit", true);
        if (!lowerHex(c, 40))
            fail(child(ptr, "commit"), "'commit' must be 40 lower-case hex digits");
        out.commit = c;
        out.tag = str(a, ptr, "tag", false);
    }

    Runtime runtime(const json& r, const std::string& ptr)
    {
        checkFields(r, ptr, "runtime");
        Runtime out;
        out.id = id(r, ptr);
        out.kind = str(r, ptr, "kind", true);
        out.version = str(r, ptr, "version", true);
        if (!parseVersion(out.version))
            fail(child(ptr, "version"),
                 "'version' '" + out.version + "' does not start with a dotted number");
        out.os = enumList(r, ptr, "os", kCatalogOs);
        if (const json* arts = field(r, ptr, "artifacts", false)) {
            if (!arts->is_array())
                fail(child(ptr, "artifacts"), "'artifacts' must be an array");
            for (std::size_t i = 0; i < arts->size(); ++i)
                out.artifacts.push_back(
                    artifact((*arts)[i], child(ptr, "artifacts") + "/" + std::to_string(i)));
        }
        out.env = strMap(r, ptr, "env", true);
        out.envWhy = strMap(r, ptr, "env_why");
        out.references = strList(r, ptr, "references");
        out.notes = str(r, ptr, "notes", false);
        out.supportedGfx = strList(r, ptr, "supported_gfx");
        out.supportedCc = strList(r, ptr, "supported_cc");
        out.executable = strMap(r, ptr, "executable");
        for (const auto& [os, rel] : out.executable)
            if (!kCatalogOs.count(os) || !relativeInside(rel))
                fail(child(child(ptr, "executable"), os),
                     "'executable' maps windows or linux to a path inside the runtime's folder");
        out.pathDirs = strList(r, ptr, "path_dirs");
        for (std::size_t i = 0; i < out.pathDirs.size(); ++i)
            if (!relativeInside(out.pathDirs[i]))
                fail(child(ptr, "path_dirs") + "/" + std::to_string(i),
                     "'path_dirs' entries are folders inside the runtime's folder");
        for (std::size_t i = 0; i < out.supportedCc.size(); ++i)
            if (!parseCcBuild(out.supportedCc[i]))
                fail(child(ptr, "supported_cc") + "/" + std::to_string(i),
                     "'supported_cc' entries are compute capabilities such as 8.6, or 8.0+PTX "
                     "for a build that also carries PTX");
        out.visibleDevices = readVisibleDevices(*this, r, ptr);
        out.installDir = str(r, ptr, "install_dir", false, true);
        out.system = boolean(r, ptr, "system");
        out.requires_ = strList(r, ptr, "requires");
        out.indexUrl = str(r, ptr, "index_url", false);
        out.where = where(ptr);
        return out;
    }

    Workload workload(const json& w, const std::string& ptr)
    {
        checkFields(w, ptr, "workload");
        Workload out;
        out.id = id(w, ptr);
        out.name = str(w, ptr, "name", true);
        out.command = strList(w, ptr, "command", true);
        if (out.command.empty())
            fail(ptr, "workload '" + out.id + "' needs a non-empty 'command'");
        if (const json* byOs = field(w, ptr, "command_by_os", false)) {
            const auto p = child(ptr, "command_by_os");
            if (!byOs->is_object())
                fail(p, "'command_by_os' must map an OS to an argv list");
            for (auto it = byOs->begin(); it != byOs->end(); ++it) {
                if (!kCatalogOs.count(it.key()))
                    fail(child(p, it.key()),
                         "'command_by_os' key '" + it.key() + "' is not windows or linux");
                out.commandByOs[it.key()] =
                    strListValue(*it, child(p, it.key()), "command_by_os", true);
            }
        }
        out.cwd = str(w, ptr, "cwd", false, true);
        out.urlRegex = str(w, ptr, "url_regex", false);
        compileRegex(out.urlRegex, child(ptr, "url_regex"), true);
        if (const auto port = count(w, ptr, "default_port")) {
            if (*port < 1 || *port > 65535)
                fail(child(ptr, "default_port"), "'default_port' must be 1..65535");
            out.defaultPort = static_cast<int>(*port);
        }
        out.env = strMap(w, ptr, "env", true);
        out.model = readWorkloadModel(*this, w, ptr);
        out.argsWhen = readArgsRules(*this, w, ptr);
        out.references = strList(w, ptr, "references");
        out.verify = strList(w, ptr, "verify", true);
        out.verifyTimeoutS = verifyTimeout(w, ptr);
        str(w, ptr, "notes", false);
        out.ui = readWorkloadUi(*this, w, ptr);
        out.where = where(ptr);
        return out;
    }

    Profile profile(const json& p, const std::string& ptr)
    {
        checkFields(p, ptr, "profile");
        Profile out;
        out.id = id(p, ptr);
        out.workload = str(p, ptr, "workload", true);
        const auto status = str(p, ptr, "status", true);
        if (status == "tested")
            out.status = ProfileStatus::Tested;
        else if (status == "community")
            out.status = ProfileStatus::Community;
        else if (status == "experimental")
            out.status = ProfileStatus::Experimental;
        else
            fail(child(ptr, "status"), "'status' must be tested, community or experimental");
        if (const json* m = field(p, ptr, "match", false))
            out.match = readConditions(*this, *m, child(ptr, "match"), "match");
        out.runtimes = strList(p, ptr, "runtimes");
        out.env = strMap(p, ptr, "env", true);
        out.envWhy = strMap(p, ptr, "env_why");
        out.envUnset = strList(p, ptr, "env_unset");
        out.args = strList(p, ptr, "args", true);
        if (const json* steps = field(p, ptr, "steps", false)) {
            const auto sp = child(ptr, "steps");
            if (!steps->is_array())
                fail(sp, "'steps' must be an array of argv arrays");
            for (std::size_t i = 0; i < steps->size(); ++i) {
                const auto ip = sp + "/" + std::to_string(i);
                out.steps.push_back(strListValue((*steps)[i], ip, "steps", true));
                if (out.steps.back().empty())
                    fail(ip, "a step needs at least a program name");
            }
        }
        out.references = strList(p, ptr, "references");
        out.notes = str(p, ptr, "notes", false);
        out.command = strList(p, ptr, "command", true);
        out.python = str(p, ptr, "python", false, true);
        out.warnings = strList(p, ptr, "warnings");
        out.fallback = boolean(p, ptr, "fallback");
        out.cwd = str(p, ptr, "cwd", false, true);
        out.venv = boolean(p, ptr, "venv");
        out.preference = preference(p, ptr);
        out.verify = strList(p, ptr, "verify", true);
        out.verifyTimeoutS = verifyTimeout(p, ptr);
        out.ui = readProfileUi(*this, p, ptr);
        out.proof = readProfileProof(*this, p, ptr);
        out.where = where(ptr);
        return out;
    }

    int preference(const json& p, const std::string& ptr)
    {
        const json* v = field(p, ptr, "preference", false);
        if (!v)
            return 0;
        if (!v->is_number_integer() || v->get<std::int64_t>() < -100 ||
            v->get<std::int64_t>() > 100)
            fail(child(ptr, "preference"), "'preference' must be an integer from -100 to 100");
        return static_cast<int>(v->get<std::int64_t>());
    }

    void compileRegex(const std::string& re, const std::string& ptr, bool captures = false)
    {
        if (re.empty())
            return;
        if (auto compiled = logmatch::compileSignature(re, captures); !compiled)
            fail(ptr, compiled.error().message);
    }

    // A remedy must carry what its action needs, so applying it later cannot fail on
    // the catalog's account.
    Remedy remedy(const json& r, const std::string& rp)
    {
        checkFields(r, rp, "remedy");
        Remedy out;
        const std::string action = str(r, rp, "action", false);
        if (!action.empty()) {
            const auto parsed = remedyActionFromString(action);
            if (!parsed)
                fail(child(rp, "action"),
                     "remedy 'action' '" + action +
                         "' is not one of switch_profile, set_env, add_args, relocate_caches, "
                         "repair_runtime, info");
            out.action = *parsed;
        }
        out.text = str(r, rp, "text", false);
        out.profile = str(r, rp, "profile", false);
        out.env = strMap(r, rp, "env", true);
        out.args = strList(r, rp, "args");
        out.runtime = str(r, rp, "runtime", false);
        out.runtimeKind = str(r, rp, "runtime_kind", false);
        checkRemedy(r, rp, out);
        return out;
    }

    void checkRemedy(const json& r, const std::string& rp, const Remedy& out)
    {
        const std::string what = "a remedy '" + toString(out.action) + "' needs ";
        if (out.action == RemedyAction::SetEnv && out.env.empty())
            fail(r.contains("env") ? child(rp, "env") : rp, what + "a non-empty 'env'");
        if (out.action == RemedyAction::AddArgs && out.args.empty())
            fail(r.contains("args") ? child(rp, "args") : rp, what + "a non-empty 'args'");
        if (out.action == RemedyAction::RepairRuntime &&
            out.runtime.empty() == out.runtimeKind.empty())
            fail(rp, what + "exactly one of 'runtime' or 'runtime_kind'");
    }

    KnownIssue knownIssue(const json& k, const std::string& ptr)
    {
        checkFields(k, ptr, "known_issue");
        KnownIssue out;
        out.id = id(k, ptr);
        out.title = str(k, ptr, "title", true);
        if (const json* a = field(k, ptr, "applies", false))
            out.applies = readConditions(*this, *a, child(ptr, "applies"), "applies");
        out.rejectsProfiles = boolean(k, ptr, "rejects_profiles");
        out.signatures = strList(k, ptr, "signatures");
        for (std::size_t i = 0; i < out.signatures.size(); ++i) {
            if (out.signatures[i].size() > 4096)
                fail(child(ptr, "signatures") + "/" + std::to_string(i),
                     "signature longer than 4096 characters");
            compileRegex(out.signatures[i], child(ptr, "signatures") + "/" + std::to_string(i));
        }
        out.logRequires = strList(k, ptr, "log_requires");
        for (std::size_t i = 0; i < out.logRequires.size(); ++i) {
            if (out.logRequires[i].size() > 4096)
                fail(child(ptr, "log_requires") + "/" + std::to_string(i),
                     "pattern longer than 4096 characters");
            compileRegex(out.logRequires[i], child(ptr, "log_requires") + "/" + std::to_string(i));
        }
        out.literals = strList(k, ptr, "literals");
        out.causes = readCauses(*this, k, ptr);
        if (const json* r = field(k, ptr, "remedy", false))
            out.remedy = remedy(*r, child(ptr, "remedy"));
        out.references = strList(k, ptr, "references");
        str(k, ptr, "notes", false);
        out.ui = readKnownIssueUi(*this, k, ptr);
        out.where = where(ptr);
        return out;
    }
};

} // namespace

Expected<Catalog> readCatalogDocument(const nlohmann::json& doc, const std::string& origin,
                                      const PositionIndex& index,
                                      std::vector<std::string>& warnings)
{
    Reader reader(origin, index, warnings);
    Catalog parsed;
    try {
        if (!index.duplicateKeys().empty()) {
            const auto& [ptr, pos] = index.duplicateKeys().front();
            return Error::invalid(origin + ":" + std::to_string(pos.line) + ":" +
                                  std::to_string(pos.column) + ": duplicate key " + ptr);
        }
        reader.checkFields(doc, "", "file");
        const json* version = reader.field(doc, "", "schema_version", true);
        if (!version->is_number_integer() || version->get<std::int64_t>() != 1)
            reader.fail("/schema_version",
                        "'schema_version' must be 1 (this StackPilot reads version 1)");
        auto each = [&](const char* key, auto&& fn) { eachEntry(reader, doc, key, "id", fn); };
        each("runtimes", [&](const json& j, const std::string& p) {
            parsed.runtimes.push_back(reader.runtime(j, p));
            return parsed.runtimes.back().id;
        });
        each("workloads", [&](const json& j, const std::string& p) {
            parsed.workloads.push_back(reader.workload(j, p));
            return parsed.workloads.back().id;
        });
        each("profiles", [&](const json& j, const std::string& p) {
            parsed.profiles.push_back(reader.profile(j, p));
            return parsed.profiles.back().id;
        });
        each("known_issues", [&](const json& j, const std::string& p) {
            parsed.knownIssues.push_back(reader.knownIssue(j, p));
            return parsed.knownIssues.back().id;
        });
        readPolicyTables(reader, doc, parsed);
        readModels(reader, doc, parsed);
    } catch (const CatalogReadFailure& f) {
        return Error::invalid(f.message);
    } catch (const json::exception& e) {
        return Error::invalid(origin + ":1:1: " + e.what()); // should not happen: types are checked
    }
    return parsed;
}

} // namespace sp
