#include "core/logmatch/multi_literal.h"

#include <algorithm>

namespace sp::logmatch {

namespace {

// A rough weight of how often a byte appears in workload logs; only the order
// matters. Text is mostly lowercase letters, spaces and digits in timestamps.
int byteWeight(unsigned char c)
{
    if (c == ' ')
        return 16;
    if (c != 0 && std::strchr("etaoinsrl", c))
        return 14;
    if (c >= 'a' && c <= 'z')
        return 10;
    if (c >= '0' && c <= '9')
        return 9;
    if (c != 0 && std::strchr(".:-/=,", c))
        return 8;
    if (c >= 'A' && c <= 'Z')
        return 5;
    if (c == '_' || c == '(' || c == ')' || c == '[' || c == ']' || c == '\'' || c == '"')
        return 3;
    return 2;
}

} // namespace

MultiLiteral::MultiLiteral(const std::vector<std::string>& literals) : m_literals(literals)
{
    for (std::uint32_t li = 0; li < literals.size(); ++li) {
        const std::string& lit = literals[li];
        if (lit.empty())
            continue;
        const auto* b = reinterpret_cast<const unsigned char*>(lit.data());
        if (lit.size() == 1) {
            m_singleByte[b[0]] = true;
            m_singles.emplace_back(b[0], li);
            continue;
        }
        std::size_t best = 0;
        int bestWeight = 1 << 30;
        for (std::size_t k = 0; k + 1 < lit.size(); ++k) {
            const int w = byteWeight(b[k]) * byteWeight(b[k + 1]);
            if (w < bestWeight) {
                bestWeight = w;
                best = k;
            }
        }
        const auto key = static_cast<std::uint16_t>((b[best] << 8) | b[best + 1]);
        m_anchors.push_back({key, li, static_cast<std::uint32_t>(best)});
        m_pairBits[key >> 6] |= std::uint64_t{1} << (key & 63);
    }
    std::stable_sort(m_anchors.begin(), m_anchors.end(),
                     [](const Anchor& x, const Anchor& y) { return x.pair < y.pair; });
    m_firstAnchor.assign(65536, static_cast<std::uint32_t>(m_anchors.size()));
    for (std::size_t a = m_anchors.size(); a-- > 0;)
        m_firstAnchor[m_anchors[a].pair] = static_cast<std::uint32_t>(a);
}

} // namespace sp::logmatch
