#include "app/common/diag/redact.h"

#include "app/common/diag/key_blocks.h"
#include "app/common/diag/redact_rules.h"
#include "core/json_file.h"

#include <algorithm>
#include <cctype>
#include <iterator>
#include <re2/re2.h>

namespace sp::diag {

namespace {

// Words after "password is" that say something about a password, not what it is.
constexpr const char* kPhraseWords[] = {"not",     "incorrect", "invalid", "wrong",  "required",
                                        "missing", "empty",     "set",     "unset",  "too",
                                        "expired", "correct",   "valid",   "stored", "saved"};

// System variables that hold a word of the table and no secret (the session's type,
// the keyring's or the agent's socket).
bool isSystemSessionName(std::string_view name)
{
    for (const char* prefix : {"XDG_SESSION_", "DESKTOP_SESSION", "DBUS_SESSION_",
                               "SESSION_MANAGER", "GNOME_KEYRING_", "SSH_AUTH_SOCK", "XAUTHORITY"})
        if (name.rfind(prefix, 0) == 0)
            return true;
    return false;
}

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
    static const RE2 re("--(?i:(?:[a-z0-9]+[-_])*(?:apikey|" + secretWordsPattern(true) +
                        "s?)(?:[-_][a-z0-9]+)*)");
    return RE2::FullMatch(re2::StringPiece(s.data(), s.size()), re);
}

// One pattern for the secrets known by value, longest first (one that holds another
// wins); null when there are none.
std::unique_ptr<RE2> knownSecretsPattern(const std::vector<std::string>& secrets)
{
    std::vector<std::string> values;
    for (const auto& v : secrets)
        if (!v.empty() && std::find(values.begin(), values.end(), v) == values.end())
            values.push_back(v);
    if (values.empty())
        return nullptr;
    std::sort(values.begin(), values.end(),
              [](const std::string& a, const std::string& b) { return a.size() > b.size(); });
    std::string alternatives;
    for (const auto& v : values)
        alternatives += (alternatives.empty() ? "" : "|") + RE2::QuoteMeta(v);
    RE2::Options options;
    options.set_max_mem(int64_t{64} << 20);
    options.set_log_errors(false);
    options.set_encoding(RE2::Options::EncodingLatin1); // bytes, whatever the secret holds
    return std::make_unique<RE2>(alternatives, options);
}

} // namespace

std::string Redactor::marker(RedactionKind kind)
{
    return kind == RedactionKind::UserName ? "<user>"
                                           : std::string("<redacted:") + toString(kind) + ">";
}

bool Redactor::isSecretName(std::string_view name)
{
    for (const char* exempt : kNotSecretNames)
        if (name == exempt)
            return false;
    const std::string n = lower(name);
    for (const char* w : kSecretWords)
        if (n.find(w) != std::string::npos)
            return true;
    return false;
}

namespace {

// A secret-named variable's value that redaction by value may take: no placeholder, no
// path, no system session's.
bool isSecretValue(std::string_view name, std::string_view value)
{
    return Redactor::isSecretName(name) && !isSystemSessionName(name) &&
           !isPlaceholder(name, value) && value.find_first_of("/\\\r\n") == std::string_view::npos;
}

bool isWordChar(char c)
{
    return isAlnum(c) || c == '_';
}

} // namespace

bool Redactor::isWordSecret(std::string_view name, std::string_view value)
{
    if ((value.size() != 2 && value.size() != 3) ||
        std::none_of(value.begin(), value.end(),
                     [](char c) { return std::isalpha(static_cast<unsigned char>(c)); }) ||
        std::any_of(value.begin(), value.end(), [](char c) { return !isWordChar(c); }) ||
        !isSecretValue(name, value))
        return false;
    // A word that a marker holds ("key" in "private-key") would be found again in it.
    for (std::size_t k = 0; k < kRedactionKinds; ++k) {
        const std::string m = marker(static_cast<RedactionKind>(k));
        for (std::size_t at = m.find(value); at != std::string::npos; at = m.find(value, at + 1))
            if ((at == 0 || !isWordChar(m[at - 1])) &&
                (at + value.size() == m.size() || !isWordChar(m[at + value.size()])))
                return false;
    }
    return true;
}

bool Redactor::isVerbatimSecret(std::string_view name, std::string_view value)
{
    if (value.size() < 4 || !isSecretValue(name, value))
        return false;
    // A secret that a marker holds would be found again in the marker.
    for (std::size_t k = 0; k < kRedactionKinds; ++k)
        if (marker(static_cast<RedactionKind>(k)).find(value) != std::string::npos)
            return false;
    return true;
}

Redactor::Redactor(const Identity& identity) : m_rules(makeRedactionRules(identity))
{
    m_knownSecrets = knownSecretsPattern(identity.secrets);
    // One combined pattern finds where the next match is (DFA only, linear); the rule
    // that matched there is found by running each alone on that span (DFA only again),
    // and its head alone gives the name and where the value starts. Asking the combined
    // pattern for groups would cost its whole program per byte of a long match.
    RE2::Options options;
    options.set_max_mem(int64_t{64} << 20);
    options.set_log_errors(false);
    std::string combined;
    for (const auto& r : m_rules)
        combined += (combined.empty() ? "(?:" : "|(?:") + r.pattern() + ")";
    m_combined = std::make_unique<RE2>(combined, options);
    if (!identity.wordSecrets.empty()) {
        std::string words;
        for (const auto& w : identity.wordSecrets)
            words += (words.empty() ? "" : "|") + RE2::QuoteMeta(w);
        m_wordSecrets =
            std::make_unique<RE2>("(?:^|[^A-Za-z0-9_])(" + words + ")(?:[^A-Za-z0-9_]|$)", options);
    }
}

Redactor::~Redactor() = default;

struct Redactor::Scan
{
    const Redactor& r;
    std::string_view in;
    RedactionCounts& counts;
    std::string out;
    std::size_t copied = 0; // in[0, copied) has been emitted

    // The head of a match (a variable's name: "ZORBULON_TOKEN=") may hold what other
    // rules remove (a user name, a known secret); it is short, and scanned once.
    void head(std::size_t begin, std::size_t valueBegin)
    {
        if (valueBegin <= begin || begin < copied)
            return;
        out.append(in.substr(copied, begin - copied));
        out += r.scan(in.substr(begin, valueBegin - begin), counts);
        copied = valueBegin;
    }

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
    std::string out;
    if (!mayHoldKeyBlock(in)) {
        out = m_knownSecrets ? knownSecrets(in, counts) : std::string(in);
    } else {
        std::size_t blocks = 0;
        const std::string keysGone = redactKeyBlocks(in, blocks);
        counts.add(RedactionKind::PrivateKey, blocks);
        out = m_knownSecrets ? knownSecrets(keysGone, counts) : keysGone;
    }
    // One pass of the word secrets and the rules (no copy when there are no word secrets).
    const auto onePass = [&](const std::string& s) {
        return m_wordSecrets ? scan(wordSecrets(s, counts), counts) : scan(s, counts);
    };
    const std::size_t before = counts.total();
    out = onePass(out);
    // Nothing replaced: the text is as it came, and a second pass over the same text
    // would find nothing either (most lines of a log).
    if (counts.total() == before)
        return out;
    // A token inside a secret variable's name ("sk-…_.sk-token=a") is replaced by a
    // marker, which then starts a name the first pass read as part of the token: scan
    // until nothing changes, so redacting twice gives what redacting once gave. A
    // replacement may also leave a short secret a word of its own.
    for (int pass = 0; pass < 4; ++pass) {
        std::string again = onePass(out);
        if (again == out)
            break;
        out = std::move(again);
    }
    return out;
}

// The secrets known by value, verbatim, wherever they are (no boundaries, no checks).
std::string Redactor::knownSecrets(std::string_view in, RedactionCounts& counts) const
{
    Scan s{*this, in, counts, {}, 0};
    const re2::StringPiece text(in.data(), in.size());
    re2::StringPiece found;
    for (std::size_t pos = 0;
         pos < in.size() &&
         m_knownSecrets->Match(text, pos, in.size(), RE2::UNANCHORED, &found, 1);) {
        const auto begin = static_cast<std::size_t>(found.data() - in.data());
        s.replace(begin, begin + found.size(), marker(RedactionKind::KnownSecret),
                  RedactionKind::KnownSecret);
        pos = begin + std::max<std::size_t>(found.size(), 1);
    }
    s.out.append(in.substr(s.copied));
    return std::move(s.out);
}

// The short secrets known by value, where they stand as words of their own.
std::string Redactor::wordSecrets(std::string_view in, RedactionCounts& counts) const
{
    if (!m_wordSecrets)
        return std::string(in);
    Scan s{*this, in, counts, {}, 0};
    const re2::StringPiece text(in.data(), in.size());
    re2::StringPiece found[2];
    for (std::size_t pos = 0; pos < in.size() && m_wordSecrets->Match(text, pos, in.size(),
                                                                      RE2::UNANCHORED, found, 2);) {
        const auto begin = static_cast<std::size_t>(found[1].data() - in.data());
        s.replace(begin, begin + found[1].size(), marker(RedactionKind::KnownSecret),
                  RedactionKind::KnownSecret);
        pos = begin + found[1].size(); // the boundary after it may start the next
    }
    s.out.append(in.substr(s.copied));
    return std::move(s.out);
}

// Whether a match of `rule` with value `v`, between `before` and `after`, is replaced.
bool Redactor::accept(const Rule& rule, char before, char after, std::string_view name,
                      std::string_view v) const
{
    if (isMarker(unquote(v)) || v.size() < rule.minLength || v.size() > rule.maxLength)
        return false;
    switch (rule.check) {
    case RuleCheck::None:
        return true;
    case RuleCheck::DigitOrCapital:
        return std::any_of(v.begin() + 3, v.end(), [](char c) {
            return std::isdigit(static_cast<unsigned char>(c)) ||
                   std::isupper(static_cast<unsigned char>(c));
        });
    case RuleCheck::RightBoundary:
        return !isAlnum(after);
    case RuleCheck::BothBoundaries:
        return !isAlnum(before) && !isAlnum(after);
    case RuleCheck::SecretValue:
        return !isPlaceholder(name, v) && !isSystemSessionName(name) &&
               std::find(std::begin(kNotSecretNames), std::end(kNotSecretNames), name) ==
                   std::end(kNotSecretNames);
    case RuleCheck::Phrase: {
        std::string w = lower(unquote(v));
        while (!w.empty() && std::string_view(".,;:!?)").find(w.back()) != std::string_view::npos)
            w.pop_back(); // "is incorrect;"
        return !isPlaceholder("password", v) &&
               std::none_of(std::begin(kPhraseWords), std::end(kPhraseWords),
                            [&](const char* p) { return w == p; });
    }
    }
    return false;
}

std::string Redactor::scan(std::string_view in, RedactionCounts& counts) const
{
    Scan s{*this, in, counts, {}, 0};
    s.out.reserve(in.size());
    re2::StringPiece span, g[2];
    const auto at = [&](const re2::StringPiece& p) {
        return static_cast<std::size_t>(p.data() - in.data());
    };
    std::size_t pos = 0;
    // Right after a replacement the text goes on as if it started there: in a second pass
    // the marker's '>' stands before it, and ends every word.
    bool fresh = false;
    while (pos < in.size()) {
        const std::size_t base = fresh ? pos : 0;
        const re2::StringPiece hay(in.data() + base, in.size() - base);
        if (!m_combined->Match(hay, pos - base, hay.size(), RE2::UNANCHORED, &span, 1))
            break;
        const std::size_t begin = at(span), end = begin + span.size();
        const Rule* rule = nullptr;
        for (const auto& r : m_rules)
            if (r.full->Match(hay, begin - base, end - base, RE2::ANCHOR_BOTH, nullptr, 0)) {
                rule = &r;
                break;
            }
        if (!rule || !rule->headRe->Match(hay, begin - base, end - base, RE2::ANCHOR_START, g,
                                          rule->hasName ? 2 : 1)) {
            pos = begin + 1; // cannot happen: the span is one rule's match
            fresh = false;
            continue;
        }
        std::size_t vBegin = at(g[0]) + g[0].size(), vEnd = end - rule->suffix.size();
        if (vBegin >= vEnd) { // cannot happen: every value is at least one character
            pos = begin + 1;
            fresh = false;
            continue;
        }
        const std::string_view v = in.substr(vBegin, vEnd - vBegin);
        const bool quoted =
            v.size() >= 2 && (v.front() == '"' || v.front() == '\'') && v.back() == v.front();
        const char before = fresh && begin == pos ? ' ' : begin > 0 ? in[begin - 1] : ' ';
        const char after = end < in.size() ? in[end] : ' ';
        if (!accept(*rule, before, after,
                    rule->hasName ? std::string_view(g[1].data(), g[1].size()) : "", v)) {
            // A placeholder: look inside its quotes, or go past it (nothing else is in it)
            // once its name is scanned. A token-like word that is none: go on inside it
            // (a user name may be).
            if (rule->check == RuleCheck::SecretValue)
                s.head(begin, vBegin);
            pos = rule->check == RuleCheck::SecretValue ? (quoted ? vBegin + 1 : end) : begin + 1;
            fresh = false;
            continue;
        }
        if (quoted) {
            ++vBegin; // keep the quotes
            --vEnd;
        }
        std::string with = marker(rule->kind);
        if (rule->home) {
            // A home folder: keep its parent, name the user.
            const std::size_t sep = v.find_last_of("/\\");
            with = std::string(v.substr(0, sep == std::string_view::npos ? 0 : sep + 1)) + "<user>";
        }
        s.head(begin, vBegin);
        s.replace(vBegin, vEnd, with, rule->kind);
        // Go on right after what was replaced (a closing quote may open the next
        // "name": value), as a second pass would: redacting twice changes nothing.
        pos = std::max(vEnd, begin + 1);
        fresh = pos == vEnd;
    }
    s.out.append(in.substr(s.copied));
    return std::move(s.out);
}

void Redactor::jsonInPlace(nlohmann::json& value, RedactionCounts& counts,
                           const std::string& secretName) const
{
    const bool secret = !secretName.empty();
    if (value.is_number() && secret && !isPlaceholder(secretName, value.dump())) {
        // {"db_password": 12345678}: a number is a secret too, unless it is a small count
        // under a name that is not a password's (the text rule's test).
        value = marker(RedactionKind::SecretVariable);
        counts.add(RedactionKind::SecretVariable);
    } else if (value.is_string()) {
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
            jsonInPlace(v, counts, secret ? secretName : isSecretName(k) ? k : std::string{});
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
            jsonInPlace(v, counts, secretName);
        }
    }
}

nlohmann::json Redactor::json(const nlohmann::json& value, RedactionCounts& counts) const
{
    nlohmann::json copy = value;
    jsonInPlace(copy, counts, {});
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
