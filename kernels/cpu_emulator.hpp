// The CPU emulator: runs the kernel bodies for every (block, thread) of a launch on host
// threads and records which thread wrote each element of the output.
#pragma once

#include "kernel_data.hpp"
#include "launch_config.hpp"
#include "thread_map.hpp"
#include "workload.hpp"

namespace threadmap {

struct Emulation {
    Workload workload;
    ThreadMap map;
    LaunchStats stats;
    KernelData data;  // inputs, and the kernel's real output in data.out
    // Blocks run on this many host threads. Launches where two blocks write one element (a
    // data race on a GPU) are detected and re-run on one thread, in block order: that gives
    // the first toucher exactly and one of the results a GPU could produce.
    unsigned workers = 1;
};

// Pre: check_shape, validate_launch and the emulator caps accepted (w, launch).
// workers = 0 uses every core.
Emulation emulate(const Workload& w, const LaunchConfig& launch, unsigned workers = 0);

// The same, reusing `into`'s buffers where the sizes match: a window that re-runs one shape
// with another launch skips allocating (and faulting in) hundreds of megabytes.
void emulate_into(const Workload& w, const LaunchConfig& launch, Emulation& into, unsigned workers = 0);

}  // namespace threadmap
