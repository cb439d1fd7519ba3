#pragma once
// A ByteSink that keeps what it received and counts the contract calls, so tests
// can check the downloader's and fetcher's side of the contract.

#include "installers/byte_sink.h"

#include <optional>
#include <string>

namespace sp::test {

class RecordingSink : public ByteSink
{
public:
    std::string data;
    int begins = 0, restarts = 0, finishes = 0, aborts = 0;
    std::optional<std::uint64_t> lastTotal;
    bool outOfOrder = false;              // a call arrived when the contract forbids it
    std::optional<std::size_t> failAfter; // write() fails once data would exceed this
    bool keep = true;                     // false: count bytes only (benchmarks)
    std::uint64_t bytes = 0;

    Expected<void> begin(std::optional<std::uint64_t> total) override
    {
        if (begun)
            outOfOrder = true;
        begun = true;
        ++begins;
        lastTotal = total;
        return {};
    }
    Expected<void> write(const char* p, std::size_t n) override
    {
        if (!begun || finished)
            outOfOrder = true;
        if (failAfter && bytes + n > *failAfter)
            return Error::invalid("sink refuses more bytes");
        if (keep)
            data.append(p, n);
        bytes += n;
        return {};
    }
    Expected<void> finish() override
    {
        if (!begun || finished)
            outOfOrder = true;
        finished = true;
        ++finishes;
        return {};
    }
    Expected<void> restart() override
    {
        ++restarts;
        data.clear();
        bytes = 0;
        begun = false;
        return {};
    }
    void abort() override { ++aborts; }

private:
    bool begun = false;
    bool finished = false;
};

} // namespace sp::test
