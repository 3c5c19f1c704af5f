// GPU tests (ctest label "gpu"): the CUDA map against the emulator's for 1,000+ random valid
// launches and at a launch's limits, the kernels' results, the validator against the
// device's own launch errors, and the interop colours against host painting, pixel for
// pixel. With no usable device (or, for the interop, no EGL device on the CUDA device) the
// executable prints why and exits 77, which ctest reports as skipped (never as passed).
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "kernels/timing/cpu_reference.hpp"
#include "kernels/builtin/kernel_bodies.hpp"
#include "kernels/emulator/cpu_emulator.hpp"
#include "kernels/cuda/cuda_backend.hpp"
#include "kernels/core/executor.hpp"
#include "tests/random_launch.hpp"
#include "kernels/core/validation.hpp"
#if THREADMAP_HAS_GUI
#include "viz/draw/cuda_interop.hpp"
#include "viz/layout/map_layout.hpp"
#include "viz/draw/offscreen_context.hpp"
#endif

using namespace threadmap;

namespace {

// The first device's executor, made once.
Executor& gpu() {
    static const std::unique_ptr<Executor> executor = make_cuda_executor(0, "cuda:0");
    return *executor;
}

// Runs on the GPU and brings the map to the host, as the inspector and `map` do.
Outcome<LaunchResult> run_on_gpu(const Workload& workload, const LaunchConfig& launch) {
    Outcome<LaunchResult> r = gpu().run(workload, launch);
    if (r.value) {
        REQUIRE(r.value->device_map);  // the map stays on the device …
        REQUIRE_FALSE(r.value->has_host_map());
        REQUIRE(gpu().fetch_map(*r.value).done());  // … until something asks for it
        REQUIRE(r.value->has_host_map());
    }
    return r;
}

void compare(const Workload& workload, const LaunchConfig& launch) {
    CAPTURE(std::string(kernel_name(workload.kernel)));
    CAPTURE(to_string(launch.grid));
    CAPTURE(to_string(launch.block));
    const LaunchResult cpu = emulate(workload, launch, 0, OutputValues::Computed);
    const Outcome<LaunchResult> on_gpu = run_on_gpu(workload, launch);
    REQUIRE_MESSAGE(on_gpu.value, on_gpu.error);
    const LaunchResult& result = *on_gpu.value;
    REQUIRE(result.map.size() == cpu.map.size());
    // The first element that differs, if any (one REQUIRE per element is slow for millions).
    // Elements written once are race-free: same value. Several writers race on a GPU.
    uint64_t i = 0;
    for (; i < cpu.map.size(); ++i) {
        const bool touched = cpu.map.touches[i] > 0, once = cpu.map.touches[i] <= 1;
        if (result.map.touches[i] != cpu.map.touches[i] ||
            (touched && result.map.first_toucher[i] != cpu.map.first_toucher[i]) ||
            (once && result.data.out[i] != cpu.data.out[i]))
            break;
    }
    if (i < cpu.map.size()) {
        CAPTURE(i);
        CHECK(result.map.touches[i] == cpu.map.touches[i]);
        CHECK(result.map.first_toucher[i] == cpu.map.first_toucher[i]);
        CHECK(result.data.out[i] == cpu.data.out[i]);
        FAIL("the GPU's map differs from the emulator's");
    }
    CHECK(result.stats.threads_active == cpu.stats.threads_active);
    CHECK(result.stats.threads_idle == cpu.stats.threads_idle);
    CHECK(result.stats.elements_untouched == cpu.stats.elements_untouched);
    CHECK(result.stats.elements_multi == cpu.stats.elements_multi);
    CHECK(result.stats.warps == cpu.stats.warps);
}

}  // namespace

TEST_CASE("the CUDA map equals the emulator's for 1000+ random valid launches") {
    RandomLaunches random(4242);
    // THREADMAP_GPU_TRIALS: fewer under compute-sanitizer, which runs each launch far slower.
    const char* trials_env = std::getenv("THREADMAP_GPU_TRIALS");
    const int trials = trials_env ? std::max(1, std::atoi(trials_env)) : 1200;
    for (int trial = 0; trial < trials; ++trial) {
        const LaunchConfig launch = random.launch(trial);
        REQUIRE_FALSE(validate_launch(launch, cc90_profile()));
        compare(random.workload(trial), launch);
    }
}

TEST_CASE("the CUDA map equals the emulator's at the limits of a launch") {
    // gridDim.x past 65,535 (only x may be); 1,024-thread blocks; blockDim.z = 64 (its limit),
    // where the x-only index makes 64 threads write each element; the emulator's thread cap.
    compare(array_workload(&IncrementBody::kernel, 70000 * 32 - 5), {{70000, 1, 1}, {32, 1, 1}});
    compare(array_workload(&IncrementStrideBody::kernel, 3'000'000), {{70000, 1, 1}, {32, 1, 1}});
    compare(array_workload(&IncrementBody::kernel, 100'000), {{98, 1, 1}, {1024, 1, 1}});
    compare(matmul_workload(&MatmulXColBody::kernel, 64, 64, 8), {{2, 2, 1}, {32, 32, 1}});
    compare(array_workload(&IncrementBody::kernel, 300), {{10, 1, 1}, {1, 1, 64}});
    compare(array_workload(&IncrementBody::kernel, 5000), {{1u << 20, 1, 1}, {1024, 1, 1}});  // 2^30 threads
}

TEST_CASE("a launch of more than 2^32 threads is refused for the GPU map, with its own reason") {
    const Outcome<LaunchResult> g =
        gpu().run(array_workload(&IncrementBody::kernel, 16), {{1u << 23, 1, 1}, {1024, 1, 1}});
    REQUIRE_FALSE(g.value);
    CHECK(g.error.find("32 bits") != std::string::npos);
}

TEST_CASE("the kernels compute what the CPU reference computes") {
    for (const FastKernel* k : {&MatmulBody::kernel, &MatmulXColBody::kernel}) {
        const Workload workload = matmul_workload(k, 300, 300, 200);
        const Outcome<LaunchResult> g = run_on_gpu(workload, {covering_grid(workload, {32, 32, 1}), {32, 32, 1}});
        REQUIRE_MESSAGE(g.value, g.error);
        const std::vector<float> ref = cpu_reference_result(workload);
        for (size_t i = 0; i < ref.size(); ++i) REQUIRE(g.value->data.out[i] == ref[i]);
    }
    const Workload inc = array_workload(&IncrementBody::kernel, 1 << 20);
    const Outcome<LaunchResult> g = run_on_gpu(inc, {covering_grid(inc, {256, 1, 1}), {256, 1, 1}});
    REQUIRE(g.value);
    const std::vector<float> ref = cpu_reference_result(inc);
    for (size_t i = 0; i < ref.size(); ++i) REQUIRE(g.value->data.out[i] == ref[i]);
}

TEST_CASE("the validator rejects exactly the limit cases the device rejects") {
    const CudaDevices d = list_cuda_devices();
    REQUIRE_FALSE(d.devices.empty());
    const DeviceLimits limits = d.devices.front().limits;
    const LaunchConfig cases[] = {
        {{1, 1, 1}, {1024, 1, 1}},  {{1, 1, 1}, {1025, 1, 1}},  {{1, 1, 1}, {32, 33, 1}},   {{1, 1, 1}, {1, 1, 64}},
        {{1, 1, 1}, {1, 1, 65}},    {{1, 65535, 1}, {1, 1, 1}}, {{1, 65536, 1}, {1, 1, 1}}, {{1, 1, 65535}, {1, 1, 1}},
        {{1, 1, 65536}, {1, 1, 1}}, {{0, 1, 1}, {32, 1, 1}},    {{1, 1, 1}, {0, 1, 1}},
    };
    for (const auto& l : cases) {
        CAPTURE(to_string(l.grid));
        CAPTURE(to_string(l.block));
        const bool ours = !validate_launch(l, limits).has_value();
        const Outcome<LaunchResult> g = run_on_gpu(array_workload(&IncrementBody::kernel, 16), l);
        CHECK(ours == g.value.has_value());
        if (!ours) CHECK(g.error.find("cudaErrorInvalidConfiguration") != std::string::npos);
    }
}

#if THREADMAP_HAS_GUI
// Set when the interop test found no EGL device for the CUDA device: the run then exits 77.
std::string interop_skipped;

TEST_CASE("interop colours equal host-painted colours - pixel for pixel, every mode and palette") {
    const auto opened = OffscreenContext::open(0);  // GL on the EGL device that is CUDA device 0
    REQUIRE_MESSAGE(opened.value, opened.error);
    const OffscreenContext& context = **opened.value;
    MESSAGE("GL: " << context.description());
    if (!context.on_cuda_device()) {
        interop_skipped = "interop: " + context.description();
        return;
    }
    CellGridRenderer renderer;
    CudaGlPainter painter;
    const std::pair<Workload, Dim3> launches[] = {
        {matmul_workload(&MatmulBody::kernel, 200, 200, 200), Dim3{32, 32, 1}},
        {array_workload(&IncrementBody::kernel, 500), Dim3{32, 1, 1}},
        {matmul_workload(&MatmulXColBody::kernel, 90, 70, 5), Dim3{8, 4, 4}},  // threadIdx.z varies; multi-writers
    };
    for (const auto& [w, block] : launches) {
        const LaunchConfig launch{covering_grid(w, block), block};
        CAPTURE(to_string(launch.block));
        const LaunchResult result = emulate(w, launch);
        const Outcome<LaunchResult> g = gpu().run(w, launch);  // painted from the device map in place
        REQUIRE_MESSAGE(g.value, g.error);
        const auto layout = make_layout(w, launch, {1}, 16384);
        REQUIRE(layout.value);
        for (ColorMode mode : {ColorMode::Block, ColorMode::ThreadX, ColorMode::ThreadY, ColorMode::ThreadZ,
                               ColorMode::Global, ColorMode::Warp, ColorMode::Lane, ColorMode::Coverage})
            for (Palette palette : {Palette::Standard, Palette::ColorBlindSafe}) {
                CAPTURE(int(mode));
                CAPTURE(int(palette));
                const ColorContext color{mode, palette, launch.grid, launch.block};
                const std::string why = painter.paint(renderer, *layout.value, *g.value, color);
                REQUIRE_MESSAGE(why.empty(), why);
                const std::vector<Rgba8> gpu = renderer.read_cells();
                std::vector<Rgba8> host(gpu.size());
                colorize_layout(*layout.value, result.map, color, host.data());
                REQUIRE(gpu.size() == host.size());
                const auto differs = std::mismatch(gpu.begin(), gpu.end(), host.begin());
                CAPTURE(differs.first - gpu.begin());
                REQUIRE(differs.first == gpu.end());
            }
    }
}
#endif

int main(int argc, char** argv) {
    const CudaDevices d = list_cuda_devices();
    if (d.devices.empty()) {
        std::printf("SKIPPED: no usable CUDA device (%s)\n", d.reason.c_str());
        return 77;  // ctest: SKIP_RETURN_CODE
    }
#if THREADMAP_HAS_GUI
    const char* interop = "";
#else
    const char* interop = "; built without the GUI: no interop test";
#endif
    std::printf("GPU tests on %s (cc %d.%d)%s\n", d.devices.front().name.c_str(), d.devices.front().cc_major,
                d.devices.front().cc_minor, interop);
    doctest::Context context(argc, argv);
    const int failed = context.run();
#if THREADMAP_HAS_GUI
    if (failed == 0 && !interop_skipped.empty()) {
        std::printf("SKIPPED: %s\n", interop_skipped.c_str());
        return 77;  // every other test passed; the interop could not be tried
    }
#endif
    return failed;
}
