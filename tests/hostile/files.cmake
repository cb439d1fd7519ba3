# Files: mirror export, locks and temporary folders, settings (the lead's area).
stackpilot_add_test(NAME hostile_mirror_export SOURCES files_mirror_export.cpp
                    LIBS stackpilot_cli_lib LABELS unit hostile)
stackpilot_add_test(NAME hostile_locks SOURCES files_locks.cpp
                    LIBS StackPilot::installers stackpilot_test_http LABELS unit hostile)
add_dependencies(hostile_locks stackpilot-cli)
stackpilot_add_test(NAME hostile_settings SOURCES files_settings.cpp LIBS StackPilot::gui
                    LABELS unit hostile)
