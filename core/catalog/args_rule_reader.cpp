// A workload's "args_when" (docs/CATALOG.md, "Arguments that follow the card"): each
// rule's `when` is read like a profile's `match`, so the low-memory options of an SD app
// are chosen by the same conditions, evaluated in the same place, as a profile.

#include "core/catalog/field_reader.h"
#include "core/catalog/ui_reader.h"

namespace sp {

namespace {

ArgsRule readArgsRule(FieldReader& r, const nlohmann::json& j, const std::string& ptr)
{
    r.checkFields(j, ptr, "args_rule");
    ArgsRule rule;
    const nlohmann::json* when = r.field(j, ptr, "when", true);
    rule.when = readConditions(r, *when, FieldReader::child(ptr, "when"), "match");
    rule.args = r.strList(j, ptr, "args");
    if (rule.args.empty())
        r.fail(FieldReader::child(ptr, "args"), "a rule adds at least one argument");
    rule.unlessArgs = r.strList(j, ptr, "unless_args");
    const nlohmann::json* why = r.field(j, ptr, "why", true);
    rule.why = readUserText(r, *why, FieldReader::child(ptr, "why"));
    rule.references = r.strList(j, ptr, "references");
    if (rule.references.empty())
        r.fail(FieldReader::child(ptr, "references"), "a rule cites at least one public source");
    r.str(j, ptr, "notes", false);
    rule.where = r.where(ptr);
    return rule;
}

} // namespace

std::vector<ArgsRule> readArgsRules(FieldReader& r, const nlohmann::json& workload,
                                    const std::string& ptr)
{
    std::vector<ArgsRule> out;
    const nlohmann::json* list = r.field(workload, ptr, "args_when", false);
    if (!list)
        return out;
    const std::string lp = FieldReader::child(ptr, "args_when");
    if (!list->is_array())
        r.fail(lp, "'args_when' must be an array of {when, args, why, references}");
    for (std::size_t i = 0; i < list->size(); ++i)
        out.push_back(readArgsRule(r, (*list)[i], FieldReader::child(lp, std::to_string(i))));
    return out;
}

} // namespace sp
