// `threadmap bench`; see bench_command.hpp.
#include "app/commands/bench_command.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "app/launch/backend_choice.hpp"
#include "app/reports/sweep_setup.hpp"
#include "kernels/builtin/registry.hpp"
#include "kernels/timing/cpu_reference.hpp"
#include "kernels/cuda/cuda_backend.hpp"
#include "app/launch/device_profiles.hpp"
#include "app/launch/lessons.hpp"
#include "kernels/timing/sweep.hpp"
#include "app/reports/timing_report.hpp"

namespace threadmap {

namespace {

constexpr uint64_t kMaxRepeats = 10000;

void print_text(const TimingReport& r) {
    std::printf("%s on %s\nlaunch gridDim (%u,%u,%u) blockDim (%u,%u,%u)\n\n", r.kernel.c_str(), r.device.c_str(),
                r.grid.x, r.grid.y, r.grid.z, r.block.x, r.block.y, r.block.z);
    std::printf("%-8s %12s %12s %12s %10s %10s  %s\n", "stage", "min", "median", "max", "GB/s", "GFLOP/s", "origin");
    const auto row = [&](const StageFigures& s, const std::string& label) {
        // Copies move bytes and compute nothing; an allocation does neither.
        const bool computes = (s.name == "kernel" || s.name == "cpu") && r.flops > 0;
        char gflops[32] = "-", gbps[32] = "-";
        if (computes) std::snprintf(gflops, sizeof gflops, "%.2f", r.flops / s.seconds_median / 1e9);
        if (s.bytes > 0) std::snprintf(gbps, sizeof gbps, "%.2f", double(s.bytes) / s.seconds_median / 1e9);
        std::printf("%-8s %10.1f us %10.1f us %10.1f us %10s %10s  %s\n", label.c_str(), s.seconds_min * 1e6,
                    s.seconds_median * 1e6, s.seconds_max * 1e6, gbps, gflops, s.origin.c_str());
    };
    for (const auto& s : r.stages) row(s, s.name);
    std::printf("\nCPU reference: %s\n", r.cpu_reference.implementation.c_str());
    row(r.cpu_reference, "cpu-ref");
    if (r.first_launch_seconds)
        std::printf("\nfirst launch: %.1f ms, %s (%s)\n", *r.first_launch_seconds * 1e3, r.first_launch_origin.c_str(),
                    r.first_launch_what.c_str());
    std::printf("%s\n", r.note.c_str());
}

}  // namespace

namespace {

int print_profiles() {
    for (const auto& p : device_profiles()) {
        std::printf("%s: %s\n", p.name.c_str(), p.title.c_str());
        for (const ProfileField& f : profile_fields()) {
            const auto range = p.ranges.find(f.key);
            char value[64];
            if (range == p.ranges.end())
                std::snprintf(value, sizeof value, "%g", p.*f.value);
            else
                std::snprintf(value, sizeof value, "%g [%g, %g]", p.*f.value, range->second.first,
                              range->second.second);
            std::printf("    %-24s %-22s %s\n", f.key, value, p.sources.at(f.key).c_str());
        }
    }
    return 0;
}

// The sweep as `bench --sweep --json` prints it.
nlohmann::json sweep_json(const SweepResult& r, const std::string& kernel, const std::string& device, bool pinned,
                          const TimedProgram& program, const std::string& point_origin) {
    nlohmann::json j;
    j["kernel"] = kernel;
    j["device"] = device;
    j["cpu_device"] = cpu_name();
    j["cpu_implementation"] = r.cpu;
    j["pinned"] = pinned;
    j["program"] = {{"language", language_name(program.language)},
                    {"element", element_name(program.element)},
                    {"transfers", transfers_name(program.transfers)}};
    j["date"] = utc_now();
    j["points"] = nlohmann::json::array();
    for (const auto& p : r.points) {
        nlohmann::json e = {{"elements", p.elements}, {"cpu_seconds", p.cpu_seconds}, {"origin", point_origin}};
        e["gpu_copy_seconds"] = p.gpu_copy_seconds ? nlohmann::json(*p.gpu_copy_seconds) : nlohmann::json(nullptr);
        e["gpu_resident_seconds"] =
            p.gpu_resident_seconds ? nlohmann::json(*p.gpu_resident_seconds) : nlohmann::json(nullptr);
        j["points"].push_back(e);
    }
    const auto elements = [](const std::optional<uint64_t>& e) { return e ? nlohmann::json(*e) : nlohmann::json(); };
    j["crossover_elements"] = elements(r.resident.elements);
    j["crossover_elements_with_copies"] = elements(r.with_copies.elements);
    if (r.resident.ranged) {  // [at best, at worst] over the profile's ranges; null: never in this sweep
        j["crossover_elements_range"] = {elements(r.resident.fast), elements(r.resident.slow)};
        j["crossover_elements_with_copies_range"] = {elements(r.with_copies.fast), elements(r.with_copies.slow)};
    }
    j["sentence"] = r.sentence;
    return j;
}

int run_sweep_command(const BenchCommandOptions& o, const ResolvedLaunch& resolved, const BackendChoice& b,
                      const DeviceProfile* model, bool pinned, const TimedProgram& program) {
    if (const Outcome<void> why = why_no_sweep(resolved, program, model, b); !why.done())
        return std::fprintf(stderr, "threadmap bench: %s\n", why.error.c_str()), 2;
    const KernelSpec& spec = resolved.spec();
    const SweepRange range = default_sweep_range(spec);
    const auto from = o.from.empty() ? Outcome<uint64_t>{range.from, {}} : parse_count(o.from, "--from");
    const auto to = o.to.empty() ? Outcome<uint64_t>{range.to, {}} : parse_count(o.to, "--to");
    const auto points = parse_count(o.points, "--points");
    for (const auto* p : {&from, &to, &points})
        if (!p->value) return std::fprintf(stderr, "threadmap bench: %s\n", p->error.c_str()), 2;
    if (*from.value < 1 || *to.value < *from.value || *to.value > range.max_to || *points.value < 2 ||
        *points.value > 200) {
        std::fprintf(stderr, "threadmap bench: the sweep needs 1 <= --from <= --to <= %llu and 2 to 200 --points\n",
                     (unsigned long long)range.max_to);
        return 2;
    }
    const SweepGpu gpu = sweep_gpu(model, b, pinned, program);
    const SweepResult r = run_sweep(swept_kernel(resolved), sweep_sizes(*from.value, *to.value, int(*points.value)),
                                    sweep_cpu_clock(program.element), gpu);
    const std::string point_origin = "cpu: measured, gpu: " + (gpu.origin.empty() ? std::string("none") : gpu.origin);
    if (o.csv) {
        std::fputs(sweep_csv(r).c_str(), stdout);
        return 0;
    }
    const nlohmann::json j = sweep_json(r, spec.name, gpu.device, pinned, program, point_origin);
    if (o.json) {
        std::printf("%s\n", j.dump(1).c_str());
        return 0;
    }
    std::printf("%12s %14s %18s %20s\n", "elements", "cpu (us)", "gpu+copies (us)", "gpu resident (us)");
    for (const auto& p : r.points)
        std::printf("%12llu %14.1f %18s %20s\n", (unsigned long long)p.elements, p.cpu_seconds * 1e6,
                    p.gpu_copy_seconds ? std::to_string(*p.gpu_copy_seconds * 1e6).c_str() : "-",
                    p.gpu_resident_seconds ? std::to_string(*p.gpu_resident_seconds * 1e6).c_str() : "-");
    std::printf("%s\n(%s)\n", r.sentence.c_str(), point_origin.c_str());
    return 0;
}

// The program timed: the lesson's, with --language, --dtype and --transfers on top.
Outcome<TimedProgram> program_from_flags(const BenchCommandOptions& o, TimedProgram program) {
    if (!o.language.empty()) {
        const auto l = parse_language(o.language);
        if (!l) return {std::nullopt, "--language must be cuda or numba, not '" + o.language + "'"};
        program.language = *l;
    }
    if (!o.dtype.empty()) {
        const auto e = parse_element(o.dtype);
        if (!e) return {std::nullopt, "--dtype must be float32 or float64, not '" + o.dtype + "'"};
        program.element = *e;
    }
    if (!o.transfers.empty()) {
        const auto t = parse_transfers(o.transfers);
        if (!t) return {std::nullopt, "--transfers must be explicit or host-arrays, not '" + o.transfers + "'"};
        program.transfers = *t;
    }
    return {program, {}};
}

}  // namespace

int run_bench_command(const BenchCommandOptions& o) {
    const auto fail = [](const std::string& why, int code) {
        std::fprintf(stderr, "threadmap bench: %s\n", why.c_str());
        return code;
    };
    if (o.device_profile == "list") return print_profiles();
    if (o.json && o.csv) return fail("choose --json or --csv", 2);
    // A --preset lesson sets the program, and its timing settings; the flags add to them.
    const LessonRun base = lesson_run(find_lesson(o.launch.preset));
    const auto chosen = program_from_flags(o, base.program);
    if (!chosen.value) return fail(chosen.error, 2);
    const TimedProgram& program = *chosen.value;
    if (program.language == HostLanguage::CudaCpp && program.transfers == Transfers::HostArrays)
        return fail("--transfers host-arrays is numba's way (CUDA C++ copies explicitly): add --language numba", 2);
    const bool pinned = o.pinned || base.pinned;
    const bool resident = o.resident || base.resident;
    const std::string repeat_text = !o.repeat.empty() ? o.repeat : std::to_string(base.repeats);
    const auto repeats = parse_count(repeat_text, "--repeat");
    if (!repeats.value) return fail(repeats.error, 2);
    if (*repeats.value < 1 || *repeats.value > kMaxRepeats)
        return fail("--repeat must be between 1 and " + std::to_string(kMaxRepeats), 2);

    // --backend model: timings from a device profile; the launch is checked as for the CPU.
    const auto timing = timing_backend(o.launch.backend, o.device_profile, base.profile);
    if (!timing.value) return fail(timing.error, 2);
    const DeviceProfile* model = timing.value->model;
    if (!model && !o.device_profile.empty()) return fail("--device-profile goes with --backend model", 2);
    LaunchOptions launch = o.launch;
    launch.backend = timing.value->backend;
    // The sweep chooses its own sizes, so any size resolves the kernel (the tutorial's ask for one).
    const FastKernel* tutorial = parse_kernel(launch.kernel);
    if (o.sweep && tutorial && launch.preset.empty() && launch.n.empty() && launch.rows.empty() &&
        launch.cols.empty()) {
        (is_matrix(tutorial) ? launch.rows : launch.n) = "1024";
        if (is_matrix(tutorial)) launch.cols = "1024";
    }
    const PrepareResult prepared = prepare_launch(launch);
    if (!prepared.value) return fail(prepared.error, 2);
    const BackendChoice& b = prepared.value->backend;
    const ResolvedLaunch& resolved = prepared.value->launch;
    if (o.sweep) return run_sweep_command(o, resolved, b, model, pinned, program);
    if (o.csv) return fail("--csv goes with --sweep (a single run prints JSON or a table)", 2);

    TimingRequest request{resolved, b, model, pinned, resident, int(*repeats.value), program};
    if (const Outcome<void> why = why_not_timed(request); !why.done()) return fail(why.error, 2);
    const Outcome<TimingReport> report = measure_timing(request);
    if (!report.value) return fail(report.error, 1);
    if (o.json)
        std::printf("%s\n", to_json(*report.value).dump(1).c_str());
    else
        print_text(*report.value);
    return 0;
}

}  // namespace threadmap
