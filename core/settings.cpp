#include "core/settings.h"

#include "core/atomic_file.h"
#include "core/json_file.h"
#include "core/locked_json.h"
#include "core/paths.h"
#include "core/qt_text.h"
#include "core/settings_json.h"

#include <QLockFile>
#include <QString>
#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <system_error>

namespace sp {

namespace {

using nlohmann::json;

bool inRange(const json& v, long long low, long long high)
{
    return v.is_number_integer() && v.get<long long>() >= low && v.get<long long>() <= high;
}

bool isHttpUrl(const std::string& s)
{
    return s.rfind("https://", 0) == 0 || s.rfind("http://", 0) == 0;
}

Expected<std::vector<std::string>> readMirrorList(const std::string& host, const json& list,
                                                  const settings_json::Locator& p,
                                                  std::size_t hostAt)
{
    if (!list.is_array())
        return p.at(hostAt, "mirrors for \"" + host + "\" must be a list of URLs");
    std::vector<std::string> prefixes;
    for (const auto& u : list) {
        if (!u.is_string() || !isHttpUrl(u.get<std::string>()))
            return p.at(hostAt,
                        "mirrors for \"" + host + "\" must be http:// or https:// URL prefixes");
        prefixes.push_back(u.get<std::string>());
    }
    return prefixes;
}

Expected<void> readMirrors(Settings& s, const json& v, const settings_json::Locator& p,
                           std::size_t where)
{
    if (!v.is_object())
        return p.at(where, "\"mirrors\" must be an object of host: [URL prefixes]");
    for (const auto& [host, list] : v.items()) {
        auto prefixes = readMirrorList(host, list, p, p.keyAt(host, where));
        if (!prefixes)
            return prefixes.error();
        s.mirrors[host] = std::move(*prefixes);
    }
    return {};
}

// An integer setting in [low, high]; `why` ends the error message.
Expected<void> readInt(int& out, const json& v, const settings_json::Locator& p, std::size_t where,
                       const std::string& key, long long low, long long high,
                       const std::string& why = {})
{
    if (!inRange(v, low, high))
        return p.at(where, "\"" + key + "\" must be an integer from " + std::to_string(low) +
                               " to " + std::to_string(high) + why);
    out = v.get<int>();
    return {};
}

// One top-level key. Unknown keys are ignored: a newer StackPilot may have written them.
Expected<void> readKey(Settings& s, const std::string& key, const json& v,
                       const settings_json::Locator& p)
{
    const std::size_t where = p.keyAt(key);
    if (key == "proxy") {
        if (!v.is_string())
            return p.at(where, "\"proxy\" must be a string");
        if (const auto proxy = v.get<std::string>(); !proxy.empty())
            s.proxy = proxy;
    } else if (key == "hf_token") {
        if (!v.is_string())
            return p.at(where, "\"hf_token\" must be a string");
        s.hfToken = v.get<std::string>();
    } else if (key == "mirrors") {
        return readMirrors(s, v, p, where);
    } else if (key == "mirrors_first") {
        if (!v.is_boolean())
            return p.at(where, "\"mirrors_first\" must be true or false");
        s.mirrorsFirst = v.get<bool>();
    } else if (key == "parallel_downloads") {
        return readInt(s.parallelDownloads, v, p, where, key, 1, 16);
    } else if (key == "max_extract_size") {
        if (!v.is_number_unsigned() || v.get<std::uint64_t>() == 0)
            return p.at(where, "\"max_extract_size\" must be a positive number of bytes");
        s.maxExtractSize = v.get<std::uint64_t>();
    } else if (key == "keep_launches") {
        return readInt(s.keepLaunches, v, p, where, key, 1, 1000);
    } else if (key == "stop_grace_ms") {
        return readInt(s.stopGraceMs, v, p, where, key, 0, 600000);
    } else if (key == "console_code_page") {
        return readInt(s.consoleCodePage, v, p, where, key, 0, 65535, " (0 = the system's)");
    } else if (key == "install_dir" || key == "cache_dir" || key == "language" ||
               key == "last_workload") {
        if (!v.is_string())
            return p.at(where, "\"" + key + "\" must be a string");
        if (key == "language" || key == "last_workload")
            (key == "language" ? s.language : s.lastWorkload) = v.get<std::string>();
        else
            (key == "install_dir" ? s.installDir : s.cacheDir) =
                paths::fromUtf8(v.get<std::string>());
    } else if (key == "share_results") {
        if (!v.is_string() || !(v == "ask" || v == "always" || v == "never"))
            return p.at(where, "\"share_results\" must be \"ask\", \"always\" or \"never\"");
        s.shareResults = v.get<std::string>();
    } else if (key == "ledger_url") {
        // An address records may go to: https, or http on this PC (a lab's server).
        const bool ok = v.is_string() && (v.get<std::string>().empty() ||
                                          v.get<std::string>().rfind("https://", 0) == 0 ||
                                          v.get<std::string>().rfind("http://127.0.0.1", 0) == 0 ||
                                          v.get<std::string>().rfind("http://localhost", 0) == 0);
        if (!ok)
            return p.at(where, "\"ledger_url\" must be an https:// address (or http:// on "
                               "127.0.0.1)");
        s.ledgerUrl = v.get<std::string>();
    } else if (key == "theme") {
        if (!v.is_string() || !(v == "" || v == "light" || v == "dark"))
            return p.at(where, "\"theme\" must be \"\" (the system's), \"light\" or \"dark\"");
        s.theme = v.get<std::string>();
    } else if (key == "probe_timeout_ms") {
        return readInt(s.probeTimeoutMs, v, p, where, key, 100, 600000);
    } else if (key == "open_browser") {
        if (!v.is_boolean())
            return p.at(where, "\"open_browser\" must be true or false");
        s.openBrowser = v.get<bool>();
    } else if (key == "workloads") {
        auto w = settings_json::readWorkloads(v, p, where);
        if (!w)
            return w.error();
        s.workloads = std::move(*w);
    } else if (key == "allowed_profiles") {
        if (!v.is_array() || !std::all_of(v.begin(), v.end(), [](const json& e) {
                return e.is_string() && !e.get<std::string>().empty();
            }))
            return p.at(where, "\"allowed_profiles\" must be a list of profile ids");
        s.allowedProfiles = v.get<std::vector<std::string>>();
    }
    return {};
}

} // namespace

std::filesystem::path Settings::defaultFile()
{
    return paths::configDir() / "settings.json";
}

Expected<Settings> Settings::load()
{
    return loadFile(defaultFile());
}

Expected<Settings> Settings::loadFile(const std::filesystem::path& file)
{
    std::error_code ec;
    if (!std::filesystem::exists(file, ec))
        return Settings{};
    auto text = readRegularFile(file, kSettingsLimits.maxBytes, "settings");
    if (!text)
        return text.error();
    return parse(*text, paths::toUtf8(file));
}

Expected<Settings> Settings::parse(const std::string& text, const std::string& name)
{
    const settings_json::Locator p{text, name};
    if (auto deep = checkJsonDepth(text, name, kSettingsLimits.maxDepth); !deep.empty())
        return Error::invalid(deep);
    json j;
    try {
        j = json::parse(text);
    } catch (const json::parse_error& e) {
        // what() is "[json.exception.parse_error.101] parse error at line L, column C: why"
        std::string why = e.what();
        if (auto c = why.find("column"); c != std::string::npos)
            if (auto colon = why.find(": ", c); colon != std::string::npos)
                why = why.substr(colon + 2);
        return p.at(e.byte > 0 ? e.byte - 1 : 0, "invalid JSON: " + why);
    } catch (const json::exception& e) { // a number out of range
        return Error::invalid(name + ": invalid JSON: " + e.what());
    }
    if (!j.is_object())
        return p.at(text.find_first_not_of(" \t\r\n"), "settings must be a JSON object");

    Settings s;
    for (const auto& [key, v] : j.items())
        if (auto ok = readKey(s, key, v, p); !ok)
            return ok.error();
    s.document = text;
    return s;
}

std::string Settings::toJson() const
{
    json j = json::object();
    j["proxy"] = proxy.value_or("");
    if (!hfToken.empty())
        j["hf_token"] = hfToken;
    j["mirrors"] = mirrors;
    j["mirrors_first"] = mirrorsFirst;
    j["parallel_downloads"] = parallelDownloads;
    j["max_extract_size"] = maxExtractSize;
    j["keep_launches"] = keepLaunches;
    j["stop_grace_ms"] = stopGraceMs;
    j["console_code_page"] = consoleCodePage;
    j["install_dir"] = paths::toUtf8(installDir);
    j["cache_dir"] = paths::toUtf8(cacheDir);
    j["probe_timeout_ms"] = probeTimeoutMs;
    j["open_browser"] = openBrowser;
    j["language"] = language;
    j["theme"] = theme;
    if (!lastWorkload.empty())
        j["last_workload"] = lastWorkload;
    j["share_results"] = shareResults;
    if (!ledgerUrl.empty())
        j["ledger_url"] = ledgerUrl;
    j["workloads"] = settings_json::workloadsToJson(workloads);
    if (!allowedProfiles.empty())
        j["allowed_profiles"] = allowedProfiles;
    return document.empty() ? j.dump(2) + "\n" : settings_json::mergeDocument(document, j);
}

void Settings::applyFolders() const
{
    paths::setUserFolders(installDir, cacheDir);
}

Expected<void> Settings::save(const std::filesystem::path& file) const
{
    return replaceFileAtomically(file, toJson(), "settings");
}

Expected<Settings> Settings::update(const std::filesystem::path& file, const Change& change)
{
    auto lock = lockDocument(file); // read, change and write under one cross-process lock
    if (!lock)
        return lock.error();
    auto current = loadFile(file);
    if (!current)
        return current.error();
    const std::string before = current->toJson();
    if (auto changed = change(*current); !changed)
        return changed.error();
    if (current->toJson() == before)
        return current; // nothing changed: the file stays as the user wrote it
    if (auto saved = current->save(file); !saved)
        return saved.error();
    current->document = current->toJson();
    return current;
}

std::vector<std::string> Settings::mirrorUrlsFor(const std::string& url) const
{
    const auto scheme = url.find("://");
    if (scheme == std::string::npos)
        return {};
    const auto pathStart = url.find_first_of("/?#", scheme + 3);
    std::string authority = url.substr(
        scheme + 3, pathStart == std::string::npos ? std::string::npos : pathStart - scheme - 3);
    if (auto at = authority.rfind('@'); at != std::string::npos)
        authority.erase(0, at + 1);
    std::string host = authority;
    if (auto colon = host.rfind(':'); colon != std::string::npos && host.back() != ']')
        host.erase(colon);
    std::transform(host.begin(), host.end(), host.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    // A rule for "host:port" wins over one for the bare host.
    auto it = mirrors.find(authority);
    if (it == mirrors.end())
        it = mirrors.find(host);
    if (it == mirrors.end())
        return {};
    const std::string rest = pathStart == std::string::npos ? "" : url.substr(pathStart);
    std::vector<std::string> out;
    for (std::string prefix : it->second) {
        while (!prefix.empty() && prefix.back() == '/')
            prefix.pop_back();
        out.push_back(prefix + rest);
    }
    return out;
}

std::vector<std::string> Settings::expandUrls(const std::vector<std::string>& urls) const
{
    std::vector<std::string> out;
    std::set<std::string> seen;
    auto add = [&](const std::string& u) {
        if (seen.insert(u).second)
            out.push_back(u);
    };
    for (const auto& u : urls) {
        const auto m = mirrorUrlsFor(u);
        if (!mirrorsFirst)
            add(u);
        for (const auto& x : m)
            add(x);
        if (mirrorsFirst)
            add(u);
    }
    return out;
}

} // namespace sp
