// The window's libarchive (lazy_lib.h), loaded by the first extraction or diagnostics
// export: with libxml2, nettle, ACL, bzip2 and LZ4 it is half a dozen shared libraries
// the first frame does not need. The functions of installers/ and the diagnostics
// bundle, as archive.h and archive_entry.h declare them.

#include "app/gui/lazy_lib.h"

#include <archive.h>
#include <archive_entry.h>
#include <cstdarg>
#include <cstdio>

namespace {

void* libarchive()
{
    static void* const handle = dlopen("libarchive.so.13", RTLD_NOW | RTLD_LOCAL);
    return handle;
}

} // namespace

#define SP_LAZY_ARCHIVE(ret, name, params, args, fail)                                             \
    SP_LAZY(libarchive, ret, name, params, args, fail)

extern "C" {

const char* archive_error_string(struct archive* a)
{
    static const auto f =
        sp::lazy::symbol<decltype(&::archive_error_string)>(libarchive(), "archive_error_string");
    return f ? f(a) : "libarchive.so.13 could not be loaded";
}

// printf-like: formatted here, passed on as one string.
void archive_set_error(struct archive* a, int error, const char* format, ...)
{
    static const auto f =
        sp::lazy::symbol<decltype(&::archive_set_error)>(libarchive(), "archive_set_error");
    if (!f)
        return;
    char text[1024];
    va_list ap;
    va_start(ap, format);
    std::vsnprintf(text, sizeof text, format, ap);
    va_end(ap);
    f(a, error, "%s", text);
}

SP_LAZY_ARCHIVE(__LA_MODE_T, archive_entry_filetype, (struct archive_entry * a0), (a0), 0)
SP_LAZY_ARCHIVE(void, archive_entry_free, (struct archive_entry * a0), (a0), void())
SP_LAZY_ARCHIVE(const char*, archive_entry_hardlink, (struct archive_entry * a0), (a0), nullptr)
SP_LAZY_ARCHIVE(const char*, archive_entry_hardlink_utf8, (struct archive_entry * a0), (a0),
                nullptr)
SP_LAZY_ARCHIVE(struct archive_entry*, archive_entry_new, (void), (), nullptr)
SP_LAZY_ARCHIVE(const char*, archive_entry_pathname, (struct archive_entry * a0), (a0), nullptr)
SP_LAZY_ARCHIVE(const char*, archive_entry_pathname_utf8, (struct archive_entry * a0), (a0),
                nullptr)
SP_LAZY_ARCHIVE(__LA_MODE_T, archive_entry_perm, (struct archive_entry * a0), (a0), 0)
SP_LAZY_ARCHIVE(void, archive_entry_set_filetype, (struct archive_entry * a0, unsigned int a1),
                (a0, a1), void())
SP_LAZY_ARCHIVE(void, archive_entry_set_pathname_utf8, (struct archive_entry * a0, const char* a1),
                (a0, a1), void())
SP_LAZY_ARCHIVE(void, archive_entry_set_perm, (struct archive_entry * a0, __LA_MODE_T a1), (a0, a1),
                void())
SP_LAZY_ARCHIVE(void, archive_entry_set_size, (struct archive_entry * a0, la_int64_t a1), (a0, a1),
                void())
SP_LAZY_ARCHIVE(la_int64_t, archive_entry_size, (struct archive_entry * a0), (a0), 0)
SP_LAZY_ARCHIVE(int, archive_entry_size_is_set, (struct archive_entry * a0), (a0), 0)
SP_LAZY_ARCHIVE(const char*, archive_entry_symlink, (struct archive_entry * a0), (a0), nullptr)
SP_LAZY_ARCHIVE(const char*, archive_entry_symlink_utf8, (struct archive_entry * a0), (a0), nullptr)
SP_LAZY_ARCHIVE(la_ssize_t, archive_read_data, (struct archive * a0, void* a1, size_t a2),
                (a0, a1, a2), ARCHIVE_FATAL)
SP_LAZY_ARCHIVE(int, archive_read_data_block,
                (struct archive * a0, const void** a1, size_t* a2, la_int64_t* a3),
                (a0, a1, a2, a3), ARCHIVE_FATAL)
SP_LAZY_ARCHIVE(int, archive_read_free, (struct archive * a0), (a0), ARCHIVE_FATAL)
SP_LAZY_ARCHIVE(struct archive*, archive_read_new, (void), (), nullptr)
SP_LAZY_ARCHIVE(int, archive_read_next_header, (struct archive * a0, struct archive_entry** a1),
                (a0, a1), ARCHIVE_FATAL)
SP_LAZY_ARCHIVE(int, archive_read_open,
                (struct archive * a0, void* a1, archive_open_callback* a2,
                 archive_read_callback* a3, archive_close_callback* a4),
                (a0, a1, a2, a3, a4), ARCHIVE_FATAL)
SP_LAZY_ARCHIVE(int, archive_read_open1, (struct archive * a0), (a0), ARCHIVE_FATAL)
SP_LAZY_ARCHIVE(int, archive_read_open_filename, (struct archive * a0, const char* a1, size_t a2),
                (a0, a1, a2), ARCHIVE_FATAL)
SP_LAZY_ARCHIVE(int, archive_read_set_callback_data, (struct archive * a0, void* a1), (a0, a1),
                ARCHIVE_FATAL)
SP_LAZY_ARCHIVE(int, archive_read_set_read_callback,
                (struct archive * a0, archive_read_callback* a1), (a0, a1), ARCHIVE_FATAL)
SP_LAZY_ARCHIVE(int, archive_read_set_seek_callback,
                (struct archive * a0, archive_seek_callback* a1), (a0, a1), ARCHIVE_FATAL)
SP_LAZY_ARCHIVE(int, archive_read_set_skip_callback,
                (struct archive * a0, archive_skip_callback* a1), (a0, a1), ARCHIVE_FATAL)
SP_LAZY_ARCHIVE(int, archive_read_support_filter_bzip2, (struct archive * a0), (a0), ARCHIVE_FATAL)
SP_LAZY_ARCHIVE(int, archive_read_support_filter_gzip, (struct archive * a0), (a0), ARCHIVE_FATAL)
SP_LAZY_ARCHIVE(int, archive_read_support_filter_xz, (struct archive * a0), (a0), ARCHIVE_FATAL)
SP_LAZY_ARCHIVE(int, archive_read_support_filter_zstd, (struct archive * a0), (a0), ARCHIVE_FATAL)
SP_LAZY_ARCHIVE(int, archive_read_support_format_7zip, (struct archive * a0), (a0), ARCHIVE_FATAL)
SP_LAZY_ARCHIVE(int, archive_read_support_format_ar, (struct archive * a0), (a0), ARCHIVE_FATAL)
SP_LAZY_ARCHIVE(int, archive_read_support_format_tar, (struct archive * a0), (a0), ARCHIVE_FATAL)
SP_LAZY_ARCHIVE(int, archive_read_support_format_zip, (struct archive * a0), (a0), ARCHIVE_FATAL)
SP_LAZY_ARCHIVE(int, archive_read_support_format_zip_seekable, (struct archive * a0), (a0),
                ARCHIVE_FATAL)
SP_LAZY_ARCHIVE(int, archive_write_close, (struct archive * a0), (a0), ARCHIVE_FATAL)
SP_LAZY_ARCHIVE(la_ssize_t, archive_write_data, (struct archive * a0, const void* a1, size_t a2),
                (a0, a1, a2), ARCHIVE_FATAL)
SP_LAZY_ARCHIVE(int, archive_write_free, (struct archive * a0), (a0), ARCHIVE_FATAL)
SP_LAZY_ARCHIVE(int, archive_write_header, (struct archive * a0, struct archive_entry* a1),
                (a0, a1), ARCHIVE_FATAL)
SP_LAZY_ARCHIVE(struct archive*, archive_write_new, (void), (), nullptr)
SP_LAZY_ARCHIVE(int, archive_write_open,
                (struct archive * a0, void* a1, archive_open_callback* a2,
                 archive_write_callback* a3, archive_close_callback* a4),
                (a0, a1, a2, a3, a4), ARCHIVE_FATAL)
SP_LAZY_ARCHIVE(int, archive_write_set_bytes_in_last_block, (struct archive * a0, int a1), (a0, a1),
                ARCHIVE_FATAL)
SP_LAZY_ARCHIVE(int, archive_write_set_bytes_per_block, (struct archive * a0, int a1), (a0, a1),
                ARCHIVE_FATAL)
SP_LAZY_ARCHIVE(int, archive_write_set_format_zip, (struct archive * a0), (a0), ARCHIVE_FATAL)
SP_LAZY_ARCHIVE(int, archive_write_set_options, (struct archive * a0, const char* a1), (a0, a1),
                ARCHIVE_FATAL)

} // extern "C"
