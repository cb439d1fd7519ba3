#pragma once
// Redaction for the diagnostics bundle: every byte that goes into a bundle passes through
// a Redactor first. What it removes, each counted by kind (never recorded by value):
//  - the values of secret-named variables (a name holding one of the words of the one
//    table, redact_rules.h: token, secret, key, password, pass, pwd, credential, auth,
//    cookie, session, webhook), by shape (NAME=value, "name": "value", NAME: value), and
//    by value: the Identity's `secrets` (those variables' values in the environment and
//    in settings.json) wherever they appear, verbatim (from 4 characters; 2 or 3
//    characters with a letter: as a whole word; 1 character, or digits only: by shape);
//  - credentials in URLs (scheme://user:pass@host), Slack and Discord webhook URLs;
//  - token shapes: hf_…, sk-…, ghp_/gho_/ghu_/ghs_/ghr_…, github_pat_…, AWS access key ids
//    (AKIA…/ASIA…), JWTs, private key blocks (key_blocks.h: BEGIN to END, a block cut
//    after its BEGIN or before its END too), Authorization:/Cookie: headers, Bearer
//    tokens, "password is X", and
//    --token-style flags (--token X, --api-key=X, …);
//  - the user's name, and their home folder, as `<user>`.
// All patterns are RE2 (linear time) and run as one combined scan, so the cost is one pass
// over the text whatever the number of rules. A Redactor is immutable after construction
// and safe to share between threads.

#include <array>
#include <cstddef>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace re2 {
class RE2;
}

namespace sp::diag {

enum class RedactionKind
{
    SecretVariable,
    UrlCredentials,
    AuthorizationHeader,
    CookieHeader,
    BearerToken,
    TokenFlag,
    HuggingFaceToken,
    OpenAiKey,
    GithubToken,
    GithubPat,
    AwsAccessKey,
    Jwt,
    PrivateKey,
    UserName,
    KnownSecret,    // a secret variable's value, found by value
    WebhookUrl,     // hooks.slack.com/services/…, discord.com/api/webhooks/…
    PasswordPhrase, // "password is X"
};
inline constexpr std::size_t kRedactionKinds = 17;
// "secret-variable", "url-credentials", ..., "user-name".
const char* toString(RedactionKind kind);

struct RedactionCounts
{
    std::array<std::size_t, kRedactionKinds> n{};

    void add(RedactionKind k, std::size_t count = 1) { n[static_cast<std::size_t>(k)] += count; }
    std::size_t operator[](RedactionKind k) const { return n[static_cast<std::size_t>(k)]; }
    std::size_t total() const;
    RedactionCounts& operator+=(const RedactionCounts& o);
    // {"kind": count} for the kinds with a count, in kind order.
    nlohmann::json toJson() const;
    // "user-name 3, hf-token 1" or "none".
    std::string summary() const;
};

// Who the user is, for the `<user>` rule: login names and home folders; and the secrets
// they hold, for redaction by value.
struct Identity
{
    std::vector<std::string> names;   // "zorbulon"
    std::vector<std::string> homes;   // "/home/zorbulon", "C:\\Users\\Zorbulon"
    std::vector<std::string> secrets; // "hf_Sh0rt9": removed verbatim wherever they are
    // "k9": 2 or 3 characters, a letter among them, removed where they stand as a word of
    // their own (not inside "k9x"): verbatim, "k" would garble every word with a k.
    std::vector<std::string> wordSecrets;
    // USER, LOGNAME, USERNAME, HOME, USERPROFILE, Qt's home path and (POSIX) the
    // account database. Generic names (root, admin, user, ...) are left out: they
    // identify nobody, and replacing the word "root" everywhere would garble logs.
    // The process environment's secret values are added (addSecretValues).
    static Identity fromEnvironment();
    // The values of the secret-named variables among `vars`, except placeholders
    // (true, $REF, a small count), paths and the system's own session variables
    // (XDG_SESSION_TYPE=wayland is no secret, and redacting "wayland" everywhere would
    // garble every log).
    void addSecretValues(const std::vector<std::pair<std::string, std::string>>& vars);
    // The same for a JSON document (settings.json): every string under a secret-named key.
    void addSecretValuesIn(const nlohmann::json& doc);
};

class Redactor
{
public:
    explicit Redactor(const Identity& identity);
    ~Redactor();
    Redactor(const Redactor&) = delete;
    Redactor& operator=(const Redactor&) = delete;

    // `text` with every match replaced ("<redacted:KIND>", or "<user>"); adds to `counts`.
    // Already-redacted text is left as it is (redacting twice counts nothing new).
    std::string text(std::string_view text, RedactionCounts& counts) const;
    // A JSON value with keys named like secrets emptied (their values become
    // "<redacted:secret-variable>"), the value after a --token-style flag in an argument
    // list redacted, and every other string (keys too) redacted as text.
    nlohmann::json json(const nlohmann::json& value, RedactionCounts& counts) const;
    // A JSON document's text: redacted value by value and pretty-printed when it parses
    // (within `maxDepth`), else redacted as text.
    std::string jsonText(std::string_view text, RedactionCounts& counts, int maxDepth = 64) const;

    // Whether a variable or key name marks a secret (TOKEN, SECRET, KEY, ... in any case;
    // the words of kSecretWords, redact_rules.h), PWD and OLDPWD excepted.
    static bool isSecretName(std::string_view name);
    // Whether `value`, held by a secret-named variable `name`, is redacted by value
    // everywhere: not a placeholder, a path, a system session variable or a marker.
    static bool isVerbatimSecret(std::string_view name, std::string_view value);
    // Whether it is redacted by value as a whole word: 2 or 3 characters, a letter among
    // them, otherwise as isVerbatimSecret. Shorter values, and digits (a "12" would take
    // every time of day with it), go only where they stand as a secret variable's value
    // (NAME=v, NAME: v, "NAME": "v"), as every value of such a name does.
    static bool isWordSecret(std::string_view name, std::string_view value);
    static std::string marker(RedactionKind kind);

    struct Rule; // redact_rules.h

private:
    struct Scan;
    // `secretName`: the secret-named key the value is under (an object or array inside
    // one inherits it); empty when it is under none.
    void jsonInPlace(nlohmann::json& value, RedactionCounts& counts,
                     const std::string& secretName) const;
    std::string knownSecrets(std::string_view text, RedactionCounts& counts) const;
    std::string wordSecrets(std::string_view text, RedactionCounts& counts) const;
    std::string scan(std::string_view text, RedactionCounts& counts) const;
    bool accept(const Rule& rule, char before, char after, std::string_view name,
                std::string_view value) const;

    // Its own pass, before the rules: a secret inside a word, once replaced, gives
    // that word new edges, which the rules' second look must see as the first did.
    std::unique_ptr<re2::RE2> m_knownSecrets; // null when there are none
    std::unique_ptr<re2::RE2> m_wordSecrets;  // group 1 is the word; null when none
    std::unique_ptr<re2::RE2> m_combined;
    std::vector<Rule> m_rules;
};

} // namespace sp::diag
