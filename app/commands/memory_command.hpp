// `threadmap memory`: runs a launch in the kernel model and prints its memory view — per
// access site its warp requests, global sectors (against the ideal) or shared-memory
// wavefronts, and active lanes — and the kernel's totals, as Nsight Compute counts them.
#pragma once

#include "app/launch/model_launch.hpp"

namespace threadmap {

struct MemoryCommandOptions {
    LaunchOptions launch;
    bool json = false, csv = false;
};

int run_memory_command(const MemoryCommandOptions& options);

}  // namespace threadmap
