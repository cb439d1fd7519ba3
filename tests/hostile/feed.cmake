# The feed's hostile findings (issue 35 items 6, 9, 10, 11, 12, 13 and the feed parts of
# 15), each one named test function that runs the attack through the real stackpilot-cli.
stackpilot_add_test(NAME hostile_feed_counters SOURCES feed_counters.cpp
                    LIBS StackPilot::core LABELS unit)
add_dependencies(hostile_feed_counters stackpilot-cli stackpilot_data)
stackpilot_add_test(NAME hostile_feed_transport SOURCES feed_transport.cpp
                    LIBS StackPilot::core stackpilot_test_http LABELS unit)
add_dependencies(hostile_feed_transport stackpilot-cli stackpilot_data)
