// Writing settings.json back without losing what this version does not know: the
// values StackPilot owns come from the Settings, everything else from the document the
// settings were loaded from, in its place.

#include "core/settings_json.h"

#include <array>
#include <string_view>

namespace sp::settings_json {

namespace {

using ordered = nlohmann::ordered_json;

constexpr std::array<std::string_view, 7> kWorkloadKeys = {
    "profile", "accept_rejected", "env", "args", "relocate_caches", "repair", "remedies"};
constexpr std::array<std::string_view, 4> kRemedyKeys = {"issue", "action", "applied_at", "before"};
constexpr std::array<std::string_view, 5> kBeforeKeys = {"profile", "env", "args",
                                                         "relocate_caches", "repair"};

template <std::size_t N>
bool known(const std::array<std::string_view, N>& keys, const std::string& k)
{
    for (auto key : keys)
        if (key == k)
            return true;
    return false;
}

// `raw` with the known keys replaced by `fresh`'s (a known key `fresh` lacks is gone);
// `child` merges the value of one key further down.
template <std::size_t N, class Child>
ordered mergeRecord(const ordered& raw, const ordered& fresh,
                    const std::array<std::string_view, N>& keys, Child child)
{
    ordered out = raw.is_object() ? raw : ordered::object();
    for (auto it = out.begin(); it != out.end();)
        it = known(keys, it.key()) && !fresh.contains(it.key()) ? out.erase(it) : std::next(it);
    for (const auto& [k, v] : fresh.items())
        out[k] = raw.is_object() && raw.contains(k) ? child(k, raw.at(k), v) : v;
    return out;
}

ordered takeFresh(const std::string&, const ordered&, const ordered& fresh)
{
    return fresh;
}

// A remedy record is matched with the stored one of the same issue and time.
ordered mergeRemedies(const ordered& raw, const ordered& fresh)
{
    ordered out = ordered::array();
    for (const auto& r : fresh) {
        const ordered* old = nullptr;
        if (raw.is_array())
            for (const auto& o : raw)
                if (o.is_object() && o.value("issue", "") == r.value("issue", "") &&
                    o.value("applied_at", "") == r.value("applied_at", ""))
                    old = &o;
        if (!old) {
            out.push_back(r);
            continue;
        }
        out.push_back(mergeRecord(
            *old, r, kRemedyKeys, [](const std::string& k, const ordered& a, const ordered& b) {
                return k == "before" ? mergeRecord(a, b, kBeforeKeys, takeFresh) : b;
            }));
    }
    return out;
}

bool isDefault(const ordered& v)
{
    if (v.is_boolean())
        return !v.get<bool>();
    if (v.is_string())
        return v.get<std::string>().empty();
    return (v.is_array() || v.is_object()) && v.empty();
}

// An entry the user wrote keeps its shape: known keys it did not have are added only
// when they say something (a workload of a newer version's keys gets no defaults).
ordered mergeWorkload(const ordered& raw, const ordered& fresh)
{
    ordered out = mergeRecord(raw, fresh, kWorkloadKeys,
                              [](const std::string& k, const ordered& a, const ordered& b) {
                                  return k == "remedies" ? mergeRemedies(a, b) : b;
                              });
    if (raw.is_object())
        for (auto it = out.begin(); it != out.end();)
            it = !raw.contains(it.key()) && isDefault(it.value()) ? out.erase(it) : std::next(it);
    return out;
}

// Workload ids are the user's: one StackPilot dropped keeps only its unknown keys.
ordered mergeWorkloads(const ordered& raw, const ordered& fresh)
{
    ordered out = ordered::object();
    if (raw.is_object())
        for (const auto& [id, w] : raw.items()) {
            if (fresh.contains(id)) {
                out[id] = mergeWorkload(w, fresh.at(id));
                continue;
            }
            ordered rest = mergeWorkload(w, ordered::object());
            if (!rest.empty())
                out[id] = rest;
        }
    for (const auto& [id, w] : fresh.items())
        if (!out.contains(id))
            out[id] = w;
    return out;
}

} // namespace

std::string mergeDocument(const std::string& original, const nlohmann::json& freshPlain)
{
    const ordered fresh = ordered::parse(freshPlain.dump());
    ordered raw = ordered::parse(original, nullptr, false);
    if (!raw.is_object())
        return fresh.dump(2) + "\n";
    for (const auto& [k, v] : fresh.items())
        raw[k] = k == "workloads" && raw.contains(k) ? mergeWorkloads(raw.at(k), v) : v;
    return raw.dump(2) + "\n";
}

} // namespace sp::settings_json
