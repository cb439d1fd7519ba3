// The rule table. Every rule's head starts at the start of a word (a character outside
// the rule's class, or the text's start), and no value may start like a placeholder or a
// marker: so a match can begin only where a word does, a long run of letters and digits
// (base64, hashes) is scanned once, and redacting twice changes nothing.

#include "app/common/diag/redact_rules.h"

#include <algorithm>

namespace sp::diag {

namespace {

using K = RedactionKind;
using C = RuleCheck;

std::string quoteMetaCi(const std::vector<std::string>& items)
{
    std::string out;
    for (const auto& s : items)
        out += (out.empty() ? "" : "|") + RE2::QuoteMeta(s);
    return "(?i:" + out + ")";
}

Redactor::Rule rule(K kind, std::string head, std::string value, C check = C::None,
                    std::size_t minLength = 0)
{
    Redactor::Rule r;
    r.kind = kind;
    r.head = std::move(head);
    r.value = std::move(value);
    r.check = check;
    r.minLength = minLength;
    return r;
}

Redactor::Rule named(std::string head, std::string value)
{
    Redactor::Rule r = rule(K::SecretVariable, std::move(head), std::move(value), C::SecretValue);
    r.hasName = true;
    return r;
}

std::vector<Redactor::Rule> tokenRules()
{
    // A token cannot start inside a word of its own class.
    const std::string word = "(?:[^A-Za-z0-9_]|^)";
    Redactor::Rule aws =
        rule(K::AwsAccessKey, "(?:[^A-Za-z0-9]|^)", "(?:AKIA|ASIA)[0-9A-Z]+", C::RightBoundary, 20);
    aws.maxLength = 20;
    return {
        rule(K::HuggingFaceToken, word, "hf_[A-Za-z0-9]+", C::None, 33),
        rule(K::OpenAiKey, "(?:[^A-Za-z0-9_-]|^)", "sk-[A-Za-z0-9_-]+", C::DigitOrCapital, 23),
        rule(K::GithubPat, word, "github_pat_[A-Za-z0-9_]+", C::None, 33),
        rule(K::GithubToken, word, "gh[pousr]_[A-Za-z0-9]+", C::None, 40),
        aws,
        rule(K::Jwt, "(?:[^A-Za-z0-9_.-]|^)",
             R"(eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)", C::None, 24),
    };
}

std::vector<Redactor::Rule> secretVariableRules()
{
    const std::string kw = secretWordsPattern(false);
    const std::string name = "[A-Za-z0-9_.-]*" + kw + "[A-Za-z0-9_.-]*";
    const std::string upperName = "[A-Z0-9_.-]*" + secretWordsPattern(true) + "[A-Z0-9_.-]*";
    const std::string nameStart = "(?:[^A-Za-z0-9_.-]|^)";
    const std::string quoted = R"("[^"\r\n]*"|'[^'\r\n]*')";
    // Not a reference ($HF_TOKEN, %TOKEN%), a structure, a comparison or a marker.
    const std::string bare = R"([^\s"',;&$%\[{(<=][^\s"',;&]*)";
    return {
        // "name": "value" (JSON, Python dicts), any case.
        named(R"(["']()" + name + R"()["'][ \t]*[:=][ \t]*)",
              quoted + R"(|[^\s"',;&$%\[{(<=\]}][^\s"',;&\]}]*)"),
        // NAME = value (environment, shell, ini): capitals may have spaces around '='.
        named(nameStart + "(" + upperName + ")[ \\t]*=[ \\t]*", quoted + "|" + bare),
        // name=value (flags, query strings, kwargs), and name = "quoted" in any case.
        named(nameStart + "(" + name + ")=", quoted + "|" + bare),
        named(nameStart + "(" + name + ")[ \\t]*=[ \\t]*", quoted),
        // name: value (YAML, headers, prompts) when the name ends with the word:
        // "api_key: x", "Password: x", not "KeyError: x" or "tokenizer: x".
        named(nameStart + "([A-Za-z0-9_.-]*" + kw + "s?)[ \\t]*:[ \\t]*", quoted + "|" + bare),
    };
}

std::vector<Redactor::Rule> shapeRules()
{
    const std::string start = "(?:[^A-Za-z0-9_]|^)";
    Redactor::Rule webhook =
        rule(K::WebhookUrl,
             start + R"((?i:https?://(?:hooks\.slack\.com/(?:services|workflows|triggers)/|)"
                     R"((?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/)))",
             R"([^\s"'<>]+)");
    Redactor::Rule phrase = rule(
        K::PasswordPhrase, start + R"((?i:pass(?:word|wd|phrase)?|pwd)[ \t]+(?i:is|was)[ \t]+)",
        R"("[^"\r\n]*"|'[^'\r\n]*'|[^\s"'<][^\s"']*)", C::Phrase);
    return {webhook, phrase};
}

} // namespace

std::string secretWordsPattern(bool upper)
{
    std::string out;
    for (const char* w : kSecretWords) {
        std::string word = w;
        if (upper)
            for (char& c : word)
                c = static_cast<char>(c - 'a' + 'A');
        out += (out.empty() ? "" : "|") + word;
    }
    return upper ? "(?:" + out + ")" : "(?i:" + out + ")";
}

std::vector<Redactor::Rule> makeRedactionRules(const Identity& identity)
{
    const std::string header = "(?:[^A-Za-z0-9_-]|^)";
    std::vector<Redactor::Rule> rules = {
        rule(K::AuthorizationHeader,
             header + R"((?i:(?:proxy-)?authorization)["']?[ \t]*[:=][ \t]*["']?)",
             R"((?i:(?:bearer|basic|token|digest|negotiate)[ \t]+)?[^\s"',;<][^\s"',;]*)"),
        rule(K::CookieHeader, header + R"((?i:(?:set-)?cookie)["']?[ \t]*:[ \t]*["']?)",
             R"([^\s"'<][^\r\n"']*)"),
        rule(K::BearerToken, "(?:[^A-Za-z0-9_]|^)(?i:bearer)[ \\t]+", "[A-Za-z0-9._~+/=-]+",
             C::None, 8),
        rule(K::UrlCredentials, R"((?:[^A-Za-z0-9+.-]|^)[A-Za-z][A-Za-z0-9+.-]*://)",
             R"([^/\s:@"'<>]+:[^/\s@"'<>]*)"),
    };
    rules.back().suffix = "@";
    Redactor::Rule flag = rule(K::TokenFlag,
                               header + "(--(?i:(?:[a-z0-9]+[-_])*(?:apikey|" +
                                   secretWordsPattern(true) + "s?)(?:[-_][a-z0-9]+)*)(?:=|[ \t]+))",
                               R"("[^"\r\n]*"|'[^'\r\n]*'|[^\s"'<-][^\s"']*)");
    rules.push_back(flag);
    for (auto* part : {&tokenRules, &shapeRules, &secretVariableRules})
        for (auto& r : (*part)())
            rules.push_back(std::move(r));

    std::vector<std::string> homes, names;
    for (const auto& h : identity.homes)
        if (h.size() >= 4)
            homes.push_back(h);
    std::sort(homes.begin(), homes.end(),
              [](const std::string& a, const std::string& b) { return a.size() > b.size(); });
    for (const auto& n : identity.names)
        if (n.size() >= 3)
            names.push_back(n);
    if (!homes.empty()) {
        rules.push_back(rule(K::UserName, "", quoteMetaCi(homes), C::BothBoundaries));
        rules.back().home = true;
    }
    if (!names.empty())
        rules.push_back(rule(K::UserName, "", quoteMetaCi(names), C::BothBoundaries));

    RE2::Options options;
    options.set_max_mem(int64_t{64} << 20);
    options.set_log_errors(false);
    for (auto& r : rules) {
        r.full = std::make_shared<const RE2>(r.pattern(), options);
        r.headRe = std::make_shared<const RE2>(r.head, options);
    }
    return rules;
}

} // namespace sp::diag
