#include "http_test_server.h"
#include "text_util.h"

#include <string>
#include <vector>

namespace sp::test {

Fault Fault::dropAfter(std::uint64_t n, int times)
{
    Fault f;
    f.kind = Kind::DropAfter;
    f.bytes = n;
    f.times = times;
    return f;
}

Fault Fault::statusFor(int status, int times)
{
    Fault f;
    f.kind = Kind::Status;
    f.status = status;
    f.times = times;
    return f;
}

Fault Fault::stallAfter(std::uint64_t n, std::chrono::milliseconds t, int times)
{
    Fault f;
    f.kind = Kind::Stall;
    f.bytes = n;
    f.stall = t;
    f.times = times;
    return f;
}

Fault Fault::silentFor(std::chrono::milliseconds t, int times)
{
    Fault f;
    f.kind = Kind::Silent;
    f.stall = t;
    f.times = times;
    return f;
}

Fault Fault::wrongLength(std::int64_t delta, int times)
{
    Fault f;
    f.kind = Kind::WrongLength;
    f.delta = delta;
    f.times = times;
    return f;
}

Fault Fault::corrupt(std::uint64_t offset, int times)
{
    Fault f;
    f.kind = Kind::Corrupt;
    f.offset = offset;
    f.times = times;
    return f;
}

Fault Fault::ignoreRange(int times)
{
    Fault f;
    f.kind = Kind::IgnoreRange;
    f.times = times;
    return f;
}

Fault Fault::noLength(int times)
{
    Fault f;
    f.kind = Kind::NoLength;
    f.times = times;
    return f;
}

std::optional<Fault> Fault::parse(const std::string& spec)
{
    const auto p = split(spec, ':');
    auto num = [&](std::size_t i) -> std::optional<long long> {
        return i < p.size() ? toNumber(p[i]) : std::nullopt;
    };
    const std::string& kind = p[0];
    if (kind == "drop" && (p.size() == 2 || p.size() == 3) && num(1) && *num(1) >= 0)
        return dropAfter(static_cast<std::uint64_t>(*num(1)),
                         p.size() == 3 && num(2) ? static_cast<int>(*num(2)) : 1);
    if (kind == "status" && p.size() == 3 && num(1) && num(2))
        return statusFor(static_cast<int>(*num(1)), static_cast<int>(*num(2)));
    if (kind == "stall" && p.size() == 3 && num(1) && num(2) && *num(1) >= 0)
        return stallAfter(static_cast<std::uint64_t>(*num(1)), std::chrono::milliseconds(*num(2)));
    if (kind == "silent" && p.size() == 2 && num(1) && *num(1) >= 0)
        return silentFor(std::chrono::milliseconds(*num(1)));
    if (kind == "length" && p.size() == 2 && num(1))
        return wrongLength(*num(1));
    if (kind == "corrupt" && p.size() == 2 && num(1) && *num(1) >= 0)
        return corrupt(static_cast<std::uint64_t>(*num(1)));
    if (kind == "norange" && p.size() == 1)
        return ignoreRange();
    if (kind == "nolength" && p.size() == 1)
        return noLength();
    return std::nullopt;
}

} // namespace sp::test
