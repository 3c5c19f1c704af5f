// DeviceLimits: the launch limits a device enforces, and the named profile used when no
// real device is present. A real device's cudaGetDeviceProperties replaces the profile.
#pragma once

#include <string>

#include "kernels/core/dim3.hpp"

namespace threadmap {

struct DeviceLimits {
    std::string name;                          // where the numbers come from, shown to the user
    uint32_t max_threads_per_block = 1024;     // deviceQuery: "Maximum number of threads per block"
    Dim3 max_block{1024, 1024, 64};            // "Max dimension size of a thread block (x,y,z)"
    Dim3 max_grid{2147483647u, 65535, 65535};  // "Max dimension size of a grid size (x,y,z)"
    uint32_t warp_size = 32;                   // "Warp size"
};

// Compute capability 9.0 (H100/H200); the same launch limits hold for every cc from 5.0 to 12.x
// (CUDA C++ Programming Guide, "Technical Specifications per Compute Capability").
DeviceLimits cc90_profile();

}  // namespace threadmap
