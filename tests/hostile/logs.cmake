# Logs: a private key and a short secret in the launch log and the bundle, Ctrl-C with
# stderr into a blocked pipe, what the log and the terminal say, and a signature the
# prefilter skipped (issue 35 items 2, 8, 15, 16; the logs helper's area).
stackpilot_add_test(NAME hostile_logs_launch SOURCES logs_launch.cpp logs_support.h TIMEOUT 300
                    LIBS StackPilot::core LibArchive::LibArchive LABELS integration hostile)
target_include_directories(hostile_logs_launch PRIVATE ${PROJECT_SOURCE_DIR}/tests/launch)
target_compile_definitions(hostile_logs_launch PRIVATE
    STANDIN_WORKLOAD="$<TARGET_FILE:standin_workload>")
add_dependencies(hostile_logs_launch standin_workload stackpilot-run stackpilot-cli stackpilot_data)
stackpilot_add_test(NAME hostile_logs_signatures SOURCES logs_signatures.cpp
                    LIBS stackpilot_cli_lib LABELS unit hostile)
add_dependencies(hostile_logs_signatures stackpilot_data)
