#pragma once
// Finds which of a fixed set of literals occur in a line. This is the log matcher's
// prefilter: it runs on every byte of the log, the regexes only on the few lines it
// flags, so it has to be fast.
//
// Each literal is anchored on its rarest two-byte pair (by a fixed estimate of byte
// frequencies in logs: lowercase letters and spaces are common, '_' and digits rare).
// The scan tests every pair of adjacent bytes against a 64 Kbit table; only on a hit
// does it compare the literals anchored there. Unlike an Aho-Corasick automaton,
// whose next state depends on the previous one, these lookups are independent, so
// the CPU overlaps them (measured: several times the throughput on real logs).

#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace sp::logmatch {

class MultiLiteral
{
public:
    explicit MultiLiteral(const std::vector<std::string>& literals);

    // Calls onHit(literalIndex, endOffset) for occurrences of the literals
    // (endOffset = one past the occurrence's last byte). Each occurrence is reported
    // once; for one literal, in increasing order.
    template <class F> void scan(std::string_view text, F&& onHit) const
    {
        const auto* p = reinterpret_cast<const unsigned char*>(text.data());
        const std::size_t n = text.size();
        if (!m_singles.empty()) {
            for (std::size_t i = 0; i < n; ++i)
                if (m_singleByte[p[i]])
                    for (const auto& [b, lit] : m_singles)
                        if (b == p[i])
                            onHit(lit, i + 1);
        }
        for (std::size_t i = 0; i + 1 < n; ++i) {
            const unsigned key = (static_cast<unsigned>(p[i]) << 8) | p[i + 1];
            if (m_pairBits[key >> 6] & (std::uint64_t{1} << (key & 63))) [[unlikely]]
                verify(text, i, key, onHit);
        }
    }

    std::size_t anchorCount() const { return m_anchors.size(); }

private:
    struct Anchor
    {
        std::uint16_t pair;
        std::uint32_t literal;
        std::uint32_t offset; // of the pair inside the literal
    };

    template <class F>
    void verify(std::string_view text, std::size_t i, unsigned key, F& onHit) const
    {
        const std::uint32_t first = m_firstAnchor[key];
        for (std::uint32_t a = first; a < m_anchors.size() && m_anchors[a].pair == key; ++a) {
            const Anchor& an = m_anchors[a];
            const std::string& lit = m_literals[an.literal];
            if (i < an.offset)
                continue;
            const std::size_t start = i - an.offset;
            if (start + lit.size() <= text.size() &&
                std::memcmp(text.data() + start, lit.data(), lit.size()) == 0)
                onHit(an.literal, start + lit.size());
        }
    }

    std::vector<std::string> m_literals;
    std::array<std::uint64_t, 1024> m_pairBits{};
    std::vector<Anchor> m_anchors;            // sorted by pair
    std::vector<std::uint32_t> m_firstAnchor; // per pair: index of its first anchor
    std::array<bool, 256> m_singleByte{};
    std::vector<std::pair<unsigned char, std::uint32_t>> m_singles; // one-byte literals
};

} // namespace sp::logmatch
