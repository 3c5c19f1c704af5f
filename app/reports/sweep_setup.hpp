// The size sweep as `threadmap bench --sweep` and the window's Timing view both run it: which
// GPU clock (modeled from a profile, measured on a device, or none), the default sizes per
// kernel, and the CSV both write.
#pragma once

#include <optional>
#include <string>

#include "app/launch/backend_choice.hpp"
#include "kernels/timing/sweep.hpp"
#include "kernels/timing/timing_model.hpp"

namespace threadmap {

// model set: the program modeled from it; else measured on `device` when it is a GPU (the
// CUDA C++ float32 program); else none.
// block: the launch's, for the modeled kernel's waves (see modeled_gpu).
SweepGpu sweep_gpu(const DeviceProfile* model, const std::optional<BackendChoice>& device, bool pinned,
                   const TimedProgram& program, std::optional<Dim3> block = std::nullopt);

struct SweepRange {
    uint64_t from, to;  // elements (matmul: elements of C)
    uint64_t max_to;    // the largest size the sweep accepts
};
SweepRange default_sweep_range(const FastKernel* kind);  // increment 1,024 to 2^24; matmul 16² to 512²
inline constexpr int kDefaultSweepPoints = 30;

// "elements,cpu_seconds,gpu_copy_seconds,gpu_resident_seconds,origin" and one line a size.
std::string sweep_csv(const SweepResult& sweep);

}  // namespace threadmap
