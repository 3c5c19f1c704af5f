// The CPU emulator: runs the kernel bodies for every (block, thread) of a launch on host
// threads and records which thread wrote each element of the output.
#pragma once

#include <atomic>

#include "kernels/core/launch_result.hpp"

namespace threadmap {

// Pre: check_shape, validate_launch and the emulator caps accepted (w, launch).
// workers = 0 uses every core.
LaunchResult emulate(const Workload& workload, const LaunchConfig& launch, unsigned workers = 0);

// The same, reusing `into`'s buffers where the sizes match: a window that re-runs one shape
// with another launch skips allocating (and faulting in) hundreds of megabytes. With
// `cancel`, a run stops within a block of it being set and returns false (`into` then holds
// a partial result, to be thrown away).
bool emulate_into(const Workload& workload, const LaunchConfig& launch, LaunchResult& into, unsigned workers = 0,
                  const std::atomic<bool>* cancel = nullptr);

}  // namespace threadmap
