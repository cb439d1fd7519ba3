#include "core/catalog/ui_reader.h"

namespace sp {

using json = nlohmann::json;

UserText readUserText(FieldReader& r, const json& v, const std::string& ptr)
{
    r.checkFields(v, ptr, "user_text");
    UserText out;
    out.en = r.str(v, ptr, "en", true);
    out.zhCN = r.str(v, ptr, "zh_CN", false);
    return out;
}

namespace {

UserText userText(FieldReader& r, const json& v, const std::string& ptr)
{
    return readUserText(r, v, ptr);
}

UserText userTextField(FieldReader& r, const json& ui, const std::string& ptr, const char* key)
{
    const json* v = r.field(ui, ptr, key, false);
    return v ? userText(r, *v, FieldReader::child(ptr, key)) : UserText{};
}

// The entry's "ui" object and its pointer, or null when there is none.
const json* uiObject(FieldReader& r, const json& entry, const std::string& ptr, const char* section)
{
    const json* ui = r.field(entry, ptr, "ui", false);
    if (ui)
        r.checkFields(*ui, FieldReader::child(ptr, "ui"), section);
    return ui;
}

} // namespace

ProfileUi readProfileUi(FieldReader& r, const json& entry, const std::string& ptr)
{
    ProfileUi out;
    const json* ui = uiObject(r, entry, ptr, "profile_ui");
    if (!ui)
        return out;
    const auto up = FieldReader::child(ptr, "ui");
    out.route = userTextField(r, *ui, up, "route");
    out.summary = userTextField(r, *ui, up, "summary");
    if (const json* w = r.field(*ui, up, "warnings", false)) {
        const auto wp = FieldReader::child(up, "warnings");
        if (!w->is_array())
            r.fail(wp, "'warnings' must be an array of {\"en\", \"zh_CN\"} texts");
        for (std::size_t i = 0; i < w->size(); ++i)
            out.warnings.push_back(userText(r, (*w)[i], wp + "/" + std::to_string(i)));
    }
    return out;
}

WorkloadUi readWorkloadUi(FieldReader& r, const json& entry, const std::string& ptr)
{
    WorkloadUi out;
    if (const json* ui = uiObject(r, entry, ptr, "workload_ui")) {
        const auto up = FieldReader::child(ptr, "ui");
        out.name = userTextField(r, *ui, up, "name");
        out.about = userTextField(r, *ui, up, "about");
    }
    return out;
}

KnownIssueUi readKnownIssueUi(FieldReader& r, const json& entry, const std::string& ptr)
{
    KnownIssueUi out;
    if (const json* ui = uiObject(r, entry, ptr, "known_issue_ui")) {
        const auto up = FieldReader::child(ptr, "ui");
        out.title = userTextField(r, *ui, up, "title");
        out.fix = userTextField(r, *ui, up, "fix");
    }
    return out;
}

} // namespace sp
