#include "archive_builder.h"

#include <archive.h>
#include <archive_entry.h>
#include <random>
#include <stdexcept>

namespace sp::test {

namespace {

la_ssize_t appendCb(archive*, void* out, const void* buf, size_t n)
{
    static_cast<std::string*>(out)->append(static_cast<const char*>(buf), n);
    return static_cast<la_ssize_t>(n);
}

void check(archive* a, int rc)
{
    if (rc < ARCHIVE_WARN)
        throw std::runtime_error(archive_error_string(a) ? archive_error_string(a) : "archive");
}

} // namespace

std::string buildArchive(const std::vector<TestEntry>& entries, const std::string& format)
{
    std::string out;
    archive* a = archive_write_new();
    if (format == "zip") {
        check(a, archive_write_set_format_zip(a));
    } else if (format == "7z") {
        check(a, archive_write_set_format_7zip(a));
    } else {
        check(a, archive_write_set_format_pax_restricted(a));
        if (format == "tar.gz")
            check(a, archive_write_add_filter_gzip(a));
        else if (format == "tar.xz")
            check(a, archive_write_add_filter_xz(a));
        else if (format == "tar.zst")
            check(a, archive_write_add_filter_zstd(a));
    }
    archive_write_set_bytes_in_last_block(a, 1);
    check(a, archive_write_open(a, &out, nullptr, appendCb, nullptr));
    for (const auto& e : entries) {
        archive_entry* en = archive_entry_new();
        archive_entry_set_pathname_utf8(en, e.path.c_str());
        archive_entry_set_perm(en, e.mode);
        archive_entry_set_mtime(en, 1700000000, 0);
        switch (e.type) {
        case TestEntry::Type::File:
            archive_entry_set_filetype(en, AE_IFREG);
            archive_entry_set_size(en, static_cast<la_int64_t>(e.data.size() + e.zeroBytes));
            break;
        case TestEntry::Type::Dir:
            archive_entry_set_filetype(en, AE_IFDIR);
            break;
        case TestEntry::Type::Symlink:
            archive_entry_set_filetype(en, AE_IFLNK);
            archive_entry_set_symlink_utf8(en, e.target.c_str());
            break;
        case TestEntry::Type::Hardlink:
            archive_entry_set_filetype(en, AE_IFREG);
            archive_entry_set_hardlink_utf8(en, e.target.c_str());
            archive_entry_set_size(en, 0);
            break;
        case TestEntry::Type::Fifo:
            archive_entry_set_filetype(en, AE_IFIFO);
            break;
        case TestEntry::Type::CharDevice:
            archive_entry_set_filetype(en, AE_IFCHR);
            archive_entry_set_rdev(en, 0x0103); // like /dev/null
            break;
        }
        check(a, archive_write_header(a, en));
        if (e.type == TestEntry::Type::File) {
            if (!e.data.empty())
                archive_write_data(a, e.data.data(), e.data.size());
            const std::string zeros(1 << 16, '\0');
            for (std::size_t left = e.zeroBytes; left > 0;) {
                const auto n = std::min(left, zeros.size());
                archive_write_data(a, zeros.data(), n);
                left -= n;
            }
        }
        archive_entry_free(en);
    }
    check(a, archive_write_close(a));
    archive_write_free(a);
    return out;
}

std::string buildDeb(const std::vector<TestEntry>& entries, const std::string& dataFormat)
{
    const std::string control = buildArchive(
        {TestEntry::file("./control", "Package: test\nVersion: 1.0\nArchitecture: all\n")},
        "tar.gz");
    const std::string data = buildArchive(entries, dataFormat);
    std::string out;
    archive* a = archive_write_new();
    check(a, archive_write_set_format_ar_svr4(a));
    check(a, archive_write_open(a, &out, nullptr, appendCb, nullptr));
    const std::pair<std::string, const std::string*> members[] = {
        {"debian-binary", nullptr}, {"control.tar.gz", &control}, {"data." + dataFormat, &data}};
    const std::string version = "2.0\n";
    for (const auto& [name, bytes] : members) {
        const std::string& b = bytes ? *bytes : version;
        archive_entry* en = archive_entry_new();
        archive_entry_set_pathname(en, name.c_str());
        archive_entry_set_filetype(en, AE_IFREG);
        archive_entry_set_perm(en, 0644);
        archive_entry_set_size(en, static_cast<la_int64_t>(b.size()));
        check(a, archive_write_header(a, en));
        archive_write_data(a, b.data(), b.size());
        archive_entry_free(en);
    }
    check(a, archive_write_close(a));
    archive_write_free(a);
    return out;
}

std::string mixedBytes(std::size_t n, unsigned seed)
{
    static const char* words[] = {"tensor ", "kernel ", "gfx1031 ", "rocblas ", "library ",
                                  "0x7f3a ", "\n",      "hip ",     "layer ",   "weights "};
    std::mt19937 rng(seed);
    std::string s;
    s.reserve(n);
    while (s.size() < n) {
        if (rng() % 4 == 0) {
            // incompressible run
            const std::size_t len = 256 + rng() % 2048;
            for (std::size_t i = 0; i < len && s.size() < n; ++i)
                s.push_back(static_cast<char>(rng() & 0xff));
        } else {
            const std::size_t len = 64 + rng() % 512;
            for (std::size_t i = 0; i < len && s.size() < n;) {
                const char* w = words[rng() % 10];
                for (; *w && s.size() < n; ++w, ++i)
                    s.push_back(*w);
            }
        }
    }
    return s;
}

} // namespace sp::test
