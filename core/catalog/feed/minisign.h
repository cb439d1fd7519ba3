#pragma once
// minisign signatures (https://jedisct1.github.io/minisign/): Ed25519 over the file
// ("Ed") or over its BLAKE2b-512 ("ED", minisign's default since 0.10), plus a global
// signature over the signature and the trusted comment. Verified with OpenSSL's
// EVP Ed25519; nothing here is cryptography written by hand.

#include "core/expected.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace sp::feed {

// A .minisig file is at most this large.
inline constexpr std::size_t kMaxSignatureBytes = 4096;

struct PublicKey
{
    std::array<unsigned char, 8> keyId{};
    std::array<unsigned char, 32> key{};
    std::string text; // the "RW…" base64 line it was read from
};

// The "RW…" base64 line, or a whole minisign.pub file (its last line is the key).
[[nodiscard]] Expected<PublicKey> parsePublicKey(const std::string& text);
// The key id as minisign prints it: 16 upper-case hex digits.
std::string keyIdHex(const std::array<unsigned char, 8>& id);

struct Verified
{
    PublicKey key;              // the key that signed
    std::string trustedComment; // after "trusted comment: "
};

// Checks `signature` (the .minisig file's text) over `message` against `keys`. The
// signature's key id picks the key; an unknown id, a malformed file, a bad signature
// or a bad global signature is an error naming `origin`.
[[nodiscard]] Expected<Verified> verifySignature(const std::string& message,
                                                 const std::string& signature,
                                                 const std::vector<PublicKey>& keys,
                                                 const std::string& origin);

} // namespace sp::feed
