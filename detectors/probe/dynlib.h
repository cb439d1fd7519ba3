#pragma once
// Run-time loading of vendor libraries: dlopen on Linux, LoadLibraryExW on
// Windows. Vendor SDKs are never linked, so a missing driver removes one probe
// instead of stopping the program from starting.

#include <string>
#include <vector>

namespace probe {

class DynLib
{
public:
    DynLib() = default;
    DynLib(const DynLib&) = delete;
    DynLib& operator=(const DynLib&) = delete;
    ~DynLib();

    // Tries each candidate in order; remembers the first that loads.
    bool open(const std::vector<std::string>& candidates);
    bool isOpen() const { return m_handle != nullptr; }
    const std::string& path() const { return m_path; }
    // Why the last candidate failed to load (dlerror / GetLastError).
    const std::string& error() const { return m_error; }

    void* symbol(const char* name) const;
    template <class Fn> Fn get(const char* name) const
    {
        return reinterpret_cast<Fn>(symbol(name));
    }

private:
    void* m_handle = nullptr;
    std::string m_path;
    std::string m_error;
};

// Value of an environment variable, empty when unset.
std::string envValue(const char* name);
void unsetEnv(const char* name);

#ifdef _WIN32
std::string systemDirectory();                                  // C:\Windows\System32
std::vector<std::string> listDirectory(const std::string& dir); // file names only
#endif

} // namespace probe
