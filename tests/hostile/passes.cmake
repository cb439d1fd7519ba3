# The findings of the first two hostile passes (issue 8: data safety and hostile inputs;
# issue 20: containment, environment, bundle secrets, terminal), one named test function
# per finding, each the attack through the real stackpilot-cli. docs/HOSTILE.md lists them.
stackpilot_add_test(NAME pass1_inputs SOURCES pass1_inputs.cpp LIBS stackpilot_cli_lib LABELS unit)
add_dependencies(pass1_inputs stackpilot-cli stackpilot_data)
stackpilot_add_test(NAME pass2_containment SOURCES pass2_containment.cpp TIMEOUT 120 LABELS integration)
add_dependencies(pass2_containment stackpilot-cli stackpilot-run stackpilot_data)
stackpilot_add_test(NAME pass1_ownership SOURCES pass1_ownership.cpp TIMEOUT 120
    LIBS StackPilot::installers stackpilot_test_archives stackpilot_test_http LABELS unit)
target_include_directories(pass1_ownership PRIVATE ${PROJECT_SOURCE_DIR}/tests/installers
    ${PROJECT_SOURCE_DIR}/tests/support)
add_dependencies(pass1_ownership stackpilot-cli stackpilot_data)
stackpilot_add_test(NAME pass2_environment SOURCES pass2_environment.cpp TIMEOUT 120 LABELS integration)
add_dependencies(pass2_environment stackpilot-cli stackpilot-run stackpilot_data)
stackpilot_add_test(NAME pass2_terminal SOURCES pass2_terminal.cpp TIMEOUT 120 LABELS integration)
add_dependencies(pass2_terminal stackpilot-cli stackpilot-run stackpilot_data)
stackpilot_add_test(NAME pass2_bundle SOURCES pass2_bundle.cpp TIMEOUT 120
    LIBS stackpilot_test_archives LibArchive::LibArchive LABELS integration)
add_dependencies(pass2_bundle stackpilot-cli stackpilot-run stackpilot_data)
