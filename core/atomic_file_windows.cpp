#include "core/atomic_file.h"
#include "core/paths.h"

#include <atomic>
#include <random>
#include <string>
#include <windows.h>

namespace sp {

namespace {

Error failure(const std::filesystem::path& file, std::string_view what, DWORD code)
{
    return Error::runtime(paths::toUtf8(file) + ": cannot write " + std::string(what) +
                          " (Windows error " + std::to_string(code) + ")");
}

std::wstring uniqueSuffix()
{
    static std::atomic<unsigned> counter{0};
    std::random_device rd;
    return L"." + std::to_wstring(::GetCurrentProcessId()) + L"." + std::to_wstring(counter++) +
           L"." + std::to_wstring(rd()) + L".tmp";
}

} // namespace

// Windows keeps a file's ACL when MoveFileEx replaces it with ReplaceFileW; the
// read-only attribute is the user's "do not touch".
Expected<void> replaceFileAtomically(const std::filesystem::path& file, std::string_view bytes,
                                     std::string_view what, unsigned)
{
    const DWORD attributes = ::GetFileAttributesW(file.c_str());
    const bool exists = attributes != INVALID_FILE_ATTRIBUTES;
    if (exists && (attributes & FILE_ATTRIBUTE_DIRECTORY))
        return Error::runtime(paths::toUtf8(file) + ": cannot write " + std::string(what) +
                              ": not a regular file");
    if (exists && (attributes & FILE_ATTRIBUTE_READONLY))
        return Error::runtime(paths::toUtf8(file) + " is read-only; StackPilot leaves it as it is");
    std::error_code ec;
    std::filesystem::create_directories(file.parent_path(), ec);
    const std::wstring tmp = file.wstring() + uniqueSuffix();
    HANDLE h = ::CreateFileW(tmp.c_str(), GENERIC_WRITE, 0, nullptr, CREATE_NEW,
                             FILE_ATTRIBUTE_NORMAL, nullptr);
    if (h == INVALID_HANDLE_VALUE)
        return failure(file, what, ::GetLastError());
    DWORD written = 0;
    bool ok = ::WriteFile(h, bytes.data(), DWORD(bytes.size()), &written, nullptr) &&
              written == bytes.size() && ::FlushFileBuffers(h);
    DWORD code = ok ? 0 : ::GetLastError();
    ::CloseHandle(h);
    if (ok && exists)
        ok = ::ReplaceFileW(file.c_str(), tmp.c_str(), nullptr, REPLACEFILE_IGNORE_MERGE_ERRORS,
                            nullptr, nullptr);
    else if (ok)
        ok = ::MoveFileExW(tmp.c_str(), file.c_str(), MOVEFILE_WRITE_THROUGH);
    if (ok)
        return {};
    if (!code)
        code = ::GetLastError();
    ::DeleteFileW(tmp.c_str());
    return failure(file, what, code);
}

} // namespace sp
