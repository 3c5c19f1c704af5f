// The CPU emulator: runs the kernel bodies for every (block, thread) of a launch on host
// threads and records which thread wrote each element of the output.
#pragma once

#include <atomic>

#include "kernels/core/launch_result.hpp"

namespace threadmap {

// What a run leaves in LaunchResult::data. Skipped: the writers level, the map and its counts
// only (loads read zeros, stores keep who wrote): what every picture and report needs, and a
// matmul's map without its arithmetic (a 4096² one: 21-42 ms against 157-300 with values,
// emulator-bench). Computed: the kernel's inputs and real output too, which the tests compare
// with a reference and a GPU. A fast body's control flow does not depend on the values it
// loads (kernel_bodies.hpp), so both give one map.
enum class OutputValues { Skipped, Computed };

// Pre: check_shape, validate_launch and the emulator caps accepted (w, launch).
// workers = 0 uses every core.
LaunchResult emulate(const Workload& workload, const LaunchConfig& launch, unsigned workers = 0,
                     OutputValues values = OutputValues::Skipped);

// The same, reusing `into`'s buffers where the sizes match: a window that re-runs one shape
// with another launch skips allocating (and faulting in) hundreds of megabytes. With
// `cancel`, a run stops within a block of it being set and returns false (`into` then holds
// a partial result, to be thrown away).
bool emulate_into(const Workload& workload, const LaunchConfig& launch, LaunchResult& into, unsigned workers = 0,
                  const std::atomic<bool>* cancel = nullptr, OutputValues values = OutputValues::Skipped);

}  // namespace threadmap
