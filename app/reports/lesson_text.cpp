// Lesson figures; see lesson_text.hpp.
#include "app/reports/lesson_text.hpp"

#include <algorithm>
#include <cstdio>
#include <mutex>

#include "kernels/emulator/cpu_emulator.hpp"
#include "app/launch/device_profiles.hpp"
#include "app/launch/launch_options.hpp"
#include "kernels/builtin/kernel_bodies.hpp"
#include "kernels/builtin/registry.hpp"
#include "kernels/model/model_array_stats.hpp"
#include "app/launch/model_launch.hpp"
#include "kernels/core/number_text.hpp"
#include "kernels/source/kernel_host_client.hpp"
#include "app/reports/occupancy_report.hpp"
#include "kernels/source/seed_source.hpp"
#include "app/launch/source_launch.hpp"
#include "app/launch/timing_sectors.hpp"

namespace threadmap {

std::string grouped(uint64_t value) {
    std::string digits = std::to_string(value);
    if (digits.size() <= 4) return digits;
    for (int i = int(digits.size()) - 3; i > 0; i -= 3) digits.insert(size_t(i), ",");
    return digits;
}

namespace {

std::string dims(const Dim3& d) {
    std::string s = std::to_string(d.x);
    if (d.y > 1 || d.z > 1) s += "x" + std::to_string(d.y);
    if (d.z > 1) s += "x" + std::to_string(d.z);
    return s;
}

std::string percent(uint64_t part, uint64_t whole) {
    return whole ? std::to_string((part * 100 + whole / 2) / whole) + "%" : "0%";
}

// The memory view's figures of a launch: "store_sectors" (per request), "store_ideal",
// "load_sectors", "load_ideal", "store_bytes_times" (sectors over the ideal), with `prefix`.
void add_memory_figures(const ModelLaunch& launch, const std::string& prefix, std::map<std::string, std::string>& f) {
    ModelLaunch model_launch = launch;
    model_launch.record_requests = true;
    model_launch.record_elements = false;
    const auto run = run_model(model_launch);
    if (!run.value) return;
    for (AccessOp op : {AccessOp::Load, AccessOp::Store}) {
        const MemoryTotals t = memory_totals(run.value->memory->sites, MemorySpace::Global, op);
        if (t.requests == 0) continue;
        const std::string name = prefix + access_op_name(op);
        f[name + "_sectors"] = decimals(double(t.sectors) / double(t.requests));
        f[name + "_ideal"] = decimals(double(t.ideal_sectors) / double(t.requests));
        f[name + "_requests"] = grouped(t.requests);
        if (t.ideal_sectors) f[name + "_bytes_times"] = decimals(double(t.sectors) / double(t.ideal_sectors));
        // Shared memory: wavefronts per request (1: no bank conflict) and the worst request.
        const MemoryTotals sh = memory_totals(run.value->memory->sites, MemorySpace::Shared, op);
        if (sh.requests == 0) continue;
        f[prefix + "shared_" + access_op_name(op) + "_wavefronts"] =
            decimals(double(sh.wavefronts) / double(sh.requests));
        f[prefix + "shared_" + access_op_name(op) + "_ways_max"] = grouped(sh.conflict_ways_max);
        f[prefix + "shared_" + access_op_name(op) + "_requests"] = grouped(sh.requests);
        f[prefix + "shared_" + access_op_name(op) + "_lanes"] = decimals(double(sh.active_lanes) / double(sh.requests));
    }
}

// A tutorial kernel's modeled execution time on the H200 profile, its sectors counted (the
// timing model: kernels/timing/timing_model.hpp), in microseconds: "{prefix}kernel_us".
void add_modeled_kernel_time(const Workload& workload, const LaunchConfig& launch, const TimedProgram& program,
                             const std::string& prefix, std::map<std::string, std::string>& f) {
    const DeviceProfile* profile = find_device_profile("h200");
    if (!profile) return;
    WorkloadCost cost = workload_cost(workload, program);
    add_waves(cost, workload, launch, *profile);
    add_sectors(cost, workload, launch, *profile, program.element);
    if (cost.global_sectors == 0) return;  // not counted: no figure rather than a different model's
    f[prefix + "kernel_us"] = decimals(modeled_kernel_seconds(*profile, cost) * 1e6);
    f[prefix + "global_sectors"] = grouped(cost.global_sectors);
}

// A model kernel's figures: its parameters by name, the map's counts (who wrote or read its
// mapped array), its __shared__ bytes per block and its findings by kind.
void add_model_figures(const ResolvedLaunch& resolved, std::map<std::string, std::string>& f) {
    const ModelKernel& k = *resolved.model;
    for (size_t i = 0; i < k.spec->params.size(); ++i) f[k.spec->params[i].name] = grouped(k.params[i]);
    f["shared_bytes"] = grouped(shared_bytes_per_block(*k.spec, k.params, resolved.launch.block));
    const auto run = run_model(model_launch_for(resolved));
    if (!run.value) return;
    uint64_t untouched = 0, multi = 0;
    for (const ElementRecord& e : run.value->arrays[k.array].records) {
        const uint32_t threads = k.reads ? e.readers : e.writers;
        untouched += threads == 0;
        multi += threads > 1;
    }
    const LaunchStats stats = model_array_stats(*run.value, k.array, k.reads, resolved.launch, k.shared());
    f["threads_active"] = grouped(stats.threads_active);
    f["threads_idle"] = grouped(stats.threads_idle);
    f["elements"] = grouped(run.value->arrays[k.array].records.size());
    f["elements_untouched"] = grouped(untouched);
    f["elements_multi"] = grouped(multi);
    const char* names[kFindingKinds] = {"out_of_bounds", "races", "hazards", "uninitialized_reads",
                                        "divergent_barriers"};
    for (size_t i = 0; i < kFindingKinds; ++i) f[names[i]] = grouped(run.value->counts[i]);
}

// The tutorial kernels' figures, from the emulator's map.
void add_tutorial_figures(const Workload& workload, const LaunchConfig& launch, std::map<std::string, std::string>& f) {
    const LaunchStats s = emulate(workload, launch).stats;
    f["threads_active"] = grouped(s.threads_active);
    f["threads_idle"] = grouped(s.threads_idle);
    f["idle_percent"] = percent(s.threads_idle, s.threads_launched);
    f["elements"] = grouped(s.elements);
    f["elements_untouched"] = grouped(s.elements_untouched);
    f["elements_multi"] = grouped(s.elements_multi);
    f["stride"] = grouped(uint64_t(launch.block.x) * launch.grid.x);
    if (is_matrix(workload.kernel)) {
        f["rows"] = grouped(workload.rows);
        f["cols"] = grouped(workload.cols);
        f["inner"] = grouped(workload.inner);
        f["a_rows"] = grouped(workload.a_rows);
        f["b_cols"] = grouped(workload.b_cols);
        f["stores"] = grouped(workload.inner);
        f["row_bytes"] = grouped(workload.cols * 4);  // a row of C in float32
        const uint64_t product = workload.a_rows * workload.b_cols;
        f["missing_percent"] = percent(product - workload.rows * workload.cols, product);
    } else {
        f["n"] = grouped(workload.n);
    }
}

// A first-launch lesson's just-in-time compiles, measured now: the seed's increment_by_one
// through Clang (the kernel model's compiler, as the Editor runs it) and NVRTC (a GPU's).
void add_compile_figures(std::map<std::string, std::string>& f) {
    const SourceAttempt clang = compile_and_bind(kSeedIncrementSource, "increment.cu", "", {}, 0, kKernelLimits);
    f["clang_compile"] =
        clang.compiled ? decimals(clang.compile_ms, 0) + " ms" : "no time (this threadmap was built without Clang)";
    const NvrtcCompile nvrtc = nvrtc_compile_in_host(kSeedIncrementSource, "increment.cu", "compute_90");
    f["nvrtc_compile"] = nvrtc.compiled
                             ? decimals(nvrtc.milliseconds, 0) + " ms"
                             : "no time (" + (nvrtc.unavailable.empty() ? nvrtc.log : nvrtc.unavailable) + ")";
}

// An occupancy lesson's figures, on its GPU.
void add_occupancy_figures(const Lesson& lesson, const ResolvedLaunch& launch, std::map<std::string, std::string>& f) {
    if (!lesson.occupancy_profile.empty()) {  // the occupancy lesson's GPU
        const auto gpu = resolve_occupancy_gpu(lesson.occupancy_profile, "", "");
        const ModelLaunch model_launch = model_launch_for(launch);
        const auto resources = gpu.value ? launch_resources(model_launch, gpu.value->sm, std::nullopt, std::nullopt)
                                         : Outcome<LaunchResources>(failure_of(gpu));
        if (resources.value) {
            const OccupancyReport r = occupancy_report(model_launch, *gpu.value, *resources.value);
            const Occupancy& o = r.occupancy;
            f["sms"] = grouped(uint64_t(r.gpu.sms));
            f["cc"] = r.gpu.sm.name();
            f["registers"] = grouped(uint64_t(resources.value->resources.registers_per_thread));
            f["blocks_per_sm"] = grouped(uint64_t(o.active_blocks_per_sm));
            f["active_warps"] = grouped(uint64_t(o.active_warps_per_sm));
            f["max_warps"] = grouped(uint64_t(o.max_warps_per_sm));
            f["empty_warps"] = grouped(uint64_t(o.max_warps_per_sm - o.active_warps_per_sm));
            f["occupancy"] = percent(uint64_t(o.active_warps_per_sm), uint64_t(o.max_warps_per_sm));
            f["slots"] = grouped(r.waves.slots);
            f["waves"] = grouped(r.waves.waves);
            const uint64_t last = r.waves.blocks - (r.waves.waves - 1) * r.waves.slots;
            f["last_wave_blocks"] = grouped(last);
            f["idle_tail_percent"] = percent(r.waves.slots - last, r.waves.slots);
            f["shared_per_block"] = grouped(resources.value->resources.shared_bytes_per_block);
            // What each resource allows on its own, and shared memory as the SM allots it.
            f["warps_per_block"] = grouped(uint64_t(o.warps_per_block));
            f["blocks_by_warps"] = grouped(uint64_t(o.limit_warps));
            f["blocks_by_shared"] = grouped(uint64_t(o.limit_shared));
            f["allocated_shared"] = grouped(o.allocated_shared_per_block);
            f["shared_per_sm"] = grouped(o.shared_per_sm_config);
        }
    }
}

std::map<std::string, std::string> compute_figures(const Lesson& lesson) {
    LaunchOptions o;
    o.preset = lesson.name;
    const auto resolved = resolve_launch(o);
    std::map<std::string, std::string> f;
    if (!resolved.value) return f;
    const Workload& workload = resolved.value->workload;
    const LaunchConfig& launch = resolved.value->launch;
    f["grid"] = dims(launch.grid);
    f["block"] = dims(launch.block);
    f["threads_per_block"] = grouped(launch.threads_per_block());
    f["blocks"] = grouped(launch.blocks());
    f["threads_launched"] = grouped(launch.blocks() * launch.threads_per_block());
    if (lesson.own_kernel)  // its number bindings ("n=1000"): the {n} of its text
        for (const std::string& b : lesson.own_kernel->binds) {
            const size_t eq = b.find('=');
            const auto v = parse_count(b.substr(eq + 1), b.substr(0, eq));
            if (eq != std::string::npos && v.value) f[b.substr(0, eq)] = grouped(*v.value);
        }
    if (resolved.value->model)
        add_model_figures(*resolved.value, f);
    else
        add_tutorial_figures(workload, launch, f);
    add_occupancy_figures(lesson, *resolved.value, f);
    if (lesson.timing && lesson.timing->first_launch) add_compile_figures(f);
    if (lesson.memory) {  // its launch, and for a matmul the same with x on the other axis
        const ModelLaunch model_launch = model_launch_for(*resolved.value);
        add_memory_figures(model_launch, "", f);
        if (!lesson.compare_kernel.empty() || lesson.compare_params) {  // the launch it is set against
            ModelLaunch other = model_launch;
            if (!lesson.compare_kernel.empty()) other.spec = find_builtin_kernel(lesson.compare_kernel);
            if (lesson.compare_params) other.params = *lesson.compare_params;
            add_memory_figures(other, "other_", f);
        } else if (is_matrix(workload.kernel)) {
            ModelLaunch other = model_launch;
            other.spec = find_builtin_kernel(workload.kernel == &MatmulBody::kernel ? "matmul-xcol" : "matmul");
            std::swap(other.launch.grid.x, other.launch.grid.y);
            f["other_kernel"] = other.spec->name;
            add_memory_figures(other, "other_", f);
            Workload other_w = workload;
            other_w.kernel = other.spec->fast;
            add_modeled_kernel_time(workload, launch, lesson.program, "", f);
            add_modeled_kernel_time(other_w, other.launch, lesson.program, "other_", f);
        }
    }
    return f;
}

}  // namespace

using Figures = std::map<std::string, std::string>;

namespace {

std::mutex g_cache_mutex;                // held briefly: the cache's map
std::map<std::string, Figures> g_cache;  // by lesson; entries never move or go
std::mutex g_compute_mutex;              // one lesson's runs at a time (they share the cores)

}  // namespace

const Figures& lesson_figures(const Lesson& lesson) {
    if (const Figures* done = cached_lesson_figures(lesson)) return *done;
    std::lock_guard<std::mutex> computing(g_compute_mutex);
    if (const Figures* done = cached_lesson_figures(lesson)) return *done;  // another thread's
    Figures figures = compute_figures(lesson);
    std::lock_guard<std::mutex> lock(g_cache_mutex);
    return g_cache.emplace(lesson.name, std::move(figures)).first->second;
}

const Figures* cached_lesson_figures(const Lesson& lesson) {
    std::lock_guard<std::mutex> lock(g_cache_mutex);
    const auto it = g_cache.find(lesson.name);
    return it == g_cache.end() ? nullptr : &it->second;
}

std::string lesson_text_shown(const std::string& text, const Figures* figures) {
    std::string s = figures ? fill_lesson_text(text, *figures) : fill_lesson_text(text, {}, "\u2026");
    s.erase(std::remove(s.begin(), s.end(), '`'), s.end());
    return s;
}

std::string fill_lesson_text(const std::string& text, const std::map<std::string, std::string>& figures,
                             const char* unknown) {
    std::string out;
    for (size_t i = 0; i < text.size();) {
        const size_t open = text.find('{', i);
        const size_t close = open == std::string::npos ? open : text.find('}', open);
        if (close == std::string::npos) {
            out += text.substr(i);
            break;
        }
        const auto f = figures.find(text.substr(open + 1, close - open - 1));
        out += text.substr(i, open - i) + (f != figures.end() ? f->second
                                           : unknown          ? std::string(unknown)
                                                              : text.substr(open, close - open + 1));
        i = close + 1;
    }
    return out;
}

}  // namespace threadmap
