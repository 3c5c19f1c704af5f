// The size sweep: the chosen kernel from tiny to large sizes, CPU time (always measured)
// against GPU time with copies every launch and with data resident on the device (measured
// on a GPU, or modeled from a device profile), and where the GPU starts to win.
#pragma once

#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "kernels/timing/timing_model.hpp"
#include "kernels/core/workload.hpp"

namespace threadmap {

struct SweepPoint {
    uint64_t elements = 0;
    double cpu_seconds = 0;                      // measured: median of the CPU reference
    std::optional<double> gpu_copy_seconds;      // allocation + h2d + kernel + d2h, every call
    std::optional<double> gpu_resident_seconds;  // kernel alone: the data stays on the device
};

// Where the GPU starts to win; with a modeled clock whose profile gives ranges, also where it
// would at the end of every range that favours the GPU (fast) and the CPU (slow).
struct Crossover {
    std::optional<uint64_t> elements, fast, slow;
    bool ranged = false;
};

struct SweepResult {
    std::vector<SweepPoint> points;
    std::string gpu_origin;  // "measured", "modeled" or "" (no GPU column)
    std::string device;      // the GPU (or profile) the GPU columns are for
    Crossover resident;      // data resident on the device
    Crossover with_copies;   // copying every call
    std::string sentence;    // the finding in one sentence
    bool cancelled = false;
};

// GPU stage times for one workload (empty: no GPU column).
struct GpuStageSeconds {
    double alloc = 0, h2d = 0, kernel = 0, d2h = 0;
};
using GpuTimer = std::function<std::optional<GpuStageSeconds>(const Workload&)>;

// The GPU clock of a sweep: measured or modeled (with the profile's bounds), or none.
struct SweepGpu {
    GpuTimer timer;       // empty: CPU only
    GpuTimer fast, slow;  // modeled with ranges: the profile at each end
    std::string origin;   // "modeled", "measured" or "" (none)
    std::string device;   // the profile's title or the device's name
};

// Workload of a given size: n elements for the 1D kernels, an N×N×N matmul (N = √elements).
Workload sized_workload(const FastKernel* kernel, uint64_t elements);
// `points` sizes from `from` to `to`, evenly spaced on a log scale, distinct.
std::vector<uint64_t> sweep_sizes(uint64_t from, uint64_t to, int points);

// cpu(workload) → seconds; gpu.timer may be empty. progress(done, total) after each size;
// cancel stops between sizes.
SweepResult run_sweep(const FastKernel* kernel, const std::vector<uint64_t>& sizes,
                      const std::function<double(const Workload&)>& cpu, const SweepGpu& gpu,
                      const std::function<void(size_t, size_t)>& progress = {},
                      const std::atomic<bool>* cancel = nullptr);

// The smallest size from which `gpu` stays below `cpu` to the end of the sweep, if any.
std::optional<uint64_t> crossover(const std::vector<SweepPoint>& points, bool resident);

// The program's GPU stages modeled from a profile; with ranges, fast and slow as well.
// block: each size's launch is this block with the covering grid, and the kernel time counts
// its waves on the profile's GPU; none: no waves.
SweepGpu modeled_gpu(const DeviceProfile& profile, bool pinned, const TimedProgram& program,
                     std::optional<Dim3> block = std::nullopt);

}  // namespace threadmap
