// The smoke test's result judging (core/evidence/smoke_judge.h) on arbitrary output:
// the bytes are the smoke test's lines, the first byte picks how it ended and which GPU
// it was planned for. Whatever it prints, the verdict must be consistent (a pass has no
// cause and no reason, a failure both), keep only the result's known scalar fields, and
// make a record that writes back as JSON within its bound.

#include "core/evidence/evidence.h"
#include "core/evidence/smoke_judge.h"
#include "tests/support/fuzz_input.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace {

const sp::ExpectedDevice kDevices[] = {
    {true, "amd", "AMD Radeon RX 7900 XTX", {"gfx1100"}, false},
    {true, "amd", "AMD Radeon RX 6750 XT", {"gfx1031", "gfx1030"}, false},
    {true, "amd", "AMD Radeon RX 6750 XT", {"gfx1031"}, true},
    {true, "nvidia", "NVIDIA GeForce RTX 4090", {"sm_89"}, false},
    {false, "", "", {}, false}};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size == 0)
        return 0;
    const unsigned pick = sp::fuzz::firstByte(data, size);
    sp::SmokeOutput out;
    sp::fuzz::forEachPiece(sp::fuzz::bytesOf(data, size).substr(1), '\n',
                           [&out](std::string_view line) { out.line(std::string(line)); });
    sp::SmokeEnd end;
    end.exitedWell = pick & 1;
    end.exitText = end.exitedWell ? "exited with code 0" : "exited with code 1";
    end.timedOut = pick & 2;
    end.deadlineS = 300;
    if (pick & 4) {
        end.knownIssue = "hipblas-status-unknown";
        end.knownTitle = "hipBLAS failed";
    }
    const sp::SmokeVerdict v = sp::judgeSmoke(out, end, kDevices[(pick >> 3) % 5]);
    if (v.passed != (v.cause == sp::SmokeCause::None) || v.passed == !v.reason.empty())
        __builtin_trap();
    if (!v.result.is_object() || (v.passed && !v.result.value("ok", false)))
        __builtin_trap();
    for (const auto& [key, value] : v.result.items())
        if (value.is_structured())
            __builtin_trap();
    sp::EvidenceRecord r;
    r.profile = "p";
    r.passed = v.passed;
    r.seconds = v.seconds;
    r.reason = v.reason;
    r.cause = sp::toString(v.cause);
    r.deviceCheck = v.deviceCheck;
    r.result = v.result;
    const sp::EvidenceRecord b = sp::boundedRecord(r);
    if (sp::storedSize(b) > sp::kMaxRecordBytes)
        __builtin_trap();
    (void)sp::toJson(b).dump(1); // throws (and so fails) on bytes that are not UTF-8
    return 0;
}
