// The window's libcrypto (lazy_lib.h), loaded by the first checksum or signature check
// (installers/sha256.cpp, the catalog feed's signature): OpenSSL's 21,000 relocations
// cost the first frame more than any other library of the window's.

#include "app/gui/lazy_lib.h"

#include <openssl/evp.h>
#include <openssl/rand.h>

namespace {

void* libcrypto()
{
    static void* const handle = dlopen("libcrypto.so.3", RTLD_NOW | RTLD_LOCAL);
    return handle;
}

} // namespace

#define SP_LAZY_CRYPTO(ret, name, params, args, fail)                                              \
    SP_LAZY(libcrypto, ret, name, params, args, fail)

extern "C" {

SP_LAZY_CRYPTO(int, EVP_Digest,
               (const void* data, size_t count, unsigned char* md, unsigned int* size,
                const EVP_MD* type, ENGINE* impl),
               (data, count, md, size, type, impl), 0)
SP_LAZY_CRYPTO(int, EVP_DigestFinal_ex, (EVP_MD_CTX * ctx, unsigned char* md, unsigned int* s),
               (ctx, md, s), 0)
SP_LAZY_CRYPTO(int, EVP_DigestInit_ex, (EVP_MD_CTX * ctx, const EVP_MD* type, ENGINE* impl),
               (ctx, type, impl), 0)
SP_LAZY_CRYPTO(int, EVP_DigestUpdate, (EVP_MD_CTX * ctx, const void* d, size_t cnt), (ctx, d, cnt),
               0)
SP_LAZY_CRYPTO(int, EVP_DigestVerify,
               (EVP_MD_CTX * ctx, const unsigned char* sigret, size_t siglen,
                const unsigned char* tbs, size_t tbslen),
               (ctx, sigret, siglen, tbs, tbslen), 0)
SP_LAZY_CRYPTO(int, EVP_DigestVerifyInit,
               (EVP_MD_CTX * ctx, EVP_PKEY_CTX** pctx, const EVP_MD* type, ENGINE* e,
                EVP_PKEY* pkey),
               (ctx, pctx, type, e, pkey), 0)
SP_LAZY_CRYPTO(void, EVP_MD_CTX_free, (EVP_MD_CTX * ctx), (ctx), void())
SP_LAZY_CRYPTO(EVP_MD_CTX*, EVP_MD_CTX_new, (void), (), nullptr)
SP_LAZY_CRYPTO(void, EVP_PKEY_free, (EVP_PKEY * pkey), (pkey), void())
SP_LAZY_CRYPTO(EVP_PKEY*, EVP_PKEY_new_raw_public_key,
               (int type, ENGINE* e, const unsigned char* pub, size_t len), (type, e, pub, len),
               nullptr)
SP_LAZY_CRYPTO(const EVP_MD*, EVP_blake2b512, (void), (), nullptr)
SP_LAZY_CRYPTO(const EVP_MD*, EVP_sha256, (void), (), nullptr)
// The ledger's install and record ids (app/common/ledger/share.cpp).
SP_LAZY_CRYPTO(int, RAND_bytes, (unsigned char* buf, int num), (buf, num), 0)

} // extern "C"
