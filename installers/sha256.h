#pragma once
// Incremental SHA-256 over OpenSSL's EVP interface, fed as bytes arrive.

#include "core/expected.h"

#include <cstddef>
#include <filesystem>
#include <memory>
#include <string>

namespace sp {

class Sha256
{
public:
    Sha256();
    ~Sha256();
    Sha256(const Sha256&) = delete;
    Sha256& operator=(const Sha256&) = delete;

    void update(const void* data, std::size_t size);
    std::string hexDigest(); // finishes; lower-case hex, 64 characters
    void reset();

    static std::string ofBytes(const void* data, std::size_t size);
    static Expected<std::string> ofFile(const std::filesystem::path& file);

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

} // namespace sp
