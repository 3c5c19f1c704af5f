// The size sweep; see sweep.hpp.
#include "sweep.hpp"

#include <cmath>

namespace threadmap {

Workload sized_workload(KernelKind kind, uint64_t elements) {
    if (!is_matrix(kind)) return array_workload(kind, elements);
    const uint64_t n = std::max<uint64_t>(1, uint64_t(std::llround(std::sqrt(double(elements)))));
    return matmul_workload(kind, n, n, n);
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

SweepResult run_sweep(KernelKind kind, const std::vector<uint64_t>& sizes,
                      const std::function<double(const Workload&)>& cpu, const GpuTimer& gpu,
                      const std::string& gpu_origin, const std::string& device,
                      const std::function<void(size_t, size_t)>& progress, const std::atomic<bool>* cancel) {
    SweepResult r;
    r.gpu_origin = gpu ? gpu_origin : "";
    r.device = device;
    for (size_t i = 0; i < sizes.size(); ++i) {
        if (cancel && cancel->load()) {
            r.cancelled = true;
            break;
        }
        const Workload w = sized_workload(kind, sizes[i]);
        SweepPoint p;
        p.elements = element_count(w);
        p.cpu_seconds = cpu(w);
        if (gpu)
            if (const auto g = gpu(w)) {
                p.gpu_copy_seconds = g->h2d + g->kernel + g->d2h;
                p.gpu_resident_seconds = g->kernel;
            }
        r.points.push_back(p);
        if (progress) progress(i + 1, sizes.size());
    }
    r.crossover_elements = crossover(r.points, true);
    r.crossover_elements_with_copies = crossover(r.points, false);
    if (!gpu) {
        r.sentence = "No GPU column: the CPU alone was timed.";
        return r;
    }
    const auto said = [](const std::optional<uint64_t>& c) {
        return c ? "wins above about " + std::to_string(*c) + " elements" : std::string("never does in this range");
    };
    r.sentence = "On " + device + " (" + gpu_origin + ") the kernel " + said(r.crossover_elements) +
                 " once data stays on the device; with copies every launch it " +
                 said(r.crossover_elements_with_copies) + ".";
    return r;
}

GpuTimer modeled_gpu(const DeviceProfile& profile, bool pinned) {
    return [profile, pinned](const Workload& w) -> std::optional<GpuStageSeconds> {
        const ModeledTimes t = model_times(profile, workload_cost(w), pinned);
        return GpuStageSeconds{t.h2d, t.kernel, t.d2h};
    };
}

}  // namespace threadmap
