// The size sweep as `threadmap bench --sweep` and the window's Timing view both run it: which
// GPU clock (modeled from a profile, measured on a device, or none), the default sizes per
// kernel, and the CSV both write.
#pragma once

#include <optional>
#include <string>

#include "app/launch/backend_choice.hpp"
#include "app/launch/launch_options.hpp"
#include "kernels/timing/sweep.hpp"
#include "kernels/timing/timing_model.hpp"

namespace threadmap {

// model set: the program modeled from it; else measured on `device` when it is a GPU (the
// CUDA C++ float32 program); else none.
SweepGpu sweep_gpu(const DeviceProfile* model, const std::optional<BackendChoice>& device, bool pinned,
                   const TimedProgram& program);

// The launch's kernel as a sweep grows it: its parameters (a tutorial kernel's are all sizes),
// its block.
SweptKernel swept_kernel(const ResolvedLaunch& launch);

// Why the launch's kernel cannot be swept with these clocks, if it cannot: a learner's kernel
// has no CPU reference; a kernel without a GPU twin is modeled, not measured; a spec's arrays
// have the types its text declares (no float64 program); a GPU times the CUDA C++ float32
// program only.
Outcome<void> why_no_sweep(const ResolvedLaunch& launch, const TimedProgram& program, const DeviceProfile* model,
                           const std::optional<BackendChoice>& device);

struct SweepRange {
    uint64_t from, to;  // elements of the kernel's largest global array
    uint64_t max_to;    // the largest size the sweep accepts
};
// Arrays: 1,024 to 2^24 elements (at most 2^26); matrices: 16² to 512² (at most 2,048², or
// 1,024² for a kernel whose CPU side is its one-thread reference).
SweepRange default_sweep_range(const KernelSpec& spec);
inline constexpr int kDefaultSweepPoints = 30;

// "elements,cpu_seconds,gpu_copy_seconds,gpu_resident_seconds,origin" and one line a size.
std::string sweep_csv(const SweepResult& sweep);

}  // namespace threadmap
