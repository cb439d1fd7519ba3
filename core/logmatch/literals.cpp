#include "core/logmatch/literals.h"

#include <algorithm>
#include <cstddef>

namespace sp::logmatch {

namespace {

int hexValue(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

// One atom of a sequence: a plain character (literal), or anything else (class,
// group, dot, anchor, character-class escape) that ends a literal run.
struct Atom
{
    bool literal = false;
    char ch = 0;
};

class AlternativeScanner
{
public:
    AlternativeScanner(const std::string& re, std::size_t begin, std::size_t end)
        : m_re(re), m_pos(begin), m_end(end)
    {}

    // The longest literal run every match of this alternative must contain.
    std::string longestRun()
    {
        std::string best;
        std::string run;
        auto endRun = [&] {
            if (run.size() > best.size())
                best = run;
            run.clear();
        };
        while (m_pos < m_end) {
            const Atom atom = nextAtom();
            const Quantifier q = readQuantifier();
            if (!atom.literal || atom.ch == '\n' || atom.ch == '\r') {
                endRun();
                continue;
            }
            if (q == Quantifier::None) {
                run.push_back(atom.ch);
            } else if (q == Quantifier::AtLeastOne) {
                // The character is there once for sure, but what follows may not
                // be adjacent to it.
                run.push_back(atom.ch);
                endRun();
            } else {
                endRun();
            }
        }
        endRun();
        return m_unsure ? std::string() : best;
    }

private:
    enum class Quantifier
    {
        None,
        Optional,
        AtLeastOne
    };

    Atom nextAtom()
    {
        const char c = m_re[m_pos++];
        switch (c) {
        case '\\':
            return escape();
        case '[':
            skipClass();
            return {};
        case '(':
            skipGroup();
            return {};
        case '.':
        case '^':
        case '$':
        case ')': // unbalanced: std::regex rejects it anyway
            return {};
        default:
            return {true, c};
        }
    }

    Atom escape()
    {
        if (m_pos >= m_end)
            return {};
        const char c = m_re[m_pos++];
        switch (c) {
        case 'd':
        case 'D':
        case 's':
        case 'S':
        case 'w':
        case 'W':
        case 'b':
        case 'B':
        case '0':
        case '1':
        case '2':
        case '3':
        case '4':
        case '5':
        case '6':
        case '7':
        case '8':
        case '9':
            return {};
        case 'n':
            return {true, '\n'};
        case 'r':
            return {true, '\r'};
        case 't':
            return {true, '\t'};
        case 'f':
            return {true, '\f'};
        case 'v':
            return {true, '\v'};
        case 'x': {
            if (m_pos + 2 <= m_end && hexValue(m_re[m_pos]) >= 0 &&
                hexValue(m_re[m_pos + 1]) >= 0) {
                const int v = hexValue(m_re[m_pos]) * 16 + hexValue(m_re[m_pos + 1]);
                m_pos += 2;
                return {true, static_cast<char>(v)};
            }
            return {};
        }
        case 'c':
            // \cX is one control character: X is part of the escape.
            m_pos = std::min(m_end, m_pos + 1);
            return {};
        case 'u':
            // A code point above 0x7f is not one byte; stay on the safe side.
            m_pos = std::min(m_end, m_pos + 4);
            return {};
        default:
            return {true, c};
        }
    }

    void skipClass()
    {
        while (m_pos < m_end) {
            const char c = m_re[m_pos++];
            if (c == '\\')
                ++m_pos;
            else if (c == ']')
                return;
        }
        m_pos = std::min(m_pos, m_end);
    }

    void skipGroup()
    {
        int depth = 1;
        while (m_pos < m_end && depth > 0) {
            const char c = m_re[m_pos++];
            if (c == '\\')
                ++m_pos;
            else if (c == '[')
                skipClass();
            else if (c == '(')
                ++depth;
            else if (c == ')')
                --depth;
        }
        m_pos = std::min(m_pos, m_end);
    }

    // A quantifier, and any further ones stacked on it: libstdc++ accepts "a{2,}{3,}"
    // where ECMAScript would not, with semantics we do not try to mirror.
    Quantifier readQuantifier()
    {
        const Quantifier q = readOneQuantifier();
        if (q != Quantifier::None && readOneQuantifier() != Quantifier::None)
            m_unsure = true;
        return q;
    }

    Quantifier readOneQuantifier()
    {
        if (m_pos >= m_end)
            return Quantifier::None;
        Quantifier q = Quantifier::None;
        const char c = m_re[m_pos];
        if (c == '*' || c == '?') {
            q = Quantifier::Optional;
            ++m_pos;
        } else if (c == '+') {
            q = Quantifier::AtLeastOne;
            ++m_pos;
        } else if (c == '{') {
            // {n}, {n,}, {n,m}: a minimum of zero makes the atom optional.
            std::size_t p = m_pos + 1;
            long minimum = 0;
            bool digits = false;
            while (p < m_end && m_re[p] >= '0' && m_re[p] <= '9') {
                minimum = std::min<long>(minimum * 10 + (m_re[p] - '0'), 1000000);
                digits = true;
                ++p;
            }
            const std::size_t close = m_re.find('}', p);
            if (!digits || close == std::string::npos || close >= m_end)
                return Quantifier::None; // a literal '{' in ECMAScript's lenient reading
            if (minimum > 1000 || close - p > 12)
                m_unsure = true; // counts that may overflow inside std::regex
            m_pos = close + 1;
            // Even {1} or {2,} may put other copies next to it: end the run there.
            q = minimum == 0 ? Quantifier::Optional : Quantifier::AtLeastOne;
        }
        if (q != Quantifier::None && m_pos < m_end && m_re[m_pos] == '?')
            ++m_pos; // lazy
        return q;
    }

    const std::string& m_re;
    std::size_t m_pos;
    std::size_t m_end;
    bool m_unsure = false; // some construct whose std::regex reading we cannot be sure of
};

// Positions of the top-level '|' separators.
std::vector<std::size_t> topLevelBars(const std::string& re)
{
    std::vector<std::size_t> bars;
    int depth = 0;
    bool inClass = false;
    for (std::size_t i = 0; i < re.size(); ++i) {
        const char c = re[i];
        if (c == '\\') {
            ++i;
        } else if (inClass) {
            if (c == ']')
                inClass = false;
        } else if (c == '[') {
            inClass = true;
        } else if (c == '(') {
            ++depth;
        } else if (c == ')') {
            depth = std::max(0, depth - 1);
        } else if (c == '|' && depth == 0) {
            bars.push_back(i);
        }
    }
    return bars;
}

} // namespace

std::vector<std::string> requiredLiterals(const std::string& regex)
{
    // "[]" and "[^]" are an empty class and "any character" in ECMAScript, but other
    // engines read the ']' as a member; where a class ends is then unclear.
    if (regex.find("[]") != std::string::npos || regex.find("[^]") != std::string::npos)
        return {};
    std::vector<std::string> out;
    std::size_t begin = 0;
    std::vector<std::size_t> bounds = topLevelBars(regex);
    bounds.push_back(regex.size());
    for (const std::size_t end : bounds) {
        std::string lit = AlternativeScanner(regex, begin, end).longestRun();
        if (lit.empty())
            return {};
        if (std::find(out.begin(), out.end(), lit) == out.end())
            out.push_back(std::move(lit));
        begin = end + 1;
    }
    return out;
}

} // namespace sp::logmatch
