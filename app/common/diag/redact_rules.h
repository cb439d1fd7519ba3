#pragma once
// The redaction rules as data (internal to app/common/diag): each is a head (where a
// match starts: a word boundary, a variable name, a separator), the value that is
// replaced, and an optional suffix. redact_rules.cpp builds the table; redact.cpp runs it.

#include "app/common/diag/redact.h"

#include <memory>
#include <re2/re2.h>
#include <string>
#include <vector>

namespace sp::diag {

// The one table of what makes a name secret: a name that holds one of these words, in
// any case (DB_PASS, MYSQL_PWD, SLACK_WEBHOOK_URL, hf_token). Every rule, the JSON walk,
// the environment difference and the by-value collection read it.
inline constexpr const char* kSecretWords[] = {"token",  "secret", "key",     "password",
                                               "passwd", "pass",   "pwd",     "credential",
                                               "auth",   "cookie", "session", "webhook"};
// Names that hold a word of the table and no secret: the shell's working folders.
inline constexpr const char* kNotSecretNames[] = {"PWD", "OLDPWD"};
// "token|secret|…" for a pattern; `upper` gives the capitals' spelling.
std::string secretWordsPattern(bool upper);

// What a match has to pass, beyond its pattern, before it is replaced.
enum class RuleCheck
{
    None,
    DigitOrCapital, // a digit or a capital in the body ("sk-learn-..." is no key)
    RightBoundary,  // not followed by a letter or digit
    BothBoundaries, // not inside a longer word on either side
    SecretValue,    // not a placeholder (true, none, a small number)
    Phrase,         // "password is X": not a placeholder, nor a word ("is incorrect")
};

struct Redactor::Rule
{
    RedactionKind kind = RedactionKind::SecretVariable;
    std::string head;   // group 1, when hasName, is the variable's name
    std::string value;  // what is replaced
    std::string suffix; // after the value ("@" after user:pass)
    RuleCheck check = RuleCheck::None;
    bool hasName = false;
    // Bounds on the value's length, checked after the match: counted repetitions ({30,})
    // would multiply the DFA's states on long runs of letters and digits.
    std::size_t minLength = 0;
    std::size_t maxLength = std::string::npos;
    bool home = false; // a home folder: its parent is kept

    std::shared_ptr<const RE2> full;   // head + (value) + suffix: which rule matched
    std::shared_ptr<const RE2> headRe; // head alone: where the value starts, the name
    std::string pattern() const { return head + "(" + value + ")" + suffix; }
};

std::vector<Redactor::Rule> makeRedactionRules(const Identity& identity);

} // namespace sp::diag
