// Sweep set-up; see sweep_setup.hpp.
#include "app/reports/sweep_setup.hpp"

#include <cstdio>

#include "app/reports/timing_report.hpp"

namespace threadmap {

SweepGpu sweep_gpu(const DeviceProfile* model, const std::optional<BackendChoice>& device, bool pinned,
                   const TimedProgram& program, std::optional<Dim3> block) {
    if (model) return modeled_gpu(*model, pinned, program, block);
    if (device && device->cuda) return {measured_gpu(device->device, pinned), {}, {}, "measured", device->name};
    return {};
}

SweepRange default_sweep_range(const FastKernel* kind) {
    if (is_matrix(kind)) return {256, 262144, uint64_t(1) << 22};
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
