#pragma once
// What lazy_*.cpp share: the window's heavy libraries (libcurl, libgit2, libarchive,
// libcrypto) are loaded on their first use instead of at start-up. Each of those files
// defines, in the executable, exactly the functions StackPilot calls from that library,
// each forwarding to the real one once the library is dlopened; the linker then takes
// nothing from the library and --as-needed leaves it out of the executable's needed
// libraries. The CLI and the tests link the libraries as usual. docs/ARCHITECTURE.md,
// "Start-up", has the figures.

#include <dlfcn.h>

namespace sp::lazy {

// `lib`'s function `name` as `F`, or null when the library could not be loaded.
template <class F> F symbol(void* lib, const char* name)
{
    return lib ? reinterpret_cast<F>(dlsym(lib, name)) : nullptr;
}

} // namespace sp::lazy

// Defines `name` (declared by the library's header) to call the real one from the
// library `lib()` returns; `fail` is returned when it could not be loaded.
#define SP_LAZY(lib, ret, name, params, args, fail)                                                \
    ret name params                                                                                \
    {                                                                                              \
        static const auto f = sp::lazy::symbol<decltype(&::name)>(lib(), #name);                   \
        return f ? f args : fail;                                                                  \
    }
