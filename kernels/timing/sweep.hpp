// The size sweep: the chosen kernel from tiny to large sizes, CPU time (always measured)
// against GPU time with copies every launch and with data resident on the device (measured
// on a GPU, or modeled from a device profile), and where the GPU starts to win.
#pragma once

#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "kernels/timing/cpu_reference.hpp"
#include "kernels/timing/timing_model.hpp"
#include "kernels/core/workload.hpp"
#include "kernels/model/kernel_spec.hpp"

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
    std::string kernel;      // the kernel swept
    std::string cpu;         // what the CPU column times: a tuned twin, or the spec's C++ reference
    std::string sentence;    // the finding in one sentence
    bool cancelled = false;
};

// What a sweep grows: a kernel, the launch's parameters it starts from (the ones that are not
// part of the problem's size stay: a histogram's bins, an offset), and the block every size
// launches with the grid that covers it.
struct SweptKernel {
    const KernelSpec* spec = nullptr;
    Params settings;  // empty: the spec's defaults
    Dim3 block;
};

// The kernel at one size of the sweep. A size is N^rank elements, rank that of the kernel's
// largest global array; every parameter that is part of the problem's size takes N, so a
// matmul is N×N×N, a transpose N×N, a histogram N values into the bins it had.
struct SweepCase {
    uint64_t elements = 0;             // N^rank
    Params params;                     // the spec's, in its order
    LaunchConfig launch;               // the sweep's block, with the grid that covers the problem
    std::optional<Workload> workload;  // the fast body's problem, when the kernel has one
};
SweepCase sweep_case(const SweptKernel& kernel, uint64_t elements);
// How many dimensions the sweep's size spreads over: the rank of the largest global array.
int sweep_rank(const KernelSpec& spec);

// GPU stage times for one size (empty: no GPU column).
struct GpuStageSeconds {
    double alloc = 0, h2d = 0, kernel = 0, d2h = 0;
};
using GpuTimer = std::function<std::optional<GpuStageSeconds>(const KernelSpec&, const SweepCase&)>;
using CpuClock = std::function<Outcome<CpuReferenceTiming>(const KernelSpec&, const SweepCase&)>;

// The sweep's CPU clock for a program of `element`s: a fast body's tuned twin
// (time_cpu_reference) where the kernel has one, else the spec's C++ reference; about 20 ms of
// runs (3 to 50), at least one.
CpuClock sweep_cpu_clock(ElementType element);

// The GPU clock of a sweep: measured or modeled (with the profile's bounds), or none.
struct SweepGpu {
    GpuTimer timer;       // empty: CPU only
    GpuTimer fast, slow;  // modeled with ranges: the profile at each end
    std::string origin;   // "modeled", "measured" or "" (none)
    std::string device;   // the profile's title or the device's name
};

// `points` sizes from `from` to `to`, evenly spaced on a log scale, distinct.
std::vector<uint64_t> sweep_sizes(uint64_t from, uint64_t to, int points);

// Each point's CPU time is the median of the clock's runs; gpu.timer may be empty.
// progress(done, total) after each size; cancel stops between sizes. A clock that fails ends
// the sweep there, its reason in the sentence.
SweepResult run_sweep(const SweptKernel& kernel, const std::vector<uint64_t>& sizes, const CpuClock& cpu,
                      const SweepGpu& gpu, const std::function<void(size_t, size_t)>& progress = {},
                      const std::atomic<bool>* cancel = nullptr);

// The smallest size from which `gpu` stays below `cpu` to the end of the sweep, if any.
std::optional<uint64_t> crossover(const std::vector<SweepPoint>& points, bool resident);

// The program's GPU stages modeled from a profile; with ranges, fast and slow as well. The
// kernel time counts the waves of each size's launch on the profile's GPU. A kernel with a
// fast body is priced by workload_cost (float64 programs too), any other by spec_cost.
SweepGpu modeled_gpu(const DeviceProfile& profile, bool pinned, const TimedProgram& program);

}  // namespace threadmap
