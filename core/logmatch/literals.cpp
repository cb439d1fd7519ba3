#include "core/logmatch/literals.h"

#include <algorithm>
#include <cstddef>
#include <string_view>

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

bool isOctal(char c)
{
    return c >= '0' && c <= '7';
}

// One atom of a sequence: a plain character (literal; the bytes of one UTF-8 code
// point, since RE2 reads the pattern as UTF-8 and a quantifier applies to the whole
// code point), or anything else (class, group, dot, anchor, character-class escape)
// that ends a literal run.
struct Atom
{
    bool literal = false;
    std::string text;
};

Atom literalAtom(char c)
{
    return {true, std::string(1, c)};
}

// Where the class that opens before `pos` ends (just after its ']'), reading RE2's
// classes: escapes and POSIX names such as "[:alpha:]" do not end it.
std::size_t classEnd(const std::string& re, std::size_t pos, std::size_t end)
{
    while (pos < end) {
        const char c = re[pos++];
        if (c == '\\') {
            ++pos;
        } else if (c == '[' && pos < end && re[pos] == ':') {
            const std::size_t close = re.find(":]", pos + 1);
            if (close != std::string::npos && close + 2 <= end)
                pos = close + 2;
        } else if (c == ']') {
            return pos;
        }
    }
    return end;
}

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
            if (!atom.literal || atom.text.find_first_of("\r\n") != std::string::npos) {
                endRun();
                continue;
            }
            if (q == Quantifier::None) {
                run += atom.text;
            } else if (q == Quantifier::AtLeastOne) {
                // The character is there once for sure, but what follows may not
                // be adjacent to it.
                run += atom.text;
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
        case ')': // unbalanced: RE2 rejects it anyway
            return {};
        default:
            return codePoint(c);
        }
    }

    // A plain character with the continuation bytes of its UTF-8 sequence.
    Atom codePoint(char lead)
    {
        Atom atom = literalAtom(lead);
        if ((static_cast<unsigned char>(lead) & 0xC0) != 0xC0)
            return atom;
        while (m_pos < m_end && (static_cast<unsigned char>(m_re[m_pos]) & 0xC0) == 0x80 &&
               atom.text.size() < 4)
            atom.text.push_back(m_re[m_pos++]);
        return atom;
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
        case 'A': // start of text
        case 'z': // end of text
        case 'C': // any byte
            return {};
        case 'p': // a Unicode class: \pN or \p{Greek}
        case 'P':
            if (m_pos < m_end && m_re[m_pos] == '{') {
                const std::size_t close = m_re.find('}', m_pos);
                m_pos = close == std::string::npos || close >= m_end ? m_end : close + 1;
            } else {
                m_pos = std::min(m_end, m_pos + 1);
            }
            return {};
        case 'n':
            return literalAtom('\n');
        case 'r':
            return literalAtom('\r');
        case 't':
            return literalAtom('\t');
        case 'f':
            return literalAtom('\f');
        case 'v':
            return literalAtom('\v');
        case 'a':
            return literalAtom('\a');
        case 'x':
            return hexEscape();
        default:
            if (c >= '0' && c <= '9') {
                // An octal code (RE2 takes up to three digits); a bare \1..\9 is a
                // backreference, which RE2 refuses.
                for (int i = 0; i < 2 && m_pos < m_end && isOctal(m_re[m_pos]); ++i)
                    ++m_pos;
                return {};
            }
            return codePoint(c); // an escaped punctuation character is itself
        }
    }

    // \xHH or \x{H...}: a code point. Only ASCII is one byte of the text; anything
    // above 0x7f is UTF-8 there, so it ends the run rather than being mistranslated.
    Atom hexEscape()
    {
        if (m_pos < m_end && m_re[m_pos] == '{') {
            const std::size_t close = m_re.find('}', m_pos);
            if (close == std::string::npos || close >= m_end) {
                m_pos = m_end;
                return {};
            }
            long value = 0;
            for (std::size_t p = m_pos + 1; p < close; ++p)
                value = std::min<long>(value * 16 + std::max(0, hexValue(m_re[p])), 0x110000);
            const bool ascii = close > m_pos + 1 && value < 0x80;
            m_pos = close + 1;
            return ascii ? literalAtom(static_cast<char>(value)) : Atom{};
        }
        if (m_pos + 2 <= m_end && hexValue(m_re[m_pos]) >= 0 && hexValue(m_re[m_pos + 1]) >= 0) {
            const int v = hexValue(m_re[m_pos]) * 16 + hexValue(m_re[m_pos + 1]);
            m_pos += 2;
            return v < 0x80 ? literalAtom(static_cast<char>(v)) : Atom{};
        }
        return {};
    }

    void skipClass() { m_pos = classEnd(m_re, m_pos, m_end); }

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

    // A quantifier, and any further ones stacked on it: RE2 refuses most stacks
    // ("a**"); whatever it does with the rest, we do not try to mirror.
    Quantifier readQuantifier()
    {
        skipFlagGroups();
        const Quantifier q = readOneQuantifier();
        skipFlagGroups();
        if (q != Quantifier::None && readOneQuantifier() != Quantifier::None)
            m_unsure = true;
        return q;
    }

    // "(?)", "(?s)", "(?-m)": a group of flags alone matches nothing, so RE2 gives a
    // quantifier after it to the atom before it: "x(?)?" is "x?", which "o" matches
    // (fuzz_logmatch_literals found it as "\0(?)?(?)"). Read as an atom of its own,
    // it would leave 'x' required. Case flags never get here (hasCaseFlag).
    void skipFlagGroups()
    {
        while (m_pos + 2 < m_end && m_re[m_pos] == '(' && m_re[m_pos + 1] == '?') {
            std::size_t p = m_pos + 2;
            while (p < m_end && std::string_view("imsU-").find(m_re[p]) != std::string_view::npos)
                ++p;
            if (p >= m_end || m_re[p] != ')')
                return;
            m_pos = p + 1;
        }
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
            q = readCount();
        }
        if (q != Quantifier::None && m_pos < m_end && m_re[m_pos] == '?')
            ++m_pos; // non-greedy
        return q;
    }

    // {n}, {n,} or {n,m}; anything else is a literal '{' to RE2. A minimum of zero
    // makes the atom optional; even {1} or {2,} may put other copies next to it, so
    // the run ends there.
    Quantifier readCount()
    {
        std::size_t p = m_pos + 1;
        long minimum = -1;
        bool comma = false;
        for (; p < m_end && m_re[p] != '}'; ++p) {
            const char d = m_re[p];
            if (d >= '0' && d <= '9' && !comma)
                minimum = std::min<long>(std::max(0L, minimum) * 10 + (d - '0'), 1000000);
            else if (d >= '0' && d <= '9')
                continue;
            else if (d == ',' && !comma && minimum >= 0)
                comma = true;
            else
                return Quantifier::None;
        }
        if (minimum < 0 || p >= m_end)
            return Quantifier::None;
        if (minimum > 1000 || p - m_pos > 12)
            m_unsure = true; // RE2 refuses counts over 1000
        m_pos = p + 1;
        return minimum == 0 ? Quantifier::Optional : Quantifier::AtLeastOne;
    }

    const std::string& m_re;
    std::size_t m_pos;
    std::size_t m_end;
    bool m_unsure = false; // some construct whose RE2 reading we cannot be sure of
};

// Positions of the top-level '|' separators.
std::vector<std::size_t> topLevelBars(const std::string& re)
{
    std::vector<std::size_t> bars;
    int depth = 0;
    for (std::size_t i = 0; i < re.size(); ++i) {
        const char c = re[i];
        if (c == '\\') {
            ++i;
        } else if (c == '[') {
            i = classEnd(re, i + 1, re.size()) - 1;
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

// A flag group that turns on case folding: "(?i)", "(?si)", "(?i:...)", ... The
// last two are groups the scanner skips anyway; a conservative test is enough.
bool hasCaseFlag(const std::string& re)
{
    for (std::size_t at = re.find("(?"); at != std::string::npos; at = re.find("(?", at + 1)) {
        bool negated = false;
        for (std::size_t p = at + 2; p < re.size(); ++p) {
            const char c = re[p];
            if (c == 'i' && !negated)
                return true;
            if (c == '-')
                negated = true;
            else if (c != 'm' && c != 's' && c != 'U' && c != 'i')
                break;
        }
    }
    return false;
}

} // namespace

std::vector<std::string> requiredLiterals(const std::string& regex)
{
    // RE2 reads the ']' of "[]a]" and "[^]a]" as a member; ECMAScript-minded authors
    // do not. Where such a class ends is unclear to a reader, so no prefilter.
    if (regex.find("[]") != std::string::npos || regex.find("[^]") != std::string::npos)
        return {};
    // Quoted text (\Q...\E) and case-insensitive flags ("(?i)abc") change what the
    // characters after them mean; such a signature always runs.
    if (regex.find("\\Q") != std::string::npos || hasCaseFlag(regex))
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
