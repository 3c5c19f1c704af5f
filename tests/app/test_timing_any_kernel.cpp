// Any built-in kernel is timed by the model: its bytes from its global arrays at the launch,
// its flops as its spec declares, its sectors counted by the memory view and its waves from
// its resources — none refused by name. A kernel the timing model cannot price (a learner's,
// with no CPU reference; a float64 program of float32 arrays) is refused with the reason.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "tests/run_binary.hpp"
#include "kernels/builtin/kernel_bodies.hpp"
#include "kernels/builtin/registry.hpp"
#include "app/launch/device_profiles.hpp"
#include "kernels/timing/spec_cost.hpp"
#include "app/reports/timing_report.hpp"
#include "app/launch/timing_sectors.hpp"

using namespace threadmap;

namespace {

void check_same_cost(const WorkloadCost& spec, const WorkloadCost& workload) {
    CHECK(spec.h2d_bytes == workload.h2d_bytes);
    CHECK(spec.d2h_bytes == workload.d2h_bytes);
    CHECK(spec.kernel_bytes == workload.kernel_bytes);
    CHECK(spec.flops == workload.flops);
    CHECK(spec.array_arguments == workload.array_arguments);
    CHECK(spec.allocations_per_call == workload.allocations_per_call);
}

ResolvedLaunch resolved(const std::string& kernel) {
    LaunchOptions o;
    o.kernel = kernel;
    o.backend = "cpu";
    if (const auto tutorial = parse_kernel(kernel)) {  // the tutorial's kernels take their size from the user
        if (is_matrix(tutorial))
            o.rows = o.cols = "200";
        else
            o.n = "500";
    }
    auto r = resolve_launch(o);
    REQUIRE_MESSAGE(r.value, r.error);
    return *r.value;
}

TimingReport modeled(const ResolvedLaunch& resolved) {
    TimingRequest q{resolved, cpu_backend("test"), find_device_profile("h200")};
    q.repeats = 3;
    auto r = measure_timing(q);
    REQUIRE_MESSAGE(r.value, r.error);
    return *r.value;
}

const StageFigures& stage_of(const TimingReport& r, const std::string& name) {
    for (const auto& s : r.stages)
        if (s.name == name) return s;
    FAIL("no stage " << name);
    return r.stages.front();
}

}  // namespace

TEST_CASE("the tutorial's kernels cost the same through their spec as through their workload") {
    for (const Transfers transfers : {Transfers::Explicit, Transfers::HostArrays}) {
        const TimedProgram program{transfers == Transfers::HostArrays ? HostLanguage::Numba : HostLanguage::CudaCpp,
                                   ElementType::Float32, transfers};
        CAPTURE(describe(program));
        const LaunchConfig launch{{16, 1, 1}, {32, 1, 1}};
        check_same_cost(spec_cost(*find_builtin_kernel("increment"), {500}, launch, program).value.value(),
                        workload_cost(array_workload(&IncrementBody::kernel, 500), program));
        // The seed's shapes: C 200×200 from A 300×200 and B 200×300.
        Workload seed = matmul_workload(&MatmulBody::kernel, 200, 200, 200);
        seed.a_rows = seed.b_cols = 300;
        check_same_cost(
            spec_cost(*find_builtin_kernel("matmul"), {200, 200, 200, 300, 300}, launch, program).value.value(),
            workload_cost(seed, program));
    }
}

TEST_CASE("every built-in kernel is timed by the model - its arrays' bytes, its sectors, its waves") {
    for (const KernelSpec* spec : builtin_kernels()) {
        CAPTURE(spec->name);
        const ResolvedLaunch l = resolved(spec->name);
        const TimingReport r = modeled(l);
        CHECK(r.kernel == spec->name);
        CHECK(r.backend == "model");
        for (const char* name : {"h2d", "kernel", "d2h"}) {
            CHECK(stage_of(r, name).origin == "modeled");
            CHECK(stage_of(r, name).seconds_median > 0);
        }
        CHECK(r.cpu_reference.origin == "measured");
        CHECK(r.cpu_reference.seconds_median > 0);
        // Small launches: every one's sectors are counted, and its waves accounted.
        CHECK(r.note.find("sectors: ") != std::string::npos);
        const auto cost = launch_cost(l, {}, *find_device_profile("h200"), true);
        REQUIRE(cost.value);
        CHECK(cost.value->cost.global_sectors > 0);
        CHECK(cost.value->cost.blocks == l.launch.blocks());
        CHECK(cost.value->cost.wave_slots > 0);
    }
}

TEST_CASE("a spec's bytes are its global arrays at the launch: the transpose's in and out, a partial sum per block") {
    // transpose-naive: in 200×300 floats copied in, out 300×200 back, each once through DRAM.
    const TimingReport t = modeled(resolved("transpose-naive"));
    CHECK(stage_of(t, "h2d").bytes == 240'000);
    CHECK(stage_of(t, "d2h").bytes == 240'000);
    CHECK(stage_of(t, "kernel").bytes == 480'000);
    CHECK(t.flops == 0);
    // reduce-sequential: 65,536 values in, 256 partial sums (grid 256) back; an add per value.
    const TimingReport r = modeled(resolved("reduce-sequential"));
    CHECK(stage_of(r, "h2d").bytes == 262'144);
    CHECK(stage_of(r, "d2h").bytes == 1'024);
    CHECK(stage_of(r, "kernel").bytes == 263'168);
    CHECK(r.flops == 65'536);
    // matmul-tiled: a multiply-add per (i, j, k).
    CHECK(modeled(resolved("matmul-tiled")).flops == 2.0 * 200 * 200 * 200);
}

TEST_CASE("the naive transpose's strided stores request more sectors than the tiled one's") {
    const DeviceProfile& h200 = *find_device_profile("h200");
    const auto sectors = [&](const char* kernel) {
        return launch_cost(resolved(kernel), {}, h200, true).value.value().cost.global_sectors;
    };
    CHECK(sectors("transpose-naive") > 3 * sectors("transpose-tiled"));
    CHECK(sectors("transpose-tiled") == sectors("transpose-tiled-padded"));
}

TEST_CASE("bench times any built-in kernel with the model - and says why where it cannot") {
    const RunResult ok = run_threadmap({"bench", "--kernel", "stencil-1d", "--backend", "model", "--device-profile",
                                        "h200", "--repeat", "3", "--json"});
    REQUIRE_MESSAGE(ok.exit_code == 0, ok.err);
    const auto j = nlohmann::json::parse(ok.out);
    CHECK(j["kernel"] == "stencil-1d");
    CHECK(j["stages"][1]["name"] == "kernel");
    CHECK(j["stages"][1]["origin"] == "modeled");
    CHECK(j["cpu_reference"]["origin"] == "measured");
    const RunResult fp64 = run_threadmap({"bench", "--kernel", "transpose-tiled", "--backend", "model",
                                          "--device-profile", "h200", "--dtype", "float64"});
    CHECK(fp64.exit_code == 2);
    CHECK(fp64.err.find("arrays have the types its CUDA text declares") != std::string::npos);
    // A learner's kernel has no CPU reference to sweep against.
    const std::string cu = temp_source_file(
        "sweep.cu", "__global__ void k(float* a, int n) { int i = threadIdx.x; if (i < n) a[i] = 1; }\n");
    const RunResult learner = run_threadmap({"bench", "--source", cu, "--bind", "a=float[64]", "--bind", "n=64",
                                             "--backend", "model", "--device-profile", "h200", "--sweep"});
    CHECK(learner.exit_code == 2);
    CHECK(learner.err.find("no CPU reference") != std::string::npos);
}
