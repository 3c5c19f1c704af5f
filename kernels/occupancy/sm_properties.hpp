// What an SM of each compute capability holds, as cudaGetDeviceProperties reports it: the
// inputs of CUDA's occupancy calculator (cuda_occupancy.h's cudaOccDeviceProp). One row per
// compute capability the build targets (cmake/CudaSupport.cmake); a real device's own
// properties replace the row where one is present.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace threadmap {

struct SmProperties {
    int major = 0, minor = 0;
    int max_threads_per_sm = 0;              // maxThreadsPerMultiProcessor
    uint64_t shared_per_sm = 0;              // sharedMemPerMultiprocessor
    uint64_t shared_per_block_optin = 0;     // sharedMemPerBlockOptin
    uint64_t reserved_shared_per_block = 0;  // reservedSharedMemPerBlock (the driver's 1 KB from 8.0)
    int max_threads_per_block = 1024;        // maxThreadsPerBlock
    int regs_per_block = 65536;              // regsPerBlock
    int regs_per_sm = 65536;                 // regsPerMultiprocessor
    int warp_size = 32;
    uint64_t shared_per_block = 48 * 1024;  // sharedMemPerBlock (without opt-in)
    const char* source = "";                // where the row's numbers are stated

    std::string name() const { return std::to_string(major) + "." + std::to_string(minor); }
    int sm() const { return major * 10 + minor; }  // 90 for 9.0, as nvcc's sm_90
};

const std::vector<SmProperties>& sm_property_table();
const SmProperties* find_sm_properties(int major, int minor);  // nullptr: not a build target
std::string sm_property_names();                               // "7.5, 8.0, …"
// "9.0" → the table's row; nullptr for text that is not MAJOR.MINOR or not in the table.
const SmProperties* find_sm_properties(const std::string& major_dot_minor);

}  // namespace threadmap
