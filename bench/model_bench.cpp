// Kernel-model benchmark, printed as JSON lines, each case against its peer where one exists:
//  1. matmul 300×200×300 (the tutorial's C 200×200 from A 300×200, B 200×300, grid 16×16,
//     block 32×32): the model with every read and write recorded (races and hazards checked)
//     on one thread against the model recording writes only, and against the fast write-only
//     emulator; and the same spread over every core; and the findings level on one thread, in
//     equal ranges of blocks per core, and in ranges cut by the covering grid (its work lies in
//     the grid's first half);
//  2. matmul-tiled 1024×1024×1024 (16×16 tiles, two barriers per step) in the model, its blocks
//     spread over every core (run_model's default) against one thread;
//  3. reduce-sequential over 16,000,000 values (block 256: 9 barriers per thread), in ns per
//     thread per barrier — the whole run divided by threads × barriers, accesses included, so
//     an upper bound on a barrier's cost — against the same kernel with its barriers run
//     as no-ops (run to completion);
//  4. the memory view (accesses grouped into warp requests, sectors and wavefronts counted):
//     the tutorial's matmul and increment over 16,777,216 elements as `threadmap memory` runs
//     them (no per-element records or hazards), each against the model run `check` makes, and
//     as the window runs it for its map (only the mapped array's accesses grouped, its
//     requests kept, its costs);
//  5. the recording levels side by side, per kernel: the fast emulator (writers only, the
//     tutorial's kernels), findings only (`check`, map's JSON), every access with per-element
//     records (the window's map) and warp requests (the memory view), in ms and in ns per
//     recorded access, blocks spread over every core as run_model does by default; for the
//     findings level also the CPU time per access (every core's: the cost per access per core).
// Usage: model-bench [--repeats N] [matmul|tiled|reduce|memory|levels ...] (default: 3 repeats,
// the median printed; every case).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <functional>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "kernels/builtin/registry.hpp"
#include "kernels/builtin/kernel_bodies.hpp"
#include "kernels/emulator/cpu_emulator.hpp"
#include "kernels/model/model_emulator.hpp"
#include "kernels/model/model_thread.hpp"

using namespace threadmap;

namespace {

// The process's CPU time so far (every thread's), in ms.
double cpu_ms() {
    timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return double(t.tv_sec) * 1e3 + double(t.tv_nsec) / 1e6;
}

// The run of median wall time among `repeats`: its wall and CPU time (all cores'), in ms.
struct Timed {
    double wall_ms, cpu_ms;
};
Timed median_timed(int repeats, const std::function<void()>& f) {
    std::vector<Timed> runs;
    for (int r = 0; r < repeats; ++r) {
        const double cpu0 = cpu_ms();
        const auto t0 = std::chrono::steady_clock::now();
        f();
        runs.push_back({std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count(),
                        cpu_ms() - cpu0});
    }
    std::sort(runs.begin(), runs.end(), [](const Timed& a, const Timed& b) { return a.wall_ms < b.wall_ms; });
    return runs[runs.size() / 2];
}

double median_ms(int repeats, const std::function<void()>& f) { return median_timed(repeats, f).wall_ms; }

// keep: the array whose requests of `op` are kept whole, as the window's warp inspector asks.
// workers: 0 spreads the blocks over every core (run_model's default), 1 runs them on one.
ModelResult model(const KernelSpec& spec, const Params& p, const LaunchConfig& launch, bool requests = false,
                  size_t keep = SIZE_MAX, AccessOp op = AccessOp::Store, unsigned workers = 0,
                  bool keep_records = true) {
    ModelLaunch model_launch{&spec, p, launch};
    model_launch.keep_records = keep_records ? ModelLaunch::kAllArrays : 0;
    model_launch.workers = workers;
    model_launch.record_requests = requests;
    model_launch.keep_requests = keep;
    model_launch.keep_op = op;
    model_launch.record_elements = !requests;  // as `threadmap memory` runs it
    model_launch.max_accesses = UINT64_MAX;    // the tiled matmul makes 2.4 billion
    auto r = run_model(model_launch);
    if (!r.value) {
        std::fprintf(stderr, "model-bench: %s\n", r.error.c_str());
        std::exit(1);
    }
    return std::move(*r.value);
}

// 1. the tutorial's matmul
void bench_matmul(int repeats) {
    Workload workload = matmul_workload(&MatmulBody::kernel, 200, 200, 200);
    workload.a_rows = 300;
    workload.b_cols = 300;
    const LaunchConfig launch{{16, 16, 1}, {32, 32, 1}};
    const double fast = median_ms(repeats, [&] { emulate(workload, launch); });
    uint64_t accesses = 0;
    const KernelSpec& spec = *find_builtin_kernel("matmul");
    const Params p = {200, 200, 200, 300, 300};
    // On one thread, as the writes-only run (which is never spread); then spread over the cores.
    const double recorded =
        median_ms(repeats, [&] { accesses = model(spec, p, launch, false, SIZE_MAX, {}, 1).accesses; });
    const double spread = median_ms(repeats, [&] { model(spec, p, launch); });
    const double writes_only = median_ms(repeats, [&] {
        ModelLaunch model_launch{&spec, p, launch};
        model_launch.record_reads = false;
        if (!run_model(model_launch).value) std::exit(1);
    });
    // The findings level (`check`): on one thread, cut into equal ranges of blocks, one per core
    // (its work, all in the grid's first half, on one of them), and as chosen (shares of the
    // blocks within the covering grid: model_range_starts).
    const unsigned cores = std::max(1u, std::min(8u, std::thread::hardware_concurrency()));
    const auto findings = [&](unsigned ranges) {
        return median_ms(repeats, [&] { model(spec, p, launch, false, SIZE_MAX, {}, ranges, false); });
    };
    const double findings_one = findings(1), findings_equal = findings(cores), findings_chosen = findings(0);
    std::printf(
        "{\"bench\":\"matmul_300x200x300\",\"fast_emulator_ms\":%.1f,\"model_writes_recorded_ms\":%.1f,"
        "\"model_reads_and_writes_recorded_ms\":%.1f,\"ratio_to_writes_recorded\":%.2f,"
        "\"ratio_to_fast_emulator\":%.2f,\"reads_and_writes_spread_over_cores_ms\":%.1f,\"accesses\":%llu,"
        "\"findings_one_thread_ms\":%.1f,\"findings_equal_ranges_ms\":%.1f,\"findings_ranges_by_covering_grid_ms\":%."
        "1f}\n",
        fast, writes_only, recorded, recorded / writes_only, recorded / fast, spread, (unsigned long long)accesses,
        findings_one, findings_equal, findings_chosen);
}

// 2. tiled matmul with barriers
void bench_tiled(int repeats) {
    const KernelSpec& spec = *find_builtin_kernel("matmul-tiled");
    const Params p = {1024, 1024, 1024, 1024, 1024};
    const LaunchConfig launch{spec.covering_grid(p, spec.default_block), spec.default_block};
    uint64_t accesses = 0;
    const auto run = [&](unsigned workers) {
        return median_ms(repeats, [&] { accesses = model(spec, p, launch, false, SIZE_MAX, {}, workers).accesses; });
    };
    const double spread = run(0), one = run(1);
    std::printf("{\"bench\":\"matmul_tiled_1024\",\"ms\":%.1f,\"one_thread_ms\":%.1f,\"cores\":%u,\"accesses\":%llu}\n",
                spread, one, std::thread::hardware_concurrency(), (unsigned long long)accesses);
}

// 3. barriers: reduce-sequential, with fibers and with its barriers as no-ops
void bench_reduce(int repeats) {
    const KernelSpec& spec = *find_builtin_kernel("reduce-sequential");
    const Params p = {16'000'000};
    const LaunchConfig launch{spec.covering_grid(p, {256, 1, 1}), {256, 1, 1}};
    const double fibers = median_ms(repeats, [&] { model(spec, p, launch); });
    KernelSpec flat = spec;  // the same accesses, run to completion: barriers do nothing
    flat.uses_barriers = false;
    flat.body = [](ModelThread& t) {
        const auto in = t.array<float>(0), partial = t.array<float>(1), sdata = t.array<float>(2);
        const uint32_t tid = t.threadIdx.x;
        const uint64_t i = uint64_t(t.blockIdx.x) * t.blockDim.x + tid;
        sdata.store(tid, i < t.param(0) ? in.load(i, 5) : 0.0f, 5);
        for (uint32_t s = t.blockDim.x / 2; s > 0; s >>= 1)
            if (tid < s) sdata.store(tid, sdata.load(tid, 9) + sdata.load(tid + s, 9), 9);
        if (tid == 0) partial.store(t.blockIdx.x, sdata.load(0, 13), 13);
    };
    const double flat_ms = median_ms(repeats, [&] { model(flat, p, launch); });
    const double threads = double(launch.blocks()) * 256, barriers = 9;
    std::printf(
        "{\"bench\":\"reduce_sequential_16M_block256\",\"with_barriers_ms\":%.0f,\"barriers_as_noops_ms\":%.0f,"
        "\"ns_per_thread_per_barrier\":%.1f,\"barrier_overhead_ns_per_thread_per_barrier\":%.1f}\n",
        fibers, flat_ms, fibers * 1e6 / (threads * barriers), (fibers - flat_ms) * 1e6 / (threads * barriers));
}

// 4. the memory view against the same run without it
void bench_memory(int repeats) {
    struct Case {
        const char* name;
        const char* kernel;
        Params params;
        LaunchConfig launch;
        AccessOp kept;  // the window's warp inspector keeps array 0's requests of this access
        size_t mapped;  // the array the window maps (its stores)
    };
    const Case memory_cases[] = {
        {"memory_view_seed_matmul", "matmul", {200, 200, 200, 300, 300}, {{16, 16, 1}, {32, 32, 1}}, AccessOp::Load, 2},
        {"memory_view_increment_16M",
         "increment",
         {uint64_t(1) << 24},
         {{1 << 16, 1, 1}, {256, 1, 1}},
         AccessOp::Store,
         0},
    };
    for (const Case& c : memory_cases) {
        const KernelSpec& spec = *find_builtin_kernel(c.kernel);
        const double check =
            median_ms(repeats, [&] { model(spec, c.params, c.launch, false, SIZE_MAX, {}, 0, false); });
        uint64_t requests = 0;
        const double view = median_ms(repeats, [&] {
            const ModelResult result = model(spec, c.params, c.launch, true);
            requests = 0;
            for (const MemorySite& s : result.memory->sites) requests += s.requests;
        });
        size_t kept = 0;
        const double keeping = median_ms(
            repeats, [&] { kept = model(spec, c.params, c.launch, true, 0, c.kept).memory->kept_requests.size(); });
        // As the window runs it for its map: the mapped array's store requests kept, and only its
        // per-element costs (ModelLaunch::cost_array).
        const double window = median_ms(repeats, [&] {
            ModelLaunch m{&spec, c.params, c.launch};
            m.record_requests = true;
            m.record_elements = false;
            m.keep_requests = c.mapped;
            m.keep_op = AccessOp::Store;
            m.cost_array = c.mapped;
            m.requests_array = c.mapped;  // the Map tab's view: the mapped array's requests only
            if (!run_model(m).value) std::exit(1);
        });
        std::printf(
            "{\"bench\":\"%s\",\"check_run_ms\":%.1f,\"memory_view_run_ms\":%.1f,"
            "\"requests\":%llu,\"memory_view_keeping_%s_requests_of_array_0_ms\":%.1f,\"kept\":%zu,"
            "\"memory_view_as_the_window_maps_its_output_ms\":%.1f}\n",
            c.name, check, view, (unsigned long long)requests, c.kept == AccessOp::Load ? "load" : "store", keeping,
            kept, window);
    }
}

// 5. the recording levels side by side
void bench_levels(int repeats) {
    struct Level {
        const char* kernel;
        Params params;
        Dim3 block;
        std::optional<Workload> fast;  // the fast emulator's twin, when it has one
    };
    Workload seed = matmul_workload(&MatmulBody::kernel, 200, 200, 200);
    seed.a_rows = seed.b_cols = 300;
    const Level levels[] = {
        {"increment", {uint64_t(1) << 24}, {256, 1, 1}, array_workload(&IncrementBody::kernel, uint64_t(1) << 24)},
        {"matmul", {200, 200, 200, 300, 300}, {32, 32, 1}, seed},
        {"transpose-tiled", {2048, 2048}, {32, 32, 1}, std::nullopt},
        {"reduce-sequential", {uint64_t(1) << 22}, {256, 1, 1}, std::nullopt},
        {"matmul-tiled", {256, 256, 256, 256, 256}, {16, 16, 1}, std::nullopt},
    };
    for (const Level& c : levels) {
        const KernelSpec& spec = *find_builtin_kernel(c.kernel);
        const LaunchConfig launch{spec.covering_grid(c.params, c.block), c.block};
        uint64_t accesses = 0;
        const Timed findings_timed = median_timed(
            repeats, [&] { accesses = model(spec, c.params, launch, false, SIZE_MAX, {}, 0, false).accesses; });
        const double findings = findings_timed.wall_ms;
        const double records = median_ms(repeats, [&] { model(spec, c.params, launch); });
        const double requests = median_ms(repeats, [&] { model(spec, c.params, launch, true); });
        const double fast = c.fast ? median_ms(repeats, [&] { emulate(*c.fast, launch); }) : -1;
        const auto ns = [&](double ms) { return ms * 1e6 / double(accesses); };
        char fast_text[32] = "null";
        if (fast >= 0) std::snprintf(fast_text, sizeof fast_text, "%.1f", fast);
        std::printf(
            "{\"bench\":\"levels_%s\",\"accesses\":%llu,\"fast_emulator_ms\":%s,\"findings_ms\":%.1f,"
            "\"findings_ns_per_access\":%.1f,\"findings_cpu_ns_per_access\":%.1f,\"records_ms\":%.1f,"
            "\"records_ns_per_access\":%.1f,\"requests_ms\":%.1f,\"requests_ns_per_access\":%.1f}\n",
            c.kernel, (unsigned long long)accesses, fast_text, findings, ns(findings), ns(findings_timed.cpu_ms),
            records, ns(records), requests, ns(requests));
    }
}

}  // namespace

int main(int argc, char** argv) {
    int repeats = 3;
    std::vector<std::string> cases;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--repeats") == 0 && i + 1 < argc)
            repeats = std::max(1, std::atoi(argv[++i]));
        else
            cases.push_back(argv[i]);
    }
    const auto wanted = [&](const char* name) {
        return cases.empty() || std::find(cases.begin(), cases.end(), name) != cases.end();
    };

    if (wanted("matmul")) bench_matmul(repeats);
    if (wanted("tiled")) bench_tiled(repeats);
    if (wanted("reduce")) bench_reduce(repeats);
    if (wanted("memory")) bench_memory(repeats);
    if (wanted("levels")) bench_levels(repeats);
    return 0;
}
