#pragma once
// Maps each JSON pointer of a document to the line and column where it starts, so
// that errors found after parsing ("unknown runtime", "bad regex") can still name
// "file:line:col". nlohmann keeps no positions, so this is a small scanner run over
// text that nlohmann already accepted. For an object member the position is the
// member's key; for an array element, the element itself.

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace sp {

struct TextPosition
{
    int line = 1;
    int column = 1;
};

class PositionIndex
{
public:
    // `text` should be valid JSON; on anything else the index is simply partial.
    static PositionIndex build(const std::string& text);

    // The nearest recorded position: the pointer itself, else its closest parent.
    TextPosition at(const std::string& pointer) const;
    // Object keys that occur twice under the same object: (pointer of the member, position).
    const std::vector<std::pair<std::string, TextPosition>>& duplicateKeys() const
    {
        return m_duplicates;
    }

    // Converts a byte offset into a position (nlohmann's parse errors give bytes).
    static TextPosition fromOffset(const std::string& text, std::size_t offset);
    static std::string escapeToken(const std::string& key); // "~" -> "~0", "/" -> "~1"

private:
    friend class PositionScanner;
    std::map<std::string, TextPosition> m_positions;
    std::vector<std::pair<std::string, TextPosition>> m_duplicates;
};

} // namespace sp
