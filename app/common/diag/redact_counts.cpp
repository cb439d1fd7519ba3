// The kinds' names and the counts of what redaction removed (redact.h).

#include "app/common/diag/redact.h"

namespace sp::diag {

namespace {

constexpr const char* kKindNames[kRedactionKinds] = {
    "secret-variable", "url-credentials", "authorization-header", "cookie-header",
    "bearer-token",    "token-flag",      "huggingface-token",    "openai-key",
    "github-token",    "github-pat",      "aws-access-key",       "jwt",
    "private-key",     "user-name",       "known-secret",         "webhook-url",
    "password-phrase"};

} // namespace

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

} // namespace sp::diag
