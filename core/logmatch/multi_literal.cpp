#include "core/logmatch/multi_literal.h"

#include <algorithm>
#include <deque>

namespace sp::logmatch {

MultiLiteral::MultiLiteral(const std::vector<std::string>& literals)
{
    // Trie first: goto[state][byte], -1 = no edge.
    std::vector<std::vector<std::int32_t>> go(1, std::vector<std::int32_t>(256, -1));
    m_outputs.assign(1, {});
    for (std::uint32_t li = 0; li < literals.size(); ++li) {
        const std::string& lit = literals[li];
        if (lit.empty())
            continue;
        std::size_t s = 0;
        for (const char ch : lit) {
            const auto b = static_cast<unsigned char>(ch);
            if (go[s][b] < 0) {
                go[s][b] = static_cast<std::int32_t>(go.size());
                go.emplace_back(256, -1);
                m_outputs.emplace_back();
            }
            s = static_cast<std::size_t>(go[s][b]);
        }
        m_outputs[s].push_back(li);
    }

    // Breadth-first: failure links, outputs inherited along them, and the full
    // transition table (missing edges follow the failure link's transitions).
    const std::size_t n = go.size();
    std::vector<std::uint32_t> fail(n, 0);
    std::vector<std::uint32_t> next(n * 256, 0);
    std::deque<std::size_t> queue;
    for (int b = 0; b < 256; ++b) {
        const std::int32_t t = go[0][static_cast<std::size_t>(b)];
        if (t > 0) {
            next[static_cast<std::size_t>(b)] = static_cast<std::uint32_t>(t);
            queue.push_back(static_cast<std::size_t>(t));
        }
    }
    while (!queue.empty()) {
        const std::size_t s = queue.front();
        queue.pop_front();
        for (int b = 0; b < 256; ++b) {
            const auto ub = static_cast<std::size_t>(b);
            const std::int32_t t = go[s][ub];
            if (t < 0) {
                next[s * 256 + ub] = next[fail[s] * 256 + ub];
                continue;
            }
            const auto ut = static_cast<std::size_t>(t);
            fail[ut] = next[fail[s] * 256 + ub];
            const auto& inherited = m_outputs[fail[ut]];
            m_outputs[ut].insert(m_outputs[ut].end(), inherited.begin(), inherited.end());
            next[s * 256 + ub] = static_cast<std::uint32_t>(t);
            queue.push_back(ut);
        }
    }

    m_next.resize(n * 256);
    for (std::size_t i = 0; i < next.size(); ++i) {
        const std::uint32_t t = next[i];
        m_next[i] = t | (m_outputs[t].empty() ? 0u : kHasOutput);
    }
}

} // namespace sp::logmatch
