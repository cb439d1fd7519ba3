#include "core/catalog/position_index.h"

#include <set>

namespace sp {

class PositionScanner
{
public:
    PositionScanner(const std::string& text, PositionIndex& index) : m_text(text), m_index(index) {}

    void run()
    {
        skipSpace();
        value("", 0);
    }

private:
    const std::string& m_text;
    PositionIndex& m_index;
    std::size_t m_pos = 0;
    int m_line = 1;
    int m_column = 1;

    bool atEnd() const { return m_pos >= m_text.size(); }
    char peek() const { return atEnd() ? '\0' : m_text[m_pos]; }

    void advance()
    {
        if (atEnd())
            return;
        const unsigned char c = static_cast<unsigned char>(m_text[m_pos++]);
        if (c == '\n') {
            ++m_line;
            m_column = 1;
        } else if ((c & 0xC0) != 0x80) {
            ++m_column; // count code points, not UTF-8 continuation bytes
        }
    }

    void skipSpace()
    {
        while (!atEnd() && (peek() == ' ' || peek() == '\t' || peek() == '\n' || peek() == '\r'))
            advance();
    }

    TextPosition here() const { return {m_line, m_column}; }

    // Reads a string token; returns its raw contents (escapes decoded only as far as
    // keys need: \" \\ \/ and the rest kept verbatim, which is enough to compare keys).
    std::string string()
    {
        std::string out;
        advance(); // opening quote
        while (!atEnd() && peek() != '"') {
            if (peek() == '\\') {
                advance();
                const char e = peek();
                out += (e == '"' || e == '\\' || e == '/') ? e : '\\';
                if (!(e == '"' || e == '\\' || e == '/'))
                    out += e;
                advance();
                continue;
            }
            out += peek();
            advance();
        }
        advance(); // closing quote
        return out;
    }

    void value(const std::string& pointer, int depth)
    {
        if (depth > 512 || atEnd())
            return; // nlohmann already rejects deeper documents; stay safe on garbage
        const char c = peek();
        if (c == '{') {
            advance();
            skipSpace();
            std::set<std::string> seen;
            while (!atEnd() && peek() != '}') {
                if (peek() != '"')
                    return;
                const TextPosition keyPos = here();
                const std::string key = string();
                const std::string child = pointer + "/" + PositionIndex::escapeToken(key);
                if (!seen.insert(key).second)
                    m_index.m_duplicates.emplace_back(child, keyPos);
                else
                    m_index.m_positions.emplace(child, keyPos);
                skipSpace();
                if (peek() != ':')
                    return;
                advance();
                skipSpace();
                value(child, depth + 1);
                skipSpace();
                if (peek() == ',') {
                    advance();
                    skipSpace();
                }
            }
            advance();
        } else if (c == '[') {
            advance();
            skipSpace();
            int i = 0;
            while (!atEnd() && peek() != ']') {
                const std::string child = pointer + "/" + std::to_string(i++);
                m_index.m_positions.emplace(child, here());
                const std::size_t before = m_pos;
                value(child, depth + 1);
                if (m_pos == before)
                    return;
                skipSpace();
                if (peek() == ',') {
                    advance();
                    skipSpace();
                }
            }
            advance();
        } else if (c == '"') {
            string();
        } else {
            // number, true, false, null
            while (!atEnd() && peek() != ',' && peek() != '}' && peek() != ']' && peek() != ' ' &&
                   peek() != '\n' && peek() != '\r' && peek() != '\t')
                advance();
        }
    }
};

PositionIndex PositionIndex::build(const std::string& text)
{
    PositionIndex index;
    PositionScanner scanner(text, index);
    scanner.run();
    return index;
}

TextPosition PositionIndex::at(const std::string& pointer) const
{
    std::string p = pointer;
    while (!p.empty()) {
        if (auto it = m_positions.find(p); it != m_positions.end())
            return it->second;
        const auto slash = p.rfind('/');
        p = slash == std::string::npos ? std::string{} : p.substr(0, slash);
    }
    return {1, 1};
}

TextPosition PositionIndex::fromOffset(const std::string& text, std::size_t offset)
{
    TextPosition pos;
    for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
        const unsigned char c = static_cast<unsigned char>(text[i]);
        if (c == '\n') {
            ++pos.line;
            pos.column = 1;
        } else if ((c & 0xC0) != 0x80) {
            ++pos.column;
        }
    }
    return pos;
}

std::string PositionIndex::escapeToken(const std::string& key)
{
    std::string out;
    for (char c : key) {
        if (c == '~')
            out += "~0";
        else if (c == '/')
            out += "~1";
        else
            out += c;
    }
    return out;
}

} // namespace sp
