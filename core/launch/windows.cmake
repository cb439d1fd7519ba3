# The Windows halves of core/launch. core/CMakeLists.txt includes this under WIN32,
# after add_library(stackpilot_core ...):
#     if(WIN32)
#         include(launch/windows.cmake)
#     endif()
if(NOT TARGET stackpilot_core)
    message(FATAL_ERROR "core/launch/windows.cmake: include it after add_library(stackpilot_core)")
endif()
target_sources(stackpilot_core PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/port_check_windows.cpp
    ${CMAKE_CURRENT_LIST_DIR}/text_decoder_windows.cpp
)
# Winsock for the trial bind; IP Helper for GetExtendedTcpTable.
target_link_libraries(stackpilot_core PRIVATE ws2_32 iphlpapi)
