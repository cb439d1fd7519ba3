#include "app/common/diag/redact.h"

#include "core/json_file.h"

#include <algorithm>
#include <cctype>
#include <re2/re2.h>

namespace sp::diag {

namespace {

constexpr const char* kKindNames[kRedactionKinds] = {
    "secret-variable", "url-credentials", "authorization-header", "cookie-header",
    "bearer-token",    "token-flag",      "huggingface-token",    "openai-key",
    "github-token",    "github-pat",      "aws-access-key",       "jwt",
    "private-key",     "user-name"};

// The words that make a name secret (matched anywhere in the name, in any case).
constexpr const char* kSecretWords[] = {"token", "secret", "key",     "password",  "passwd",
                                        "auth",  "cookie", "session", "credential"};

// What a match has to pass, beyond the pattern, before it is replaced.
enum class Check
{
    None,
    LeftBoundary,   // not preceded by a letter or digit (sk- in "task-…" is no key)
    OpenAi,         // left boundary, and a digit or capital in the body
    BothBoundaries, // not inside a longer word on either side
    SecretValue,    // not a placeholder (true, $VAR, a small number, ...)
    FlagValue,      // not the next flag
};

bool isAlnum(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) != 0;
}

std::string lower(std::string_view s)
{
    std::string out(s);
    for (char& c : out)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

bool isMarker(std::string_view v)
{
    return v.rfind("<redacted:", 0) == 0 || v.rfind("<user>", 0) == 0;
}

std::string_view unquote(std::string_view v)
{
    if (v.size() >= 2 && (v.front() == '"' || v.front() == '\'') && v.back() == v.front())
        return v.substr(1, v.size() - 2);
    return v;
}

// Values that a secret-named variable holds without holding a secret.
bool isPlaceholder(std::string_view name, std::string_view value)
{
    const std::string_view v = unquote(value);
    if (v.empty() || isMarker(v))
        return true;
    if (std::string_view("$%[{(<=").find(v.front()) != std::string_view::npos)
        return true; // a reference ($HF_TOKEN, %TOKEN%), a structure, or "==" compares
    static const char* const kLiterals[] = {"true", "false", "none", "null", "nil",
                                            "yes",  "no",    "on",   "off"};
    const std::string lv = lower(v);
    for (const char* l : kLiterals)
        if (lv == l)
            return true;
    // Small numbers are sizes and counts (max_tokens=512), unless the name says password.
    const std::string ln = lower(name);
    const bool pass = ln.find("pass") != std::string::npos ||
                      ln.find("secret") != std::string::npos ||
                      ln.find("credential") != std::string::npos;
    return !pass && v.size() <= 6 && std::all_of(v.begin(), v.end(), [](char c) {
        return std::isdigit(static_cast<unsigned char>(c));
    });
}

bool isFlagWithValueNext(std::string_view s)
{
    if (s.size() < 3 || s.substr(0, 2) != "--" || s.find('=') != std::string_view::npos)
        return false;
    static const RE2 re(
        "--(?i:(?:[a-z0-9]+[-_])*(?:token|secret|key|apikey|password|passwd|pass|auth|cookie|"
        "session|credentials?)(?:[-_][a-z0-9]+)*)");
    return RE2::FullMatch(re2::StringPiece(s.data(), s.size()), re);
}

std::string quoteMetaCi(const std::vector<std::string>& items)
{
    std::string out;
    for (const auto& s : items)
        out += (out.empty() ? "" : "|") + RE2::QuoteMeta(s);
    return "(?i:" + out + ")";
}

} // namespace

struct Redactor::Rule
{
    RedactionKind kind;
    std::string pattern;
    Check check = Check::None;
    int valueGroup = 0; // inner group replaced (0: the whole match)
    int nameGroup = 0;  // inner group naming the variable, for SecretValue
    int outer = 0;      // the rule's group in the combined pattern (set when combined)
    bool home = false;  // a home folder: its parent is kept
};

const char* toString(RedactionKind kind)
{
    return kKindNames[static_cast<std::size_t>(kind)];
}

std::size_t RedactionCounts::total() const
{
    std::size_t t = 0;
    for (auto c : n)
        t += c;
    return t;
}

RedactionCounts& RedactionCounts::operator+=(const RedactionCounts& o)
{
    for (std::size_t i = 0; i < kRedactionKinds; ++i)
        n[i] += o.n[i];
    return *this;
}

nlohmann::json RedactionCounts::toJson() const
{
    nlohmann::json j = nlohmann::json::object();
    for (std::size_t i = 0; i < kRedactionKinds; ++i)
        if (n[i])
            j[kKindNames[i]] = n[i];
    return j;
}

std::string RedactionCounts::summary() const
{
    std::string out;
    for (std::size_t i = 0; i < kRedactionKinds; ++i)
        if (n[i])
            out +=
                (out.empty() ? "" : ", ") + std::string(kKindNames[i]) + " " + std::to_string(n[i]);
    return out.empty() ? "none" : out;
}

std::string Redactor::marker(RedactionKind kind)
{
    return kind == RedactionKind::UserName ? "<user>"
                                           : std::string("<redacted:") + toString(kind) + ">";
}

bool Redactor::isSecretName(std::string_view name)
{
    const std::string n = lower(name);
    for (const char* w : kSecretWords)
        if (n.find(w) != std::string::npos)
            return true;
    return false;
}

Redactor::Redactor(const Identity& identity)
{
    using K = RedactionKind;
    const std::string kw = "(?i:token|secret|key|password|passwd|auth|cookie|session|credential)";
    const std::string name = "[A-Za-z0-9_.-]*" + kw + "[A-Za-z0-9_.-]*";
    const std::string upperName = "[A-Z0-9_.-]*(?:TOKEN|SECRET|KEY|PASSWORD|PASSWD|AUTH|COOKIE|"
                                  "SESSION|CREDENTIAL)[A-Z0-9_.-]*";
    const std::string quoted = R"("[^"\r\n]*"|'[^'\r\n]*')";
    const std::string value = "(" + quoted + R"(|[^\s"',;&]+))";
    m_rules = {
        {K::PrivateKey,
         "-----BEGIN[A-Z ]{0,40}PRIVATE KEY-----(?s:.*?)-----END[A-Z ]{0,40}PRIVATE KEY-----"},
        {K::AuthorizationHeader,
         R"((?i:(?:proxy-)?authorization)["']?[ \t]*[:=][ \t]*["']?)"
         R"(((?i:(?:bearer|basic|token|digest|negotiate)[ \t]+)?[^\s"',;]+))",
         Check::LeftBoundary, 1},
        {K::CookieHeader, R"((?i:(?:set-)?cookie)["']?[ \t]*:[ \t]*["']?([^\r\n"']+))",
         Check::LeftBoundary, 1},
        {K::BearerToken, R"((?i:bearer)[ \t]+([A-Za-z0-9._~+/=-]{8,}))", Check::LeftBoundary, 1},
        {K::UrlCredentials, R"([A-Za-z][A-Za-z0-9+.-]{0,15}://([^/\s:@"'<>]+:[^/\s@"'<>]*)@)",
         Check::None, 1},
        {K::TokenFlag,
         "--(?i:(?:[a-z0-9]+[-_])*(?:token|secret|key|apikey|password|passwd|pass|auth|cookie|"
         R"(session|credentials?)(?:[-_][a-z0-9]+)*)(?:=|[ \t]+)()" +
             quoted + R"(|[^\s"']+))",
         Check::FlagValue, 1},
        {K::HuggingFaceToken, "hf_[A-Za-z0-9]{30,}", Check::LeftBoundary},
        {K::OpenAiKey, "sk-[A-Za-z0-9_-]{20,}", Check::OpenAi},
        {K::GithubPat, "github_pat_[A-Za-z0-9_]{22,}", Check::LeftBoundary},
        {K::GithubToken, "gh[pousr]_[A-Za-z0-9]{36,}", Check::LeftBoundary},
        {K::AwsAccessKey, "(?:AKIA|ASIA)[0-9A-Z]{16}", Check::BothBoundaries},
        {K::Jwt, R"(eyJ[A-Za-z0-9_-]{6,}\.[A-Za-z0-9_-]{6,}\.[A-Za-z0-9_-]{6,})",
         Check::LeftBoundary},
        // "name": "value" (JSON, Python dicts), any case.
        {K::SecretVariable,
         R"(["']()" + name + R"()["'][ \t]*[:=][ \t]*()" + quoted + R"(|[^\s"',;&\]}]+))",
         Check::SecretValue, 2, 1},
        // NAME = value (environment, shell, ini): capitals may have spaces around '='.
        {K::SecretVariable, "(" + upperName + ")[ \\t]*=[ \\t]*" + value, Check::SecretValue, 2, 1},
        // name=value (flags, query strings, kwargs), and name = "quoted" in any case.
        {K::SecretVariable, "(" + name + ")=" + value, Check::SecretValue, 2, 1},
        {K::SecretVariable, "(" + name + ")[ \\t]*=[ \\t]*(" + quoted + ")", Check::SecretValue, 2,
         1},
        // name: value (YAML, headers, prompts) when the name ends with the word:
        // "api_key: x", "Password: x", not "KeyError: x" or "tokenizer: x".
        {K::SecretVariable,
         "([A-Za-z0-9_.-]*(?i:token|secret|key|password|passwd|auth|cookie|session|credential)s?)"
         "[ \\t]*:[ \\t]*" +
             value,
         Check::SecretValue, 2, 1},
    };
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
        m_rules.push_back({K::UserName, quoteMetaCi(homes), Check::BothBoundaries});
        m_rules.back().home = true;
    }
    if (!names.empty())
        m_rules.push_back({K::UserName, quoteMetaCi(names), Check::BothBoundaries});

    std::string combined;
    int group = 1;
    for (auto& r : m_rules) {
        const RE2 one(r.pattern);
        r.outer = group;
        group += 1 + one.NumberOfCapturingGroups();
        combined += (combined.empty() ? "(" : "|(") + r.pattern + ")";
    }
    RE2::Options options;
    options.set_max_mem(int64_t{64} << 20);
    options.set_log_errors(false);
    m_combined = std::make_unique<RE2>(combined, options);
}

Redactor::~Redactor() = default;

struct Redactor::Scan
{
    const Redactor& r;
    std::string_view in;
    RedactionCounts& counts;
    std::string out;
    std::size_t copied = 0; // in[0, copied) has been emitted

    // Replaces in[begin, end) and counts it.
    void replace(std::size_t begin, std::size_t end, const std::string& with, RedactionKind kind)
    {
        out.append(in.substr(copied, begin - copied));
        out += with;
        copied = end;
        counts.add(kind);
    }
};

std::string Redactor::text(std::string_view in, RedactionCounts& counts) const
{
    Scan s{*this, in, counts, {}, 0};
    s.out.reserve(in.size());
    const int ngroups = m_combined->NumberOfCapturingGroups() + 1;
    std::vector<re2::StringPiece> g(static_cast<std::size_t>(ngroups));
    const re2::StringPiece text(in.data(), in.size());
    std::size_t pos = 0;
    while (pos < in.size() &&
           m_combined->Match(text, pos, in.size(), RE2::UNANCHORED, g.data(), ngroups)) {
        const auto at = [&](const re2::StringPiece& p) {
            return static_cast<std::size_t>(p.data() - in.data());
        };
        const std::size_t begin = at(g[0]), end = begin + g[0].size();
        const Rule* rule = nullptr;
        for (const auto& r : m_rules)
            if (g[static_cast<std::size_t>(r.outer)].data()) {
                rule = &r;
                break;
            }
        const auto& vg = g[static_cast<std::size_t>(rule->outer + rule->valueGroup)];
        std::size_t vBegin = at(vg), vEnd = vBegin + vg.size();
        const std::string_view v = in.substr(vBegin, vEnd - vBegin);
        const char before = begin > 0 ? in[begin - 1] : ' ';
        const char after = end < in.size() ? in[end] : ' ';
        bool ok = !isMarker(v);
        std::size_t resume = begin + 1;
        switch (rule->check) {
        case Check::None:
            break;
        case Check::LeftBoundary:
            ok = ok && !isAlnum(before) && before != '_';
            break;
        case Check::OpenAi:
            ok = ok && !isAlnum(before) && before != '_' &&
                 std::any_of(v.begin() + 3, v.end(), [](char c) {
                     return std::isdigit(static_cast<unsigned char>(c)) ||
                            std::isupper(static_cast<unsigned char>(c));
                 });
            break;
        case Check::BothBoundaries:
            ok = ok && !isAlnum(before) && !isAlnum(after);
            break;
        case Check::SecretValue: {
            const auto& ng = g[static_cast<std::size_t>(rule->outer + rule->nameGroup)];
            ok = ok && !isPlaceholder(std::string_view(ng.data(), ng.size()), v);
            resume = at(ng) + ng.size(); // never re-match the tail of the same name
            break;
        }
        case Check::FlagValue:
            ok = ok && v.front() != '-';
            resume = begin + 2;
            break;
        }
        if (!ok) {
            pos = std::max(resume, begin + 1);
            continue;
        }
        if (v.size() >= 2 && (v.front() == '"' || v.front() == '\'') && v.back() == v.front()) {
            ++vBegin; // keep the quotes
            --vEnd;
        }
        std::string with = marker(rule->kind);
        if (rule->home) {
            // A home folder: keep its parent, name the user.
            const std::size_t sep = v.find_last_of("/\\");
            with = std::string(v.substr(0, sep == std::string_view::npos ? 0 : sep + 1)) + "<user>";
        }
        s.replace(vBegin, vEnd, with, rule->kind);
        // Go on right after what was replaced (a closing quote may open the next
        // "name": value), as a second pass would: redacting twice changes nothing.
        pos = std::max(vEnd, begin + 1);
    }
    s.out.append(in.substr(s.copied));
    return std::move(s.out);
}

void Redactor::jsonInPlace(nlohmann::json& value, RedactionCounts& counts, bool secret) const
{
    if (value.is_string()) {
        const std::string& s = value.get_ref<const std::string&>();
        if (secret && !isPlaceholder("secret", s)) {
            value = marker(RedactionKind::SecretVariable);
            counts.add(RedactionKind::SecretVariable);
        } else {
            value = text(s, counts);
        }
    } else if (value.is_object()) {
        nlohmann::json out = nlohmann::json::object();
        for (auto& [k, v] : value.items()) {
            jsonInPlace(v, counts, secret || isSecretName(k));
            out[text(k, counts)] = std::move(v);
        }
        value = std::move(out);
    } else if (value.is_array()) {
        bool flag = false; // the previous element was --token-style
        for (auto& v : value) {
            if (flag && v.is_string() && !v.get_ref<const std::string&>().empty() &&
                v.get_ref<const std::string&>().front() != '-' &&
                !isMarker(v.get_ref<const std::string&>())) {
                v = marker(RedactionKind::TokenFlag);
                counts.add(RedactionKind::TokenFlag);
                flag = false;
                continue;
            }
            flag = v.is_string() && isFlagWithValueNext(v.get_ref<const std::string&>());
            jsonInPlace(v, counts, secret);
        }
    }
}

nlohmann::json Redactor::json(const nlohmann::json& value, RedactionCounts& counts) const
{
    nlohmann::json copy = value;
    jsonInPlace(copy, counts, false);
    return copy;
}

std::string Redactor::jsonText(std::string_view in, RedactionCounts& counts, int maxDepth) const
{
    // The depth check first, so no input can overflow the parser's stack.
    if (checkJsonDepth(std::string(in), "", maxDepth).empty()) {
        auto parsed = nlohmann::json::parse(in.begin(), in.end(), nullptr, false);
        if (!parsed.is_discarded())
            return json(parsed, counts)
                       .dump(2, ' ', false, nlohmann::json::error_handler_t::replace) +
                   "\n";
    }
    return text(in, counts);
}

} // namespace sp::diag
