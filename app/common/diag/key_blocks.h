#pragma once
// Private keys across lines (internal to app/common/diag): PEM and PKCS#8 ("-----BEGIN
// RSA PRIVATE KEY-----"), OpenSSH, PGP ("-----BEGIN PGP PRIVATE KEY BLOCK-----") and
// SSH2 ("---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----") blocks, read one line at a time,
// as the launch log gets them. A key is removed from its BEGIN line to its END line;
// with no END (a cut log), every line after BEGIN that a key's body can hold (base64,
// its headers, blank lines, a logger's prefix and a base64 word) until 8 lines in a row
// that cannot (another stream's lines may come between; once one has, only base64 runs
// of 16 or more count, so "done" stays); and an END whose BEGIN was cut off (a bundle's
// log tail) takes the
// body lines right before it, which are held back until a line that is no body shows
// they were none. Each removed line becomes "<redacted:private-key>" (a prefix before a
// BEGIN, or a logger's prefix, stays), so line numbers do not move.

#include <cstddef>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

namespace sp::diag {

class KeyBlockLines
{
public:
    // At most `holdLines` lines and `holdBytes` bytes are held back; beyond that the
    // oldest goes out as it is (a key's body is a few dozen short lines).
    KeyBlockLines(std::size_t holdLines, std::size_t holdBytes)
        : m_holdLines(holdLines), m_holdBytes(holdBytes)
    {}

    // One line, without its '\n'. Appends to `out` the lines it lets go, in order.
    void feed(std::string_view line, std::vector<std::string>& out);
    // The end of the text: what is held goes out, and a block left open ends.
    void finish(std::vector<std::string>& out);
    // Key blocks found so far.
    std::size_t blocks() const { return m_blocks; }

private:
    std::string withMarkers(std::string_view line, std::vector<std::string>& out);
    void bodyLine(std::string_view line, std::vector<std::string>& out);
    void hold(std::string_view line, std::vector<std::string>& out);
    void release(std::vector<std::string>& out);
    void endBlock();

    std::size_t m_holdLines;
    std::size_t m_holdBytes;
    std::deque<std::string> m_held;
    std::size_t m_heldBytes = 0;
    bool m_inBlock = false;
    int m_strays = 0;           // lines in a row inside a block that no body holds
    bool m_interrupted = false; // such a line came since the block began
    std::size_t m_blocks = 0;
};

// Whether a text may hold a key's BEGIN or END line; false: redactKeyBlocks is a copy.
bool mayHoldKeyBlock(std::string_view text);

// The text with every key block removed, line by line as above (nothing held back
// beyond the text). `blocks` gets the number found.
std::string redactKeyBlocks(std::string_view text, std::size_t& blocks);

} // namespace sp::diag
