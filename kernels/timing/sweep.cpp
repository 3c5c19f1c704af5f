// The size sweep; see sweep.hpp.
#include "kernels/timing/sweep.hpp"

#include <algorithm>
#include <cmath>

#include "kernels/timing/spec_cost.hpp"

namespace threadmap {

namespace {

uint64_t param(const KernelSpec& spec, const Params& params, const char* name) {
    return params.at(spec.param_index(name));
}

}  // namespace

int sweep_rank(const KernelSpec& spec) {
    // The largest global array at the spec's defaults: a reduction's input, not its partial sums.
    const Params params = spec.default_params();
    const LaunchConfig launch{spec.covering_grid(params, spec.default_block), spec.default_block};
    uint64_t largest = 0;
    int rank = 1;
    for (const ArraySpec& a : spec.arrays) {
        if (a.space != MemorySpace::Global) continue;
        const std::vector<uint64_t> shape = a.shape(params, launch);
        uint64_t elements = 1;
        for (const uint64_t d : shape) elements *= d;
        if (elements > largest) largest = elements, rank = int(shape.size());
    }
    return rank;
}

SweepCase sweep_case(const SweptKernel& kernel, uint64_t elements) {
    const KernelSpec& spec = *kernel.spec;
    const int rank = sweep_rank(spec);
    const uint64_t side =
        std::max<uint64_t>(1, uint64_t(std::llround(std::pow(double(std::max<uint64_t>(elements, 1)), 1.0 / rank))));
    SweepCase c;
    c.params = kernel.settings.size() == spec.params.size() ? kernel.settings : spec.default_params();
    for (size_t i = 0; i < spec.params.size(); ++i) {
        const ParamSpec& p = spec.params[i];
        if (p.default_from < i)
            c.params[i] = std::clamp(c.params[p.default_from], p.min, p.max);
        else if (p.problem_size)
            c.params[i] = std::clamp(side, p.min, p.max);
    }
    c.elements = side;
    for (int d = 1; d < rank; ++d) c.elements *= side;
    c.launch = {spec.covering_grid(c.params, kernel.block), kernel.block};
    if (spec.fast)
        c.workload = is_matrix(spec.fast)
                         ? matmul_workload(spec.fast, param(spec, c.params, "rows"), param(spec, c.params, "cols"),
                                           param(spec, c.params, "inner"))
                         : array_workload(spec.fast, param(spec, c.params, "n"));
    return c;
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

SweepPoint point(const KernelSpec& spec, const SweepCase& c, double cpu_seconds, const GpuTimer& gpu) {
    SweepPoint p;
    p.elements = c.elements;
    p.cpu_seconds = cpu_seconds;
    if (gpu)
        if (const auto g = gpu(spec, c)) {
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

CpuClock sweep_cpu_clock(ElementType element) {
    return [element](const KernelSpec& spec, const SweepCase& c) -> Outcome<CpuReferenceTiming> {
        constexpr double kWork = 0.02;  // seconds of runs: a stable median without a long sweep
        if (c.workload) {
            const double once = time_cpu_reference(*c.workload, 1, element).seconds.front();
            return {time_cpu_reference(*c.workload, int(std::clamp(kWork / std::max(once, 1e-9), 3.0, 50.0)), element),
                    {}};
        }
        return time_spec_reference(spec, c.params, c.launch, 50, kWork);
    };
}

SweepResult run_sweep(const SweptKernel& kernel, const std::vector<uint64_t>& sizes, const CpuClock& cpu,
                      const SweepGpu& gpu, const std::function<void(size_t, size_t)>& progress,
                      const std::atomic<bool>* cancel) {
    const KernelSpec& spec = *kernel.spec;
    SweepResult r;
    r.kernel = spec.name;
    r.gpu_origin = gpu.timer ? gpu.origin : "";
    r.device = gpu.device;
    const bool ranged = gpu.timer && gpu.fast && gpu.slow;
    std::vector<SweepPoint> fast, slow;
    for (size_t i = 0; i < sizes.size(); ++i) {
        if (cancel && cancel->load()) {
            r.cancelled = true;
            break;
        }
        const SweepCase c = sweep_case(kernel, sizes[i]);
        Outcome<CpuReferenceTiming> timed = cpu(spec, c);
        if (!timed.value || timed.value->seconds.empty()) {
            r.sentence = "No sweep: " + (timed.value ? "the CPU clock gave no runs" : timed.error) + ".";
            return r;
        }
        std::vector<double>& runs = timed.value->seconds;
        std::sort(runs.begin(), runs.end());
        r.cpu = timed.value->implementation;
        r.points.push_back(point(spec, c, runs[runs.size() / 2], gpu.timer));
        if (ranged) {
            fast.push_back(point(spec, c, r.points.back().cpu_seconds, gpu.fast));
            slow.push_back(point(spec, c, r.points.back().cpu_seconds, gpu.slow));
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
    std::string against = r.cpu.empty() ? "" : " The CPU: " + r.cpu + ".";
    if (gpu.origin == "modeled" && spec.uses_atomics)  // the model's kernel time is bytes, sectors and flops
        against +=
            " The model does not price its atomics' contention (threads adding into one address wait "
            "their turn): the GPU's time is a floor.";
    if (!gpu.timer) {
        r.sentence = "No GPU column: the CPU alone was timed." + against;
        return r;
    }
    r.sentence = "On " + gpu.device + " (" + gpu.origin + ") the kernel " + said(r.resident) +
                 " once data stays on the device; with copies every call it " + said(r.with_copies) + "." + against;
    return r;
}

SweepGpu modeled_gpu(const DeviceProfile& profile, bool pinned, const TimedProgram& program) {
    const auto timer = [pinned, program](DeviceProfile p) -> GpuTimer {
        return [p, pinned, program](const KernelSpec& spec, const SweepCase& c) -> std::optional<GpuStageSeconds> {
            WorkloadCost cost;
            if (c.workload) {
                cost = workload_cost(*c.workload, program);
                add_waves(cost, *c.workload, c.launch, p);
            } else {
                const Outcome<WorkloadCost> priced = spec_cost(spec, c.params, c.launch, program);
                if (!priced.value) return std::nullopt;  // a float64 program: refused before the sweep
                cost = *priced.value;
                add_spec_waves(cost, spec, c.params, c.launch, p);
            }
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
