#include "app/common/diag/log_filter.h"

#include "app/common/diag/key_blocks.h"
#include "app/common/diag/redact.h"

#include <utility>
#include <vector>

namespace sp::diag {

namespace {

// A key's body is a few dozen lines of 64 to 76 characters.
constexpr std::size_t kHeldLines = 64;
constexpr std::size_t kHeldBytes = 64 * 1024;

class RedactingLogFilter final : public LogFilter
{
public:
    explicit RedactingLogFilter(std::shared_ptr<const Redactor> redactor)
        : m_redactor(std::move(redactor)), m_keys(kHeldLines, kHeldBytes)
    {}

    void line(std::string_view text, std::vector<std::string>& out) override
    {
        m_keys.feed(text, m_lines);
        redactInto(out);
    }

    void finish(std::vector<std::string>& out) override
    {
        m_keys.finish(m_lines);
        redactInto(out);
    }

private:
    // Each line that the key pass gives out, through the rest of the rules.
    void redactInto(std::vector<std::string>& out)
    {
        for (const std::string& l : m_lines) {
            RedactionCounts counts;
            out.push_back(m_redactor->text(l, counts));
        }
        m_lines.clear();
    }

    std::shared_ptr<const Redactor> m_redactor;
    KeyBlockLines m_keys;
    std::vector<std::string> m_lines;
};

} // namespace

std::shared_ptr<LogFilter> launchLogFilter(const EnvMap& callerEnv, const EnvMap& composedEnv,
                                           const nlohmann::json& settings)
{
    Identity id; // no names, no homes: secrets only
    for (const EnvMap* env : {&callerEnv, &composedEnv})
        id.addSecretValues(
            std::vector<std::pair<std::string, std::string>>(env->begin(), env->end()));
    id.addSecretValuesIn(settings);
    return std::make_shared<RedactingLogFilter>(std::make_shared<const Redactor>(id));
}

void redactLaunchLog(LaunchRequest& request, const LaunchSetup& setup)
{
    request.logFilter =
        launchLogFilter(setup.userEnv, request.composed.env,
                        nlohmann::json::parse(setup.settings.toJson(), nullptr, false));
}

} // namespace sp::diag
