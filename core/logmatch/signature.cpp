#include "core/logmatch/signature.h"

#include <re2/re2.h>

namespace sp::logmatch {

namespace {
// Enough for every signature a person writes; a pattern that needs more is refused at
// load time rather than failing on some line later.
constexpr int64_t kMaxProgramBytes = 8 << 20;
} // namespace

Expected<std::shared_ptr<const re2::RE2>> compileSignature(const std::string& pattern,
                                                           bool captures)
{
    re2::RE2::Options options;
    options.set_log_errors(false);
    options.set_never_capture(!captures);
    options.set_max_mem(kMaxProgramBytes);
    auto re = std::make_shared<const re2::RE2>(pattern, options);
    if (!re->ok())
        return Error::invalid("regex does not compile (RE2 syntax): " + re->error());
    return std::shared_ptr<const re2::RE2>(std::move(re));
}

} // namespace sp::logmatch
