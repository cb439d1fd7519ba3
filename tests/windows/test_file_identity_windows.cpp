// Under wine: a file's identity (volume serial, file index) is the same by two paths of
// one file (a hard link), differs for another file, and follows the file's size; what the
// model import's hash cache keys on (installers/file_identity.h).

#include "installers/file_identity.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <windows.h>

namespace fs = std::filesystem;

static int fail(const char* what)
{
    std::printf("test_file_identity: FAILED: %s\n", what);
    return 1;
}

int main()
{
    const fs::path dir = fs::temp_directory_path() / "sp-identity";
    fs::remove_all(dir);
    fs::create_directories(dir);
    std::ofstream(dir / "a.gguf", std::ios::binary) << "model bytes";
    std::ofstream(dir / "b.gguf", std::ios::binary) << "other";
    if (!CreateHardLinkW((dir / "link.gguf").c_str(), (dir / "a.gguf").c_str(), nullptr))
        return fail("CreateHardLinkW");
    const auto a = sp::fileIdentity(dir / "a.gguf");
    const auto link = sp::fileIdentity(dir / "link.gguf");
    const auto b = sp::fileIdentity(dir / "b.gguf");
    if (!a || !link || !b)
        return fail("no identity");
    if (a->key() != link->key())
        return fail("a hard link is another file");
    if (a->inode == b->inode)
        return fail("two files share an index");
    if (a->size != 11)
        return fail("size");
    if (sp::fileIdentity(dir / "missing"))
        return fail("a missing file has an identity");
    fs::remove_all(dir);
    std::printf("test_file_identity: ok\n");
    return 0;
}
