#pragma once
// Byte offsets inside HIP's hipDeviceProp_t. The probe passes a zeroed 4 KiB
// buffer and reads fields at these offsets, so one probe binary works with every
// HIP runtime without its headers. Two layouts exist: R0600 (HIP 6+, modelled
// on CUDA 12's cudaDeviceProp) and R0000 (HIP 5 and older, also what plain
// hipGetDeviceProperties fills there). tests/probe/test_hip_layout.cpp checks
// these against the HIP headers where they are installed.

#include <cstddef>

namespace probe::hip_layout {

constexpr std::size_t kBufferSize = 4096;
constexpr std::size_t kNameSize = 256;
constexpr std::size_t kGcnArchNameSize = 256;

namespace r0600 {
constexpr std::size_t name = 0;
constexpr std::size_t totalGlobalMem = 288; // after uuid[16], luid[8], luidDeviceNodeMask
constexpr std::size_t multiProcessorCount = 388;
constexpr std::size_t integrated = 396;
constexpr std::size_t pciBusID = 584;
constexpr std::size_t pciDeviceID = 588;
constexpr std::size_t pciDomainID = 592;
constexpr std::size_t gcnArchName = 1160;
} // namespace r0600

namespace r0000 {
constexpr std::size_t name = 0;
constexpr std::size_t totalGlobalMem = 256;
constexpr std::size_t multiProcessorCount = 336;
constexpr std::size_t pciDomainID = 364;
constexpr std::size_t pciBusID = 368;
constexpr std::size_t pciDeviceID = 372;
constexpr std::size_t gcnArchName = 396;
constexpr std::size_t integrated = 652;
} // namespace r0000

} // namespace probe::hip_layout
