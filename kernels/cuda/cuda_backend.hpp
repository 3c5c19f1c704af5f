// The CUDA backend seen from plain C++: which devices exist (or why none can be used), the
// same mapped launch the emulator runs, and measured timings of copies and kernels. The
// implementation is cuda_executor.cu when nvcc built it, cuda_unavailable.cpp otherwise,
// so callers need neither CUDA headers nor #ifdefs.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "kernels/core/launch_result.hpp"
#include "kernels/core/outcome.hpp"
#include "kernels/core/device_limits.hpp"
#include "kernels/occupancy/sm_properties.hpp"
#include "kernels/core/workload.hpp"

namespace threadmap {

struct CudaDevice {
    int index = 0;
    std::string name;
    int cc_major = 0, cc_minor = 0;
    int multiprocessors = 0;
    uint64_t memory_bytes = 0;
    DeviceLimits limits;  // from cudaGetDeviceProperties
    SmProperties sm;      // the same: what an SM holds, for the occupancy calculator
};

struct CudaDevices {
    bool compiled_in = false;
    int runtime_version = 0;  // e.g. 13000; 0 when not compiled in
    int driver_version = 0;   // 0 when there is no driver
    std::vector<CudaDevice> devices;
    std::string reason;  // why `devices` is empty, in CUDA's own terms (e.g. error 35)
};

// Never throws; CUDA errors are cleared after being turned into `reason`.
CudaDevices list_cuda_devices();

// The registers per thread of the kernel a GPU run of `kernel` launches (the plain kernel, as
// bench times it), from cudaFuncGetAttributes on `device`; none without CUDA or on an error.
std::optional<int> cuda_kernel_registers(const FastKernel* kernel, int device);

// The mapped launch on a real GPU is make_cuda_executor (executor.hpp): the same ThreadMap
// as the emulator's (first toucher by atomicMin, touches by atomicAdd), kept on the device.

// Measured timings of the plain kernel (no map recording), with CUDA events.
struct StageTiming {
    std::string name;             // "h2d", "kernel", "d2h" (or "cpu")
    std::vector<double> seconds;  // one per repeat
    uint64_t bytes = 0;           // moved by a copy, or touched by the kernel
    std::string origin = "measured";
};

struct GpuBenchOptions {
    int repeats = 10;
    bool pinned = false;    // host buffers from cudaMallocHost instead of pageable memory
    bool resident = false;  // copy once, launch `repeats` times, copy back once
};

struct GpuBenchResult {
    std::string device;  // "NVIDIA H200 (cc 9.0)"
    int driver_version = 0, runtime_version = 0;
    std::vector<StageTiming> stages;
    // The first launch on the host clock: creating the context (about 0 when it existed:
    // first_launch_warm) plus the first kernel with its module load, its data already on the
    // device. The driver's start-up, paid when the devices were listed, is in neither.
    double context_seconds = 0, first_kernel_seconds = 0;
    double first_launch_seconds = 0;         // the sum
    bool first_launch_warm = false;          // the context existed before the bench began
    double kernel_back_to_back_seconds = 0;  // `repeats` launches between one event pair, per launch
};
// What was measured, or the device's words for why nothing was (Failure::Device; Unsupported
// in a build without CUDA).
Outcome<GpuBenchResult> bench_on_gpu(const Workload& workload, const LaunchConfig& launch,
                                     const GpuBenchOptions& options, int device = 0);

}  // namespace threadmap
