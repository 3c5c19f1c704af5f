// The current kernel as a learner would write it, in numba Python and in CUDA C++, with the
// launch line for the current gridDim and blockDim and the host lines of the program the
// timing model times. Guard lines are marked for highlighting.
#pragma once

#include <string>
#include <vector>

#include "kernels/core/launch_config.hpp"
#include "kernels/model/kernel_spec.hpp"
#include "kernels/timing/timing_model.hpp"
#include "kernels/core/workload.hpp"

namespace threadmap {

struct CodeLine {
    std::string text;
    bool guard = false;   // the bounds check that keeps idle threads from writing
    bool launch = false;  // the line that launches with the current configuration
    bool note = false;    // a comment on what running it prints or does (drawn wrapped)
};

// What the shown program does beyond the kernel: the element type and how arrays reach the
// device (the timing model times the same program), pinned host memory, and the tutorial's
// store inside the k loop.
struct CodeOptions {
    TimedProgram program;
    bool pinned = false;
    bool store_in_loop = false;
};

// Whether the tutorial gives this fast body's text (numba_code and cuda_code); the others show
// their spec's CUDA C++ (model_kernel_code).
bool has_tutorial_text(const Workload& workload);
// numba: the kernel, the host lines for the program's arrays and transfers, and as comments
// the NumbaPerformanceWarnings numba prints for it (a host array's copies; fewer than 128
// blocks). CUDA C++: the kernel and the host's cudaMemcpy calls (always explicit).
std::vector<CodeLine> numba_code(const Workload& workload, const LaunchConfig& launch, const CodeOptions& o = {});
std::vector<CodeLine> cuda_code(const Workload& workload, const LaunchConfig& launch, const CodeOptions& o = {});
// A model kernel's CUDA C++ text with its line numbers (the findings and the memory view name
// them), and its launch line.
std::vector<CodeLine> model_kernel_code(const KernelSpec& spec, const LaunchConfig& launch);

// numba's own threshold: a grid of fewer blocks warns of low occupancy (numba-cuda's
// dispatcher, NumbaPerformanceWarning "Grid size N will likely result in GPU
// under-utilization due to low occupancy").
inline constexpr uint64_t kNumbaLowOccupancyBlocks = 128;

}  // namespace threadmap
