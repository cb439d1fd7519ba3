#include "app/common/diag/log_filter.h"

#include "app/common/diag/redact.h"

#include <memory>
#include <utility>
#include <vector>

namespace sp::diag {

std::function<std::string(std::string_view)>
launchLogFilter(const EnvMap& callerEnv, const EnvMap& composedEnv, const nlohmann::json& settings)
{
    Identity id; // no names, no homes: secrets only
    for (const EnvMap* env : {&callerEnv, &composedEnv})
        id.addSecretValues(
            std::vector<std::pair<std::string, std::string>>(env->begin(), env->end()));
    id.addSecretValuesIn(settings);
    auto redactor = std::make_shared<const Redactor>(id);
    return [redactor](std::string_view line) {
        RedactionCounts counts;
        return redactor->text(line, counts);
    };
}

void redactLaunchLog(LaunchRequest& request, const LaunchSetup& setup)
{
    request.logFilter =
        launchLogFilter(setup.userEnv, request.composed.env,
                        nlohmann::json::parse(setup.settings.toJson(), nullptr, false));
}

} // namespace sp::diag
