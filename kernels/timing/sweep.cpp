// The size sweep; see sweep.hpp.
#include "kernels/timing/sweep.hpp"

#include <cmath>

namespace threadmap {

Workload sized_workload(const FastKernel* kernel, uint64_t elements) {
    if (!is_matrix(kernel)) return array_workload(kernel, elements);
    const uint64_t n = std::max<uint64_t>(1, uint64_t(std::llround(std::sqrt(double(elements)))));
    return matmul_workload(kernel, n, n, n);
}

std::vector<uint64_t> sweep_sizes(uint64_t from, uint64_t to, int points) {
    std::vector<uint64_t> sizes;
    if (from < 1) from = 1;
    if (to < from) to = from;
    for (int i = 0; i < points; ++i) {
        const double t = points > 1 ? double(i) / (points - 1) : 0;
        const uint64_t s =
            uint64_t(std::llround(std::exp(std::log(double(from)) * (1 - t) + std::log(double(to)) * t)));
        if (sizes.empty() || s > sizes.back()) sizes.push_back(s);
    }
    return sizes;
}

std::optional<uint64_t> crossover(const std::vector<SweepPoint>& points, bool resident) {
    std::optional<uint64_t> from;
    for (const auto& p : points) {
        const auto gpu = resident ? p.gpu_resident_seconds : p.gpu_copy_seconds;
        if (!gpu) return std::nullopt;
        if (*gpu < p.cpu_seconds) {
            if (!from) from = p.elements;
        } else {
            from.reset();  // the GPU must win from here to the end of the sweep
        }
    }
    return from;
}

namespace {

SweepPoint point(const Workload& workload, double cpu_seconds, const GpuTimer& gpu) {
    SweepPoint p;
    p.elements = element_count(workload);
    p.cpu_seconds = cpu_seconds;
    if (gpu)
        if (const auto g = gpu(workload)) {
            p.gpu_copy_seconds = g->alloc + g->h2d + g->kernel + g->d2h;
            p.gpu_resident_seconds = g->kernel;
        }
    return p;
}

std::string said(const Crossover& c) {
    const auto at = [](const std::optional<uint64_t>& e) { return e ? std::to_string(*e) : std::string("never"); };
    std::string s = c.elements ? "wins above about " + std::to_string(*c.elements) + " elements"
                               : std::string("never does in this range");
    if (c.ranged && c.fast != c.slow)
        s += " (over the profile's ranges: from " + at(c.fast) + " at best to " + at(c.slow) + " at worst)";
    return s;
}

}  // namespace

SweepResult run_sweep(const FastKernel* kernel, const std::vector<uint64_t>& sizes,
                      const std::function<double(const Workload&)>& cpu, const SweepGpu& gpu,
                      const std::function<void(size_t, size_t)>& progress, const std::atomic<bool>* cancel) {
    SweepResult r;
    r.gpu_origin = gpu.timer ? gpu.origin : "";
    r.device = gpu.device;
    const bool ranged = gpu.timer && gpu.fast && gpu.slow;
    std::vector<SweepPoint> fast, slow;
    for (size_t i = 0; i < sizes.size(); ++i) {
        if (cancel && cancel->load()) {
            r.cancelled = true;
            break;
        }
        const Workload workload = sized_workload(kernel, sizes[i]);
        r.points.push_back(point(workload, cpu(workload), gpu.timer));
        if (ranged) {
            fast.push_back(point(workload, r.points.back().cpu_seconds, gpu.fast));
            slow.push_back(point(workload, r.points.back().cpu_seconds, gpu.slow));
        }
        if (progress) progress(i + 1, sizes.size());
    }
    for (const bool resident : {true, false}) {
        Crossover& c = resident ? r.resident : r.with_copies;
        c.elements = crossover(r.points, resident);
        c.ranged = ranged;
        if (ranged) {
            c.fast = crossover(fast, resident);
            c.slow = crossover(slow, resident);
        }
    }
    if (!gpu.timer) {
        r.sentence = "No GPU column: the CPU alone was timed.";
        return r;
    }
    r.sentence = "On " + gpu.device + " (" + gpu.origin + ") the kernel " + said(r.resident) +
                 " once data stays on the device; with copies every call it " + said(r.with_copies) + ".";
    return r;
}

SweepGpu modeled_gpu(const DeviceProfile& profile, bool pinned, const TimedProgram& program,
                     std::optional<Dim3> block) {
    const auto timer = [pinned, program, block](DeviceProfile p) -> GpuTimer {
        return [p, pinned, program, block](const Workload& workload) -> std::optional<GpuStageSeconds> {
            WorkloadCost cost = workload_cost(workload, program);
            if (block) add_waves(cost, workload, {covering_grid(workload, *block), *block}, p);
            const ModeledTimes t = model_times(p, cost, program, pinned);
            return GpuStageSeconds{t.alloc, t.h2d, t.kernel, t.d2h};
        };
    };
    SweepGpu g;
    g.timer = timer(profile);
    if (!profile.ranges.empty()) {
        g.fast = timer(profile_at_bound(profile, true));
        g.slow = timer(profile_at_bound(profile, false));
    }
    g.origin = "modeled";
    g.device = profile.title;
    return g;
}

}  // namespace threadmap
