// LaunchConfig: the <<<gridDim, blockDim>>> pair of one kernel launch.
#pragma once

#include <string>

#include "kernels/core/dim3.hpp"

namespace threadmap {

struct LaunchConfig {
    Dim3 grid;   // gridDim: how many blocks, per axis.
    Dim3 block;  // blockDim: how many threads in each block, per axis.

    uint64_t threads_per_block() const { return block.volume(); }
    uint64_t blocks() const { return grid.volume(); }
    bool operator==(const LaunchConfig& launch) const { return grid == launch.grid && block == launch.block; }
};

// "(32,33,1)": the form CUDA's own tools print dim3 in.
std::string to_string(const Dim3& d);

}  // namespace threadmap
