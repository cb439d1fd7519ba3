#pragma once
// Finds which of a fixed set of literals occur in a line, in one pass over its bytes
// (an Aho-Corasick automaton compiled to a full 256-way transition table). This is
// the log matcher's prefilter: it runs on every line, the regexes only on the few
// lines it flags.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sp::logmatch {

class MultiLiteral
{
public:
    explicit MultiLiteral(const std::vector<std::string>& literals);

    // Calls onHit(literalIndex, endOffset) for every occurrence of every literal
    // (endOffset = one past its last byte).
    template <class F> void scan(std::string_view text, F&& onHit) const
    {
        std::uint32_t s = 0;
        const std::uint32_t* table = m_next.data();
        for (std::size_t i = 0; i < text.size(); ++i) {
            s = table[(static_cast<std::size_t>(s & kStateMask) << 8) |
                      static_cast<unsigned char>(text[i])];
            if (s & kHasOutput) [[unlikely]] {
                for (const std::uint32_t lit : m_outputs[s & kStateMask])
                    onHit(lit, i + 1);
            }
        }
    }

    std::size_t stateCount() const { return m_outputs.size(); }

private:
    static constexpr std::uint32_t kHasOutput = 0x80000000u;
    static constexpr std::uint32_t kStateMask = 0x7fffffffu;

    // m_next[state * 256 + byte]: the next state, with kHasOutput set when the
    // next state ends at least one literal.
    std::vector<std::uint32_t> m_next;
    std::vector<std::vector<std::uint32_t>> m_outputs; // per state: literals ending here
};

} // namespace sp::logmatch
