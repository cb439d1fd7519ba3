#include "core/catalog/feed/minisign.h"

#include <QByteArray>
#include <algorithm>
#include <cstring>
#include <memory>
#include <openssl/evp.h>
#include <sstream>

namespace sp::feed {

namespace {

std::vector<std::string> lines(const std::string& text)
{
    std::vector<std::string> out;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        out.push_back(line);
    }
    while (!out.empty() && out.back().empty())
        out.pop_back();
    return out;
}

std::string fromBase64(const std::string& text)
{
    auto r = QByteArray::fromBase64Encoding(QByteArray::fromStdString(text),
                                            QByteArray::AbortOnBase64DecodingErrors);
    if (!r)
        return {};
    return r.decoded.toStdString();
}

using PKey = std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)>;
using MdCtx = std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)>;

bool ed25519Verify(const PublicKey& key, const std::string& message, const unsigned char* sig)
{
    PKey pkey(
        EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nullptr, key.key.data(), key.key.size()),
        &EVP_PKEY_free);
    MdCtx ctx(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
    if (!pkey || !ctx ||
        EVP_DigestVerifyInit(ctx.get(), nullptr, nullptr, nullptr, pkey.get()) != 1)
        return false;
    return EVP_DigestVerify(ctx.get(), sig, 64,
                            reinterpret_cast<const unsigned char*>(message.data()),
                            message.size()) == 1;
}

std::string blake2b512(const std::string& message)
{
    unsigned char out[EVP_MAX_MD_SIZE];
    unsigned int n = 0;
    if (EVP_Digest(message.data(), message.size(), out, &n, EVP_blake2b512(), nullptr) != 1)
        return {};
    return std::string(reinterpret_cast<const char*>(out), n);
}

struct SignatureFile
{
    bool prehashed = false;
    std::array<unsigned char, 8> keyId{};
    std::array<unsigned char, 64> sig{};
    std::string trustedComment;
    std::array<unsigned char, 64> globalSig{};
};

Expected<SignatureFile> parseSignatureFile(const std::string& text, const std::string& origin)
{
    const auto bad = [&origin](int line, const std::string& why) {
        return Error::invalid(origin + ":" + std::to_string(line) + ": " + why);
    };
    if (text.size() > kMaxSignatureBytes)
        return Error::invalid(origin + ": larger than 4096 bytes, not a minisign signature");
    const auto l = lines(text);
    if (l.size() != 4)
        return bad(1, "not a minisign signature (expected 4 lines)");
    if (l[0].rfind("untrusted comment: ", 0) != 0)
        return bad(1, "expected \"untrusted comment: \"");
    const std::string sig = fromBase64(l[1]);
    if (sig.size() != 74 || (sig.compare(0, 2, "Ed") != 0 && sig.compare(0, 2, "ED") != 0))
        return bad(2, "not a minisign Ed25519 signature");
    const std::string prefix = "trusted comment: ";
    if (l[2].rfind(prefix, 0) != 0)
        return bad(3, "expected \"trusted comment: \"");
    const std::string global = fromBase64(l[3]);
    if (global.size() != 64)
        return bad(4, "not a global signature");
    SignatureFile f;
    f.prehashed = sig[1] == 'D';
    std::memcpy(f.keyId.data(), sig.data() + 2, 8);
    std::memcpy(f.sig.data(), sig.data() + 10, 64);
    f.trustedComment = l[2].substr(prefix.size());
    std::memcpy(f.globalSig.data(), global.data(), 64);
    return f;
}

} // namespace

std::string keyIdHex(const std::array<unsigned char, 8>& id)
{
    // minisign prints the 8 bytes as a little-endian 64-bit number.
    static const char* digits = "0123456789ABCDEF";
    std::string out;
    for (int i = 7; i >= 0; --i) {
        out += digits[id[static_cast<std::size_t>(i)] >> 4];
        out += digits[id[static_cast<std::size_t>(i)] & 15];
    }
    return out;
}

Expected<PublicKey> parsePublicKey(const std::string& text)
{
    const auto l = lines(text.size() > kMaxSignatureBytes ? std::string{} : text);
    const std::string line = l.empty() ? std::string{} : l.back();
    const std::string raw = fromBase64(line);
    if (raw.size() != 42 || raw.compare(0, 2, "Ed") != 0)
        return Error::invalid("not a minisign public key (the \"RW…\" base64 line): \"" +
                              line.substr(0, 60) + "\"");
    PublicKey k;
    std::memcpy(k.keyId.data(), raw.data() + 2, 8);
    std::memcpy(k.key.data(), raw.data() + 10, 32);
    k.text = line;
    return k;
}

Expected<Verified> verifySignature(const std::string& message, const std::string& signature,
                                   const std::vector<PublicKey>& keys, const std::string& origin)
{
    auto sig = parseSignatureFile(signature, origin);
    if (!sig)
        return sig.error();
    const auto key = std::find_if(keys.begin(), keys.end(),
                                  [&](const PublicKey& k) { return k.keyId == sig->keyId; });
    if (key == keys.end())
        return Error::invalid(origin + ": signed by an unknown key " + keyIdHex(sig->keyId));
    const std::string signedBytes = sig->prehashed ? blake2b512(message) : message;
    if (signedBytes.empty() && sig->prehashed)
        return Error::runtime(origin + ": BLAKE2b-512 is not available in this OpenSSL");
    if (!ed25519Verify(*key, signedBytes, sig->sig.data()))
        return Error::invalid(origin + ": signature does not match the manifest (key " +
                              keyIdHex(key->keyId) + ")");
    std::string global(reinterpret_cast<const char*>(sig->sig.data()), sig->sig.size());
    global += sig->trustedComment;
    if (!ed25519Verify(*key, global, sig->globalSig.data()))
        return Error::invalid(origin + ": the trusted comment's signature does not match");
    return Verified{*key, sig->trustedComment};
}

} // namespace sp::feed
