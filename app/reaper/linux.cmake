# stackpilot-run on Linux (included from app/reaper/CMakeLists.txt).
add_executable(stackpilot-run main.cpp reaper_common.cpp reaper_linux.cpp
               ${PROJECT_SOURCE_DIR}/core/launch/tree_kill_linux.cpp)
target_include_directories(stackpilot-run PRIVATE ${PROJECT_SOURCE_DIR})
target_link_libraries(stackpilot-run PRIVATE StackPilot::settings)
set_target_properties(stackpilot-run PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bin)
install(TARGETS stackpilot-run RUNTIME DESTINATION bin)
