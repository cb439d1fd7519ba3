#include "core/logmatch/causes.h"

#include <re2/re2.h>

namespace sp::logmatch {

namespace {

bool wordByte(char c)
{
    const auto u = static_cast<unsigned char>(c);
    return (u >= '0' && u <= '9') || (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || u == '_';
}

bool asciiLetter(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

// "hipErrorLaunchFailure" must not match inside "hipErrorLaunchFailureX"; a code that
// starts or ends in punctuation has no word edge to hold it there.
CauseSignature codeSignature(const std::string& code)
{
    std::string p = RE2::QuoteMeta(code);
    if (wordByte(code.front()))
        p = "\\b" + p;
    if (wordByte(code.back()))
        p += "\\b";
    return {p, code};
}

// A message starts a sentence in one log and follows "error: " in the next, so its
// first letter may be either case; the rest is as the runtime prints it.
CauseSignature nameSignature(const std::string& name)
{
    if (!asciiLetter(name.front()))
        return {RE2::QuoteMeta(name), name};
    const char lower = static_cast<char>(name.front() | 0x20);
    const char upper = static_cast<char>(name.front() & ~0x20);
    const std::string rest = name.substr(1);
    return {std::string("[") + upper + lower + "]" + RE2::QuoteMeta(rest), rest};
}

// The line must also name one of `on`, before or after the evidence (case aside:
// "c10.dll" and "C10.DLL" are the same file).
std::string withObject(const std::string& evidence, const std::vector<std::string>& on)
{
    std::string objects;
    for (const auto& o : on)
        objects += (objects.empty() ? "" : "|") + RE2::QuoteMeta(o);
    const std::string obj = "(?i:" + objects + ")";
    return "(?:" + evidence + ").*" + obj + "|" + obj + ".*(?:" + evidence + ")";
}

} // namespace

std::vector<CauseSignature> causeSignatures(const KnownIssueCause& cause)
{
    std::vector<CauseSignature> out;
    if (!cause.code.empty())
        out.push_back(codeSignature(cause.code));
    for (const auto& name : cause.names)
        out.push_back(nameSignature(name));
    if (!cause.on.empty())
        for (auto& s : out)
            s.pattern = withObject(s.pattern, cause.on);
    return out;
}

} // namespace sp::logmatch
