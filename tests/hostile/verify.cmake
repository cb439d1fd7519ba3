# Smoke tests and evidence (issue 35, items 3, 4, 5, 7): each finding as the attack,
# through the real stackpilot-cli where the issue names a command.
stackpilot_add_test(NAME hostile_verify_smoke SOURCES verify_smoke.cpp TIMEOUT 300
                    LIBS StackPilot::installers stackpilot_test_http stackpilot_test_archives
                    LABELS unit hostile)
add_dependencies(hostile_verify_smoke stackpilot-cli stackpilot-run stackpilot_data)
stackpilot_add_test(NAME hostile_verify_evidence SOURCES verify_evidence.cpp TIMEOUT 300
                    LIBS StackPilot::installers stackpilot_test_http stackpilot_test_archives
                    LABELS unit hostile)
add_dependencies(hostile_verify_evidence stackpilot-cli stackpilot-run stackpilot_data)
if(STACKPILOT_TESTS_O0)
    # It builds and writes tens of megabytes of JSON in its own code: at -O0 it takes six
    # times as long (221 s instead of 36 s), more than the whole build saves.
    # The shared precompiled headers are made at -O0, so it parses its own.
    target_compile_options(hostile_verify_evidence PRIVATE -O1)
    set_target_properties(hostile_verify_evidence PROPERTIES DISABLE_PRECOMPILE_HEADERS ON)
endif()
