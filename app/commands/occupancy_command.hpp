// `threadmap occupancy`: how many blocks of a launch an SM holds, what limits it, and the waves
// the grid takes on a GPU (a device profile, --cc and --sms, or the real device), by CUDA's
// occupancy calculator. Exit status: 0, or 2 for bad usage, an invalid launch or a block
// that fits on no SM.
#pragma once

#include "app/launch/model_launch.hpp"

namespace threadmap {

struct OccupancyCommandOptions {
    LaunchOptions launch;
    std::string device_profile, cc, sms;
    std::string registers, shared_bytes;  // overrides of the kernel's own figures
    bool json = false;
    bool sweep = false;  // add the block-size sweep
};

int run_occupancy_command(const OccupancyCommandOptions& options);

}  // namespace threadmap
