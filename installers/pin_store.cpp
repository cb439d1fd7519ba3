#include "installers/pin_store.h"

#include "core/locked_json.h"
#include "core/paths.h"

namespace sp {

namespace {

constexpr JsonLimits kPinLimits{8u << 20, 8};

Expected<DownloadPin> pinFromJson(const nlohmann::json& j, const std::string& where)
{
    if (!j.is_object() || !j.contains("sha256") || !j["sha256"].is_string() ||
        !j.contains("size") || !j["size"].is_number_unsigned())
        return Error::invalid(where + ": a pin needs \"sha256\" (text) and \"size\" (bytes)");
    DownloadPin p;
    p.sha256 = j["sha256"].get<std::string>();
    p.size = j["size"].get<std::uint64_t>();
    if (const auto t = j.find("first_seen"); t != j.end() && t->is_string())
        p.firstSeen = t->get<std::string>();
    return p;
}

nlohmann::json pinToJson(const DownloadPin& p)
{
    return {{"sha256", p.sha256}, {"size", p.size}, {"first_seen", p.firstSeen}};
}

} // namespace

const char* toString(PinOrigin o)
{
    switch (o) {
    case PinOrigin::Catalog:
        return "catalog";
    case PinOrigin::Here:
        return "here";
    case PinOrigin::New:
        break;
    }
    return "new";
}

PinStore::PinStore(std::filesystem::path file) : m_file(std::move(file)) {}

std::filesystem::path PinStore::defaultFile()
{
    return paths::dataDir() / "pins.json";
}

Expected<std::map<std::string, DownloadPin>> parsePins(const nlohmann::json& doc,
                                                       const std::string& where)
{
    std::map<std::string, DownloadPin> out;
    if (!doc.is_object())
        return Error::invalid(where + ": must be a JSON object");
    const auto pins = doc.find("pins");
    if (pins == doc.end())
        return out;
    if (!pins->is_object())
        return Error::invalid(where + ": \"pins\" must be an object keyed by URL");
    for (const auto& [url, j] : pins->items()) {
        auto p = pinFromJson(j, where + ": pins[\"" + url + "\"]");
        if (!p)
            return p.error();
        out[url] = std::move(*p);
    }
    return out;
}

Expected<std::map<std::string, DownloadPin>> PinStore::all() const
{
    auto doc = readJsonDocument(m_file, kPinLimits, "download pins");
    if (!doc)
        return doc.error();
    return parsePins(*doc, paths::toUtf8(m_file));
}

std::set<std::string> PinStore::urls() const
{
    std::set<std::string> out;
    if (auto pins = all())
        for (const auto& [url, pin] : *pins)
            out.insert(url);
    return out;
}

Expected<std::optional<DownloadPin>> PinStore::find(const std::string& url) const
{
    auto pins = all();
    if (!pins)
        return pins.error();
    const auto it = pins->find(url);
    return it == pins->end() ? std::nullopt : std::optional<DownloadPin>(it->second);
}

Expected<void> PinStore::check(const std::string& url, const DownloadPin& got,
                               bool acceptChanged) const
{
    return updateJsonDocument(m_file, kPinLimits, "download pins", [&](nlohmann::json& doc) {
        nlohmann::json& pins = doc["pins"];
        if (!pins.is_object())
            pins = nlohmann::json::object();
        if (pins.contains(url)) {
            auto before = pinFromJson(pins[url], paths::toUtf8(m_file));
            if (!before)
                return Expected<void>(before.error());
            if (before->sha256 == got.sha256)
                return Expected<void>();
            if (!acceptChanged)
                return Expected<void>(
                    Error::runtime(
                        "the file at this address changed since it was first installed on this "
                        "machine: " +
                        url + " was " + before->sha256 + " (" + std::to_string(before->size) +
                        " bytes, first seen " + before->firstSeen + "), now " + got.sha256 + " (" +
                        std::to_string(got.size) +
                        " bytes); nothing was installed. If the publisher replaced it on purpose, "
                        "install again with --accept-changed")
                        .withCause(Cause::Checksum));
        }
        pins[url] = pinToJson(got);
        return Expected<void>();
    });
}

} // namespace sp
