# stackpilot_add_test(NAME name SOURCES ... [LIBS ...] [LABELS ...])
# One Qt Test executable per unit, registered with ctest. Tests run with
# QT_QPA_PLATFORM=offscreen and a private STACKPILOT_HOME so they never touch the
# developer's own config.

# Precompiled headers (tests/support/test_pch.h), built once per flavour and reused by
# every test: "core" (QtCore, QtTest) and "gui" (QtGui and QtWidgets too, which change
# what <QTest> declares). A test whose flags differ from its flavour's compiles the
# headers itself, which is slower, never wrong (GCC checks a header's validity).
# Qt defines the test's own folders for QFINDTESTDATA, which no test here uses; a macro
# that differs from the flavour's would void the header, so they are left undefined.
# -pthread (which defines _REENTRANT) comes with most tests' libraries; all get it.
set(STACKPILOT_TEST_PCH_FLAGS -UQT_TESTCASE_BUILDDIR -UQT_TESTCASE_SOURCEDIR -pthread)
function(stackpilot_test_pch FLAVOUR)
    set(pch stackpilot_pch_${FLAVOUR})
    if(TARGET ${pch} OR NOT STACKPILOT_TEST_PCH)
        return()
    endif()
    add_executable(${pch} EXCLUDE_FROM_ALL ${PROJECT_SOURCE_DIR}/tests/support/pch_main.cpp)
    target_link_libraries(${pch} PRIVATE StackPilot::settings Qt6::Test ${ARGN})
    target_include_directories(${pch} PRIVATE ${PROJECT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/tests)
    target_compile_options(${pch} PRIVATE ${STACKPILOT_TEST_PCH_FLAGS})
    target_precompile_headers(${pch} PRIVATE
        "$<$<COMPILE_LANGUAGE:CXX>:${PROJECT_SOURCE_DIR}/tests/support/test_pch.h>")
endfunction()

# moc for a test's own .cpp, which includes "<name>.moc" (no test header holds a Q_OBJECT
# class), run as one command: AUTOMOC's per-target scan and its empty mocs_compilation.cpp
# took a sixth of a cold CI build.
function(stackpilot_test_moc TARGET)
    foreach(src IN LISTS ARGN)
        if(NOT src MATCHES "\\.cpp$")
            continue()
        endif()
        cmake_path(ABSOLUTE_PATH src BASE_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR} OUTPUT_VARIABLE abs)
        cmake_path(GET abs STEM stem)
        file(STRINGS ${abs} wants REGEX "^#include \"${stem}\\.moc\"")
        if(wants)
            set(dir ${CMAKE_CURRENT_BINARY_DIR}/${TARGET}_moc)
            qt6_generate_moc(${abs} ${dir}/${stem}.moc TARGET ${TARGET})
            target_sources(${TARGET} PRIVATE ${dir}/${stem}.moc)
            target_include_directories(${TARGET} PRIVATE ${dir})
        endif()
    endforeach()
endfunction()

function(stackpilot_add_test)
    cmake_parse_arguments(T "" "NAME;TIMEOUT" "SOURCES;LIBS;LABELS" ${ARGN})
    add_executable(${T_NAME} ${T_SOURCES})
    stackpilot_test_moc(${T_NAME} ${T_SOURCES})
    target_link_libraries(${T_NAME} PRIVATE StackPilot::settings Qt6::Test ${T_LIBS})
    if(STACKPILOT_TEST_PCH)
        set(flavour core)
        if("StackPilot::gui" IN_LIST T_LIBS)
            set(flavour gui)
        endif()
        target_compile_options(${T_NAME} PRIVATE ${STACKPILOT_TEST_PCH_FLAGS})
        target_precompile_headers(${T_NAME} REUSE_FROM stackpilot_pch_${flavour})
    endif()
    target_include_directories(${T_NAME} PRIVATE ${PROJECT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/tests)
    target_compile_definitions(${T_NAME} PRIVATE
        STACKPILOT_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
        STACKPILOT_BINARY_DIR="${CMAKE_BINARY_DIR}"
        STACKPILOT_TEST_BINARY_DIR="${CMAKE_CURRENT_BINARY_DIR}")
    add_test(NAME ${T_NAME} COMMAND ${T_NAME})
    if(NOT T_TIMEOUT)
        set(T_TIMEOUT 120)
    endif()
    set_tests_properties(${T_NAME} PROPERTIES
        TIMEOUT ${T_TIMEOUT}
        LABELS "${T_LABELS}"
        ENVIRONMENT "QT_QPA_PLATFORM=offscreen;STACKPILOT_HOME=${CMAKE_CURRENT_BINARY_DIR}/${T_NAME}.home;STACKPILOT_DATA_DIR=${STACKPILOT_DATA_BUILD_DIR}")
endfunction()
