#include "installers/sha256.h"

#include "core/paths.h"

#include <array>
#include <fstream>
#include <openssl/evp.h>
#include <stdexcept>

namespace sp {

struct Sha256::Impl
{
    EVP_MD_CTX* ctx = EVP_MD_CTX_new();
    ~Impl() { EVP_MD_CTX_free(ctx); }
};

Sha256::Sha256() : d(std::make_unique<Impl>())
{
    if (!d->ctx)
        throw std::bad_alloc();
    reset();
}

Sha256::~Sha256() = default;

void Sha256::reset()
{
    EVP_DigestInit_ex(d->ctx, EVP_sha256(), nullptr);
}

void Sha256::update(const void* data, std::size_t size)
{
    EVP_DigestUpdate(d->ctx, data, size);
}

std::string Sha256::hexDigest()
{
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    EVP_DigestFinal_ex(d->ctx, md, &len);
    static const char* kHex = "0123456789abcdef";
    std::string out;
    out.reserve(len * 2);
    for (unsigned i = 0; i < len; ++i) {
        out.push_back(kHex[md[i] >> 4]);
        out.push_back(kHex[md[i] & 15]);
    }
    reset();
    return out;
}

std::string Sha256::ofBytes(const void* data, std::size_t size)
{
    Sha256 h;
    h.update(data, size);
    return h.hexDigest();
}

Expected<std::string> Sha256::ofFile(const std::filesystem::path& file)
{
    std::ifstream in(file, std::ios::binary);
    if (!in)
        return Error::runtime(paths::toUtf8(file) + ": cannot open for hashing");
    Sha256 h;
    std::array<char, 1 << 16> buf{};
    while (in) {
        in.read(buf.data(), buf.size());
        if (in.gcount() > 0)
            h.update(buf.data(), std::size_t(in.gcount()));
    }
    if (in.bad())
        return Error::runtime(paths::toUtf8(file) + ": read error while hashing");
    return h.hexDigest();
}

} // namespace sp
