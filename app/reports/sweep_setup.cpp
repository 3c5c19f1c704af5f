// Sweep set-up; see sweep_setup.hpp.
#include "app/reports/sweep_setup.hpp"

#include <cstdio>

#include "app/reports/timing_report.hpp"
#include "kernels/timing/spec_cost.hpp"

namespace threadmap {

SweepGpu sweep_gpu(const DeviceProfile* model, const std::optional<BackendChoice>& device, bool pinned,
                   const TimedProgram& program) {
    if (model) return modeled_gpu(*model, pinned, program);
    if (device && device->cuda) return {measured_gpu(device->device, pinned), {}, {}, "measured", device->name};
    return {};
}

SweptKernel swept_kernel(const ResolvedLaunch& launch) {
    return {&launch.spec(), launch.model ? launch.model->params : Params{}, launch.launch.block};
}

Outcome<void> why_no_sweep(const ResolvedLaunch& launch, const TimedProgram& program, const DeviceProfile* model,
                           const std::optional<BackendChoice>& device) {
    const KernelSpec& spec = launch.spec();
    const bool measured = !model && device && device->cuda;
    if (measured && !(program == TimedProgram{}))
        return failed("a sweep on this GPU times the CUDA C++ float32 program; model the others (--backend model)");
    if (!spec.reference)
        return failed(spec.name + " has no CPU reference to time next to it (a learner's kernel has none)");
    if (measured && !spec.fast)
        return failed(spec.name +
                      " has no GPU twin in this build (the tutorial's four kernels have one): its sweep is modeled "
                      "(--backend model)");
    if (!spec.fast)
        if (const auto cost = spec_cost(spec, spec.default_params(), launch.launch, program); !cost.value)
            return failed(cost.error);
    return done();
}

SweepRange default_sweep_range(const KernelSpec& spec) {
    // A matrix kernel without a fast body is timed by its one-thread reference, N³ steps for a
    // matmul: 1,024² is seconds a run.
    if (sweep_rank(spec) >= 2) return {256, 262144, uint64_t(1) << (spec.fast ? 22 : 20)};
    return {1024, uint64_t(1) << 24, uint64_t(1) << 26};
}

std::string sweep_csv(const SweepResult& r) {
    const std::string origin = "cpu: measured, gpu: " + (r.gpu_origin.empty() ? std::string("none") : r.gpu_origin);
    std::string csv = "elements,cpu_seconds,gpu_copy_seconds,gpu_resident_seconds,origin\n";
    char line[160];
    for (const auto& p : r.points) {
        if (p.gpu_copy_seconds)
            std::snprintf(line, sizeof line, "%llu,%.9g,%.9g,%.9g,", (unsigned long long)p.elements, p.cpu_seconds,
                          *p.gpu_copy_seconds, *p.gpu_resident_seconds);
        else
            std::snprintf(line, sizeof line, "%llu,%.9g,,,", (unsigned long long)p.elements, p.cpu_seconds);
        csv += line + origin + "\n";
    }
    return csv;
}

}  // namespace threadmap
