#include "core/catalog/cause_reader.h"

#include <algorithm>

namespace sp {

const std::set<std::string> kCauseRuntimes = {"rocm", "cuda", "zluda", "vulkan"};

namespace {

using json = nlohmann::json;

// Longer than this, a code or name is a sentence, not a name: a signature says it better.
constexpr std::size_t kMaxCauseText = 256;
constexpr std::uint64_t kMaxGpus = 64;

bool breaksLine(const std::string& s)
{
    return s.find_first_of("\r\n") != std::string::npos;
}

// A name is matched on all but its first letter (the prefilter's literal), so it needs
// a few characters after it to be worth scanning for.
void checkText(FieldReader& r, const std::string& text, const std::string& ptr, std::size_t min)
{
    if (text.size() < min)
        r.fail(ptr, "must be at least " + std::to_string(min) + " characters");
    if (text.size() > kMaxCauseText)
        r.fail(ptr, "longer than " + std::to_string(kMaxCauseText) + " characters");
    if (breaksLine(text) || text.front() == ' ' || text.back() == ' ')
        r.fail(ptr, "must be one line without leading or trailing spaces");
}

CauseContext readWhen(FieldReader& r, const json& cause, const std::string& ptr)
{
    CauseContext c;
    const json* w = r.field(cause, ptr, "when", false);
    if (!w)
        return c;
    const std::string wp = FieldReader::child(ptr, "when");
    r.checkFields(*w, wp, "cause_when");
    c.os = r.enumList(*w, wp, "os", kCatalogOs);
    c.runtimes = r.enumList(*w, wp, "runtimes", kCauseRuntimes);
    if (const auto n = r.count(*w, wp, "min_gpus")) {
        if (*n < 2 || *n > kMaxGpus)
            r.fail(FieldReader::child(wp, "min_gpus"),
                   "'min_gpus' must be 2.." + std::to_string(kMaxGpus));
        c.minGpus = static_cast<int>(*n);
    }
    if (const auto igpu = r.optBoolean(*w, wp, "igpu_failing")) {
        if (!*igpu)
            r.fail(FieldReader::child(wp, "igpu_failing"),
                   "'igpu_failing' can only be true (leave it out otherwise)");
        c.igpuFailing = true;
    }
    c.rocmVersion = r.range(*w, wp, "rocm_version");
    if (c.empty())
        r.fail(wp, "'when' names no condition");
    return c;
}

KnownIssueCause readCause(FieldReader& r, const json& c, const std::string& ptr)
{
    r.checkFields(c, ptr, "known_issue_cause");
    KnownIssueCause out;
    out.code = r.str(c, ptr, "code", false);
    if (!out.code.empty())
        checkText(r, out.code, FieldReader::child(ptr, "code"), 3);
    out.names = r.strList(c, ptr, "names");
    for (std::size_t i = 0; i < out.names.size(); ++i)
        checkText(r, out.names[i], FieldReader::child(ptr, "names") + "/" + std::to_string(i), 5);
    if (out.code.empty() && out.names.empty())
        r.fail(ptr, "a cause needs a 'code' or at least one of 'names'");
    out.on = r.strList(c, ptr, "on");
    for (std::size_t i = 0; i < out.on.size(); ++i)
        checkText(r, out.on[i], FieldReader::child(ptr, "on") + "/" + std::to_string(i), 2);
    out.when = readWhen(r, c, ptr);
    out.over = r.strList(c, ptr, "over");
    r.str(c, ptr, "notes", false);
    out.where = r.where(ptr);
    return out;
}

} // namespace

std::vector<KnownIssueCause> readCauses(FieldReader& r, const json& issue, const std::string& ptr)
{
    std::vector<KnownIssueCause> out;
    const json* list = r.field(issue, ptr, "causes", false);
    if (!list)
        return out;
    const std::string lp = FieldReader::child(ptr, "causes");
    if (!list->is_array())
        r.fail(lp, "'causes' must be an array of objects");
    for (std::size_t i = 0; i < list->size(); ++i)
        out.push_back(readCause(r, (*list)[i], lp + "/" + std::to_string(i)));
    return out;
}

} // namespace sp
