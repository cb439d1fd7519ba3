#include "core/catalog/proof_reader.h"

#include <re2/re2.h>

namespace sp {

using nlohmann::json;

namespace {

std::int64_t proofCount(FieldReader& r, const json& obj, const std::string& ptr, const char* key,
                        std::int64_t max = 1000000000)
{
    const auto it = obj.find(key);
    if (it == obj.end() || !it->is_number_integer() || it->get<std::int64_t>() < 0 ||
        it->get<std::int64_t>() > max)
        r.fail(FieldReader::child(ptr, key), std::string("'") + key +
                                                 "' must be a whole number from 0 to " +
                                                 std::to_string(max));
    return it->get<std::int64_t>();
}

// "by_gpu": [{"arch": "gfx1031", "passed_installs": 20, "failed_installs": 1,
// "installs": 21, "last_seen": "..."}], at most 256 families.
std::vector<GpuFamilyProof> familyProofs(FieldReader& r, const json& proof, const std::string& at)
{
    std::vector<GpuFamilyProof> out;
    const auto it = proof.find("by_gpu");
    if (it == proof.end())
        return out;
    const std::string list = FieldReader::child(at, "by_gpu");
    if (!it->is_array() || it->size() > 256)
        r.fail(list, "'by_gpu' must be a list of at most 256 GPU families");
    for (std::size_t i = 0; i < it->size(); ++i) {
        const json& f = (*it)[i];
        const std::string ptr = list + "/" + std::to_string(i);
        if (!f.is_object())
            r.fail(ptr, "expected an object");
        GpuFamilyProof g;
        g.arch = r.str(f, ptr, "arch", true);
        if (!RE2::FullMatch(g.arch, "gfx[0-9a-f]{3,5}|sm_[0-9]{2,3}"))
            r.fail(FieldReader::child(ptr, "arch"), "'arch' must be a gfx target or sm_NN");
        g.passedInstalls = proofCount(r, f, ptr, "passed_installs");
        g.failedInstalls = proofCount(r, f, ptr, "failed_installs");
        g.installs = proofCount(r, f, ptr, "installs");
        g.lastSeen = r.str(f, ptr, "last_seen", false).substr(0, 20);
        out.push_back(std::move(g));
    }
    return out;
}

} // namespace

// "proof": {"passed_installs": 20, "failed_installs": 0, "installs": 20, "window_days":
// 180, "first_seen": "...", "last_seen": "...", "source": "ledger", "by_gpu": [...]}.
std::optional<ProfileProof> readProfileProof(FieldReader& r, const json& p, const std::string& ptr)
{
    const json* v = r.field(p, ptr, "proof", false);
    if (!v)
        return std::nullopt;
    const std::string at = FieldReader::child(ptr, "proof");
    if (!v->is_object())
        r.fail(at, "'proof' must be an object");
    ProfileProof out;
    out.passedInstalls = proofCount(r, *v, at, "passed_installs");
    out.failedInstalls = proofCount(r, *v, at, "failed_installs");
    out.installs = proofCount(r, *v, at, "installs");
    out.windowDays = int(proofCount(r, *v, at, "window_days", 3650));
    out.firstSeen = r.str(*v, at, "first_seen", false).substr(0, 20);
    out.lastSeen = r.str(*v, at, "last_seen", false).substr(0, 20);
    out.byGpu = familyProofs(r, *v, at);
    return out;
}

} // namespace sp
