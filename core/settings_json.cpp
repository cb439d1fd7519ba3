#include "core/settings_json.h"

#include <algorithm>

namespace sp::settings_json {

namespace {

using nlohmann::json;

// Thrown inside this file only, so each reader reads like the format it checks;
// readWorkloads turns it back into an Error.
struct Failure
{
    Error error;
};

struct SettingsReader
{
    const Locator& loc;

    [[noreturn]] void fail(std::size_t at, const std::string& why) const
    {
        throw Failure{loc.at(at, why)};
    }

    std::string string(const json& v, std::size_t at, const std::string& what) const
    {
        if (!v.is_string())
            fail(at, what + " must be a string");
        return v.get<std::string>();
    }

    std::vector<std::string> strings(const json& v, std::size_t at, const std::string& what) const
    {
        if (!v.is_array())
            fail(at, what + " must be a list of strings");
        std::vector<std::string> out;
        for (const auto& s : v)
            out.push_back(string(s, at, what + " entries"));
        return out;
    }

    std::map<std::string, bool> presence(const json& v, std::size_t at,
                                         const std::string& what) const
    {
        if (!v.is_object())
            fail(at, what + " must map each item to true or false (was it there before)");
        std::map<std::string, bool> out;
        for (const auto& [k, b] : v.items()) {
            if (!b.is_boolean())
                fail(loc.keyAt(k, at), what + " \"" + k + "\" must be true or false");
            out[k] = b.get<bool>();
        }
        return out;
    }

    RemedyBefore before(const json& v, std::size_t at) const
    {
        if (!v.is_object())
            fail(at, "\"before\" must be an object");
        RemedyBefore b;
        for (const auto& [key, x] : v.items()) {
            const std::size_t where = loc.keyAt(key, at);
            if (key == "profile") {
                b.profile = string(x, where, "\"before.profile\"");
            } else if (key == "env") {
                if (!x.is_object())
                    fail(where, "\"before.env\" must map a variable to its old value or null");
                for (const auto& [name, old] : x.items()) {
                    if (old.is_null())
                        b.env[name] = std::nullopt;
                    else
                        b.env[name] = string(old, loc.keyAt(name, where), "\"before.env\" values");
                }
            } else if (key == "args") {
                b.args = presence(x, where, "\"before.args\"");
            } else if (key == "relocate_caches") {
                if (!x.is_boolean())
                    fail(where, "\"before.relocate_caches\" must be true or false");
                b.relocateCaches = x.get<bool>();
            } else if (key == "repair") {
                b.repair = presence(x, where, "\"before.repair\"");
            }
        }
        return b;
    }

    AppliedRemedy remedy(const json& v, std::size_t at) const
    {
        if (!v.is_object())
            fail(at, "each of \"remedies\" must be an object");
        AppliedRemedy r;
        for (const auto& [key, x] : v.items()) {
            const std::size_t where = loc.keyAt(key, at);
            if (key == "issue") {
                r.issue = string(x, where, "\"issue\"");
            } else if (key == "action") {
                const auto action = remedyActionFromString(string(x, where, "\"action\""));
                if (!action)
                    fail(where, "\"action\" must be one of switch_profile, set_env, add_args, "
                                "relocate_caches, repair_runtime, info");
                r.action = *action;
            } else if (key == "applied_at") {
                r.appliedAt = string(x, where, "\"applied_at\"");
            } else if (key == "before") {
                r.before = before(x, where);
            }
        }
        if (r.issue.empty())
            fail(at, "each of \"remedies\" needs an \"issue\"");
        return r;
    }

    WorkloadOverrides workload(const json& v, std::size_t at, const std::string& id) const
    {
        if (!v.is_object())
            fail(at, "workload \"" + id + "\" must be an object");
        WorkloadOverrides w;
        for (const auto& [key, x] : v.items()) {
            const std::size_t where = loc.keyAt(key, at);
            if (key == "profile") {
                w.profile = string(x, where, "\"profile\"");
            } else if (key == "accept_rejected") {
                if (!x.is_boolean())
                    fail(where, "\"accept_rejected\" must be true or false");
                w.acceptRejected = x.get<bool>();
            } else if (key == "env") {
                if (!x.is_object())
                    fail(where, "\"env\" must be an object of strings");
                for (const auto& [name, value] : x.items())
                    w.env[name] = string(value, loc.keyAt(name, where), "\"env\" values");
            } else if (key == "args") {
                w.args = strings(x, where, "\"args\"");
            } else if (key == "relocate_caches") {
                if (!x.is_boolean())
                    fail(where, "\"relocate_caches\" must be true or false");
                w.relocateCaches = x.get<bool>();
            } else if (key == "repair") {
                w.repair = strings(x, where, "\"repair\"");
            } else if (key == "model") {
                w.model = string(x, where, "\"model\"");
            } else if (key == "gpu") {
                w.gpu = gpuIdentityFromJson(x);
                if (!w.gpu && !x.is_null())
                    fail(where, "\"gpu\" must be an object with \"pci_bus\", \"pci_id\" or "
                                "\"name\"");
            } else if (key == "remedies") {
                if (!x.is_array())
                    fail(where, "\"remedies\" must be a list");
                std::size_t from = where;
                for (const auto& r : x) {
                    from = loc.keyAt("issue", from + 1);
                    w.remedies.push_back(remedy(r, from));
                }
            }
        }
        return w;
    }
};

json presenceToJson(const std::map<std::string, bool>& m)
{
    json j = json::object();
    for (const auto& [k, b] : m)
        j[k] = b;
    return j;
}

json beforeToJson(const RemedyBefore& b)
{
    json j = json::object();
    if (b.profile)
        j["profile"] = *b.profile;
    if (!b.env.empty()) {
        json env = json::object();
        for (const auto& [k, v] : b.env)
            env[k] = v ? json(*v) : json(nullptr);
        j["env"] = env;
    }
    if (!b.args.empty())
        j["args"] = presenceToJson(b.args);
    if (b.relocateCaches)
        j["relocate_caches"] = *b.relocateCaches;
    if (!b.repair.empty())
        j["repair"] = presenceToJson(b.repair);
    return j;
}

} // namespace

Error Locator::at(std::size_t byte, const std::string& why) const
{
    int line = 1;
    int column = 1;
    byte = std::min(byte, text.size());
    for (std::size_t i = 0; i < byte; ++i) {
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
    return Error::invalid(name + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " +
                          why);
}

std::size_t Locator::keyAt(const std::string& key, std::size_t from) const
{
    const std::string quoted = json(key).dump();
    for (auto pos = text.find(quoted, from); pos != std::string::npos;
         pos = text.find(quoted, pos + 1)) {
        auto after = text.find_first_not_of(" \t\r\n", pos + quoted.size());
        if (after != std::string::npos && text[after] == ':')
            return pos;
    }
    return from;
}

Expected<std::map<std::string, WorkloadOverrides>>
readWorkloads(const nlohmann::json& v, const Locator& loc, std::size_t where)
{
    const SettingsReader r{loc};
    try {
        if (!v.is_object())
            r.fail(where, "\"workloads\" must be an object of workload id: overrides");
        std::map<std::string, WorkloadOverrides> out;
        for (const auto& [id, w] : v.items())
            out[id] = r.workload(w, loc.keyAt(id, where), id);
        return out;
    } catch (const Failure& f) {
        return f.error;
    }
}

nlohmann::json workloadsToJson(const std::map<std::string, WorkloadOverrides>& workloads)
{
    json out = json::object();
    for (const auto& [id, w] : workloads) {
        json remedies = json::array();
        for (const auto& r : w.remedies)
            remedies.push_back({{"issue", r.issue},
                                {"action", toString(r.action)},
                                {"applied_at", r.appliedAt},
                                {"before", beforeToJson(r.before)}});
        out[id] = {
            {"profile", w.profile}, {"accept_rejected", w.acceptRejected}, {"env", w.env},
            {"args", w.args},       {"relocate_caches", w.relocateCaches}, {"repair", w.repair},
            {"remedies", remedies}};
        if (w.gpu)
            out[id]["gpu"] = toJson(*w.gpu);
        if (!w.model.empty())
            out[id]["model"] = w.model;
    }
    return out;
}

} // namespace sp::settings_json
