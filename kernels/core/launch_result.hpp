// LaunchResult: what a launch gives, from the CPU emulator or a GPU alike — the map of who
// wrote each element, the launch's counts, and the kernel's data with its real output.
#pragma once

#include <memory>

#include "kernels/core/kernel_data.hpp"
#include "kernels/core/launch_config.hpp"
#include "kernels/core/thread_map.hpp"
#include "kernels/core/workload.hpp"

namespace threadmap {

// A map kept on a CUDA device (defined by the CUDA executor): the GPU's result stays there
// for colouring and comes to the host only when something asks (Executor::fetch_map).
struct DeviceMap;

// Device pointers of a DeviceMap, for CUDA code that reads it (the interop painter).
struct DeviceMapView {
    const uint32_t* first_toucher = nullptr;
    const uint32_t* touches = nullptr;
    uint64_t size = 0;
    int device = 0;
};
DeviceMapView view_of(const DeviceMap& map);

struct LaunchResult {
    Workload workload;
    LaunchConfig launch;
    // On the host: always from the emulator; from a GPU only after Executor::fetch_map.
    ThreadMap map;
    LaunchStats stats;
    // Inputs, and the kernel's real output in data.out: from a GPU, or from the emulator when
    // asked for (OutputValues::Computed); empty at the emulator's writers level (the map only).
    KernelData data;
    // Emulator: blocks ran on this many host threads. Launches where two blocks write one
    // element (a data race on a GPU) are detected and re-run on one thread, in block order:
    // that gives the first toucher exactly and one of the results a GPU could produce.
    // 0: ran on a GPU.
    unsigned workers = 1;
    std::shared_ptr<const DeviceMap> device_map;  // set when the map is on a GPU

    bool has_host_map() const { return map.size() == element_count(workload); }
};

}  // namespace threadmap
