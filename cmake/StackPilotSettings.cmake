# One INTERFACE target that every StackPilot target links: language standard,
# warnings and Qt's strictness defines live here and nowhere else.
add_library(stackpilot_settings INTERFACE)
add_library(StackPilot::settings ALIAS stackpilot_settings)

target_compile_features(stackpilot_settings INTERFACE cxx_std_20)
set(CMAKE_CXX_EXTENSIONS OFF)

if(MSVC)
    target_compile_options(stackpilot_settings INTERFACE /W4 /permissive- /utf-8 /Zc:__cplusplus)
    if(STACKPILOT_WERROR)
        target_compile_options(stackpilot_settings INTERFACE /WX)
    endif()
else()
    target_compile_options(stackpilot_settings INTERFACE
        -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wcast-align
        -Woverloaded-virtual -Wformat=2 -Wimplicit-fallthrough)
    if(STACKPILOT_WERROR)
        target_compile_options(stackpilot_settings INTERFACE -Werror)
    endif()
endif()

target_compile_definitions(stackpilot_settings INTERFACE
    QT_NO_CAST_FROM_ASCII
    QT_NO_CAST_TO_ASCII
    QT_NO_CAST_FROM_BYTEARRAY
    QT_NO_URL_CAST_FROM_STRING
    QT_NO_NARROWING_CONVERSIONS_IN_CONNECT
    QT_NO_FOREACH
    QT_USE_QSTRINGBUILDER
    QT_NO_CONTEXTLESS_CONNECT
    QT_DISABLE_DEPRECATED_UP_TO=0x060400)
# The version lives in one generated header (stackpilot_version.h), not in a define
# on every target, so that a version bump does not rebuild everything.
configure_file(${CMAKE_CURRENT_LIST_DIR}/stackpilot_version.h.in
               ${CMAKE_BINARY_DIR}/generated/stackpilot_version.h @ONLY)
target_include_directories(stackpilot_settings INTERFACE ${CMAKE_BINARY_DIR}/generated)
if(WIN32)
    target_compile_definitions(stackpilot_settings INTERFACE UNICODE _UNICODE NOMINMAX WIN32_LEAN_AND_MEAN)
endif()

find_program(STACKPILOT_CCACHE ccache)
if(STACKPILOT_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
    # The tests' precompiled headers (tests/StackPilotTest.cmake) are cached only with this
    # sloppiness (ccache's manual, "Precompiled headers"); ccache 4.7 reads it from the
    # environment.
    set(CMAKE_CXX_COMPILER_LAUNCHER
        ${CMAKE_COMMAND} -E env CCACHE_SLOPPINESS=pch_defines,time_macros ${STACKPILOT_CCACHE})
    set(CMAKE_C_COMPILER_LAUNCHER ${STACKPILOT_CCACHE})
endif()

# Unity builds: each target's sources are compiled in batches, so Qt's and
# nlohmann_json's headers are parsed once a batch instead of once a file (a cold build
# on 2 cores takes a fraction of the time). Sources keep names unique across a
# target (no two files define the same helper in an anonymous namespace), which is
# what lets them share a batch. STACKPILOT_UNITY=OFF builds file by file.
option(STACKPILOT_UNITY "Compile each target's sources in batches (unity build)" ON)
if(STACKPILOT_UNITY)
    set(CMAKE_UNITY_BUILD ON)
    set(CMAKE_UNITY_BUILD_BATCH_SIZE 16)
endif()
