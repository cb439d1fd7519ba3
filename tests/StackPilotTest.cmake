# stackpilot_add_test(NAME name SOURCES ... [LIBS ...] [LABELS ...])
# One Qt Test executable per unit, registered with ctest. Tests run with
# QT_QPA_PLATFORM=offscreen and a private STACKPILOT_HOME so they never touch the
# developer's own config.
function(stackpilot_add_test)
    set(CMAKE_AUTOMOC ON)
    cmake_parse_arguments(T "" "NAME;TIMEOUT" "SOURCES;LIBS;LABELS" ${ARGN})
    add_executable(${T_NAME} ${T_SOURCES})
    target_link_libraries(${T_NAME} PRIVATE StackPilot::settings Qt6::Test ${T_LIBS})
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
