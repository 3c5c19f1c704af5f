// `threadmap occupancy`; see occupancy_command.hpp.
#include "app/commands/occupancy_command.hpp"
#include "kernels/builtin/registry.hpp"

#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "kernels/cuda/cuda_backend.hpp"
#include "app/launch/device_profiles.hpp"
#include "app/launch/lessons.hpp"
#include "app/launch/model_launch.hpp"
#include "app/reports/occupancy_report.hpp"
#include "kernels/core/validation.hpp"

namespace threadmap {

namespace {

int fail(const std::string& message) {
    std::fprintf(stderr, "threadmap: %s\n", message.c_str());
    return 2;
}

// --registers and --shared-bytes, when given; a message when one is not a count in range.
Outcome<void> read_overrides(const OccupancyCommandOptions& o, std::optional<int>& registers,
                             std::optional<uint64_t>& shared) {
    if (!o.registers.empty()) {
        const auto r = parse_count(o.registers, "--registers");
        if (!r.value) return failed(r.error);
        if (*r.value > 255) return failed("--registers must be from 0 to 255 (CUDA's most per thread)");
        registers = int(*r.value);
    }
    if (!o.shared_bytes.empty()) {
        const auto s = parse_count(o.shared_bytes, "--shared-bytes");
        if (!s.value) return failed(s.error);
        if (*s.value > (uint64_t(1) << 30)) return failed("--shared-bytes must be at most 1073741824");
        shared = *s.value;
    }
    return done();
}

}  // namespace

int run_occupancy_command(const OccupancyCommandOptions& o) {
    const auto launch = resolve_model_launch(o.launch);
    if (!launch.value) return fail(launch.error);
    if (const auto e = validate_launch(launch.value->launch, cc90_profile())) return fail(describe(*e));
    // A lesson's GPU when none is given (an occupancy lesson names one).
    const Lesson* lesson = o.launch.preset.empty() ? nullptr : find_lesson(o.launch.preset);
    const bool lesson_gpu = lesson && !lesson->occupancy_profile.empty() && o.device_profile.empty() && o.cc.empty();
    const auto gpu = resolve_occupancy_gpu(lesson_gpu ? lesson->occupancy_profile : o.device_profile, o.cc, o.sms);
    if (!gpu.value) return fail(gpu.error);
    std::optional<int> registers;
    std::optional<uint64_t> shared;
    if (const Outcome<void> why = read_overrides(o, registers, shared); !why.done()) return fail(why.error);
    // On this machine's GPU the tutorial's kernels' registers are those of the kernel it runs.
    const auto tutorial = parse_kernel(launch.value->spec->name);
    std::optional<int> device_registers;
    if (!registers && gpu.value->device && tutorial)
        device_registers = cuda_kernel_registers(tutorial, *gpu.value->device);
    auto resources = launch_resources(*launch.value, gpu.value->sm, registers ? registers : device_registers, shared);
    if (!resources.value) return fail(resources.error);
    if (device_registers) resources.value->registers_origin = "cudaFuncGetAttributes on " + gpu.value->name;
    const OccupancyReport r = occupancy_report(*launch.value, *gpu.value, *resources.value);
    if (r.occupancy.active_blocks_per_sm == 0)
        return fail("this launch cannot run on " + r.gpu.name + ": " + r.occupancy.cannot_launch);
    std::vector<OccupancySweepPoint> sweep;
    if (o.sweep) {
        const auto resolved = resolve_launch(o.launch);
        if (!resolved.value) return fail("--sweep is for the built-in kernels and their lessons");
        sweep = occupancy_sweep(*resolved.value, r.gpu,
                                find_device_profile(lesson_gpu ? lesson->occupancy_profile : o.device_profile),
                                TimedProgram{});
    }
    if (o.json) {
        nlohmann::json j = occupancy_json(r);
        if (o.sweep) j["sweep"] = occupancy_sweep_json(sweep);
        std::cout << j.dump(1) << "\n";
        return 0;
    }
    std::cout << occupancy_text(r);
    if (o.sweep) {
        std::cout
            << "block size sweep (threads per block: blocks per SM, occupancy, limiter, waves, modeled kernel):\n";
        for (const auto& p : sweep) {
            char line[200];
            std::snprintf(line, sizeof line, "  %4d %-10s %2d  %6.2f%%  %-13s %llu waves, last %.1f%% full  %s\n",
                          p.block_size, to_string(p.block).c_str(), p.occupancy.active_blocks_per_sm,
                          p.occupancy.occupancy * 100, main_limiter_name(p.occupancy.limiters),
                          static_cast<unsigned long long>(p.waves.waves), p.waves.last_wave_fill * 100,
                          p.kernel_seconds ? (std::to_string(*p.kernel_seconds * 1e6) + " us").c_str() : "-");
            std::cout << line;
        }
    }
    return 0;
}

}  // namespace threadmap
