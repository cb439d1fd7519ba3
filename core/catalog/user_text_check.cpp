// checkUserTexts (user_text.h): the "ui" rule of `catalog check`.

#include "core/catalog/user_text.h"

#include <utility>

namespace sp {

namespace {

struct TextCheck
{
    const Catalog& catalog;
    const CatalogLocator& at;
    std::vector<std::string>& problems;

    // One text of entry `key` ("profile:ID"), at pointer `sub` ("/ui/summary").
    void text(const std::string& key, const std::string& what, const std::string& sub,
              const UserText& t)
    {
        const std::string head = ": " + what + ": '" + sub.substr(1);
        if (t.en.empty())
            problems.push_back(at(key, sub) + head + "' has no English text ('en')");
        if (t.zhCN.empty())
            problems.push_back(at(key, sub) + head + "' has no Simplified Chinese text ('zh_CN')");
        for (const auto& [lang, s] : {std::pair{"en", &t.en}, std::pair{"zh_CN", &t.zhCN}})
            if (auto w = internalWord(*s, catalog); !w.empty())
                problems.push_back(at(key, sub + "/" + lang) + head + "/" + lang + "' holds " + w +
                                   ", which a user must not see");
        const auto words = untranslatedWords(t.zhCN);
        if (words.empty())
            return;
        std::string list;
        for (const auto& w : words)
            list += (list.empty() ? "'" : ", '") + w + "'";
        problems.push_back(at(key, sub + "/zh_CN") + head + "/zh_CN' keeps English word(s) " +
                           list +
                           " (translate them, or add a name to core/catalog/user_text_names.cpp)");
    }

    // An entry with no "ui" at all is one problem, not one per field.
    bool missing(const std::string& key, const std::string& what, bool empty)
    {
        if (empty)
            problems.push_back(at(key, "") + ": " + what +
                               " has no \"ui\": its user texts in en and zh_CN");
        return empty;
    }

    void profile(const Profile& p)
    {
        const std::string key = "profile:" + p.id, what = "profile '" + p.id + "'";
        if (missing(key, what, p.ui.route.empty() && p.ui.summary.empty() && p.ui.warnings.empty()))
            return;
        text(key, what, "/ui/route", p.ui.route);
        text(key, what, "/ui/summary", p.ui.summary);
        if (p.ui.warnings.size() != p.warnings.size())
            problems.push_back(at(key, p.ui.warnings.empty() ? "/ui" : "/ui/warnings") + ": " +
                               what + " has " + std::to_string(p.warnings.size()) +
                               " warning(s) but " + std::to_string(p.ui.warnings.size()) +
                               " in ui.warnings (one user text per warning, same order)");
        for (std::size_t i = 0; i < p.ui.warnings.size(); ++i)
            text(key, what, "/ui/warnings/" + std::to_string(i), p.ui.warnings[i]);
    }

    void workload(const Workload& w)
    {
        const std::string key = "workload:" + w.id, what = "workload '" + w.id + "'";
        if (missing(key, what, w.ui.name.empty() && w.ui.about.empty()))
            return;
        text(key, what, "/ui/name", w.ui.name);
        text(key, what, "/ui/about", w.ui.about);
        for (std::size_t i = 0; i < w.argsWhen.size(); ++i) // the plan says it to the user
            text(key, what, "/args_when/" + std::to_string(i) + "/why", w.argsWhen[i].why);
    }

    void knownIssue(const KnownIssue& k)
    {
        const std::string key = "known issue:" + k.id, what = "known issue '" + k.id + "'";
        if (missing(key, what, k.ui.title.empty() && k.ui.fix.empty()))
            return;
        text(key, what, "/ui/title", k.ui.title);
        text(key, what, "/ui/fix", k.ui.fix);
    }
};

} // namespace

std::vector<std::string> checkUserTexts(const Catalog& catalog, const CatalogLocator& at)
{
    std::vector<std::string> problems;
    TextCheck check{catalog, at, problems};
    for (const auto& w : catalog.workloads)
        check.workload(w);
    for (const auto& p : catalog.profiles)
        check.profile(p);
    for (const auto& k : catalog.knownIssues)
        check.knownIssue(k);
    return problems;
}

} // namespace sp
