// Learners' kernels benchmark, printed as JSON lines:
//  1. compile: the seed's increment_by_one typed by hand, compiled by the embedded Clang
//     (parse, instrument, optimise, link): the first compile in the process (LLVM's JIT
//     starting included) and the median of the next ones;
//  2. compile + first map: compile, bind, run in the locked-down child process (fork, seccomp,
//     the result back through a pipe) over 500 elements — what Ctrl+Enter costs before drawing;
//  3. run speed: the JIT-compiled increment against the built-in increment body, both in the
//     kernel model in this process over 4,194,304 elements with every access recorded, and the
//     JIT-compiled tiled matmul (16×16 tiles, two barriers per step) against matmul-tiled,
//     256×256×256;
//  4. warp functions: a sum of 4,194,304 ints whose warps add their lanes' values with
//     __shfl_down_sync (5 per thread) against the same sum through a shared-memory tree with
//     __syncthreads() (9 barriers per thread), both JIT-compiled, in the kernel model, and the
//     loads and atomics alone, so that a shuffle's and a barrier's own cost show.
// Usage: source-bench [--repeats N] (default 5; the median printed).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <vector>

#include "kernels/cuda/nvrtc_compiler.hpp"
#include "kernels/builtin/registry.hpp"
#include "kernels/model/model_emulator.hpp"
#include "kernels/kernel_host/isolated_run.hpp"
#include "kernels/source/source_binding.hpp"
#include "kernels/kernel_host/source_compiler.hpp"
#include "kernels/source/seed_source.hpp"

using namespace threadmap;

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

double median_ms(int repeats, const std::function<void()>& f) {
    std::vector<double> ms;
    for (int r = 0; r < repeats; ++r) {
        const auto t0 = Clock::now();
        f();
        ms.push_back(ms_since(t0));
    }
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
}

const char* const kIncrement = kSeedIncrementSource;

std::shared_ptr<const CompiledSource> compile(const std::string& text) {
    SourceCompile c = compile_source(text, "kernel.cu");
    if (!c.source) {
        std::fprintf(stderr, "source-bench: did not compile:\n%s", c.text.c_str());
        std::exit(1);
    }
    return c.source;
}

std::shared_ptr<const BoundKernel> bound(const std::shared_ptr<const CompiledSource>& s,
                                         const std::vector<std::string>& texts, bool isolated) {
    std::vector<SourceBinding> b;
    for (const std::string& t : texts) b.push_back(*parse_binding(t).value);
    auto k = bind_kernel(s, s->kernels[0], b, {isolated});
    if (!k.value) {
        std::fprintf(stderr, "source-bench: %s\n", k.error.c_str());
        std::exit(1);
    }
    return *k.value;
}

// A learner's kernel runs its blocks on one thread (its compiled code keeps the running thread
// in globals); a built-in one is run on one too, so that the ratio compares the code alone.
void must_run(ModelLaunch model_launch) {
    model_launch.workers = 1;
    const auto r = run_model(model_launch);
    if (!r.value) {
        std::fprintf(stderr, "source-bench: %s\n", r.error.c_str());
        std::exit(1);
    }
}

const uint64_t kElements = uint64_t(1) << 22;

// 1. The embedded Clang's compile, first in the process and warm, beside NVRTC's.
void bench_compile(int repeats) {
    const auto t0 = Clock::now();
    compile(kIncrement);
    const double first = ms_since(t0);
    const double warm = median_ms(repeats * 4, [] { compile(kIncrement); });
    std::printf("{\"case\": \"compile increment_by_one\", \"first_in_process_ms\": %.1f, \"warm_median_ms\": %.1f}\n",
                first, warm);
    // The same text through NVRTC, a GPU's run-time compiler (threadmap compile), side by side.
    const NvrtcCompile first_gpu = nvrtc_compile(kIncrement, "kernel.cu");
    if (first_gpu.compiled) {
        const double warm_gpu = median_ms(repeats * 4, [] { nvrtc_compile(kIncrement, "kernel.cu"); });
        std::printf(
            "{\"case\": \"NVRTC %s compiles increment_by_one for compute_90\", \"first_in_process_ms\": %.1f, "
            "\"warm_median_ms\": %.1f}\n",
            first_gpu.version.c_str(), first_gpu.milliseconds, warm_gpu);
    } else {
        std::printf("{\"case\": \"NVRTC\", \"not_run\": \"%s\"}\n",
                    (first_gpu.unavailable.empty() ? first_gpu.log : first_gpu.unavailable).c_str());
    }
}

// 2. Compile, bind and run in the locked-down child: what Ctrl+Enter costs before drawing.
void bench_first_map(int repeats) {
    const double first_map = median_ms(repeats * 4, [] {
        auto k = bound(compile(kIncrement), {"a=float[500]", "n=500"}, true);
        must_run({&k->spec, {}, {{2, 1, 1}, {256, 1, 1}}});
    });
    std::printf("{\"case\": \"compile + first map (child process), 500 elements\", \"median_ms\": %.1f}\n", first_map);
}

// 3. The JIT-compiled increment and tiled matmul against their built-in bodies.
void bench_run_speed(int repeats) {
    const uint64_t n = kElements;
    auto inc = bound(compile(kIncrement), {"a=float[" + std::to_string(n) + "]", "n=" + std::to_string(n)}, false);
    const LaunchConfig inc_launch{{uint32_t(n / 256), 1, 1}, {256, 1, 1}};
    const double jit_inc = median_ms(repeats, [&] { must_run({&inc->spec, {}, inc_launch}); });
    const KernelSpec& builtin_inc = *find_builtin_kernel("increment");
    const double builtin_inc_ms = median_ms(repeats, [&] { must_run({&builtin_inc, {n}, inc_launch}); });
    std::printf(
        "{\"case\": \"increment, %llu elements, model with reads and writes recorded\", \"jit_ms\": %.1f, "
        "\"builtin_ms\": %.1f, \"ratio\": %.2f}\n",
        (unsigned long long)n, jit_inc, builtin_inc_ms, jit_inc / builtin_inc_ms);

    const KernelSpec& tiled = *find_builtin_kernel("matmul-tiled");
    auto jit_tiled = compile(tiled.cuda_source);
    const uint64_t m = 256;
    std::vector<std::string> binds = {"A=float[256][256]:random", "B=float[256][256]:random", "C=float[256][256]"};
    for (const SourceParam& p : jit_tiled->kernels[0].params)
        if (!p.pointer) binds.push_back(p.name + "=" + std::to_string(m));
    auto jt = bound(jit_tiled, binds, false);
    const LaunchConfig tiled_launch{{16, 16, 1}, {16, 16, 1}};
    const Params tp(tiled.params.size(), m);
    const double jit_tiled_ms = median_ms(repeats, [&] { must_run({&jt->spec, {}, tiled_launch}); });
    const double builtin_tiled_ms = median_ms(repeats, [&] { must_run({&tiled, tp, tiled_launch}); });
    std::printf(
        "{\"case\": \"matmul-tiled 256x256x256 (barriers), model\", \"jit_ms\": %.1f, \"builtin_ms\": %.1f, "
        "\"ratio\": %.2f}\n",
        jit_tiled_ms, builtin_tiled_ms, jit_tiled_ms / builtin_tiled_ms);
}

// The sum's two ways: shuffles within each warp, or a shared tree over the block; and the
// loads and the lanes' atomics alone, what the two add to.
const char* const kSumByShuffles =
    "__global__ void sum(const int* in, int* out, int n) {\n"
    "    int v = 0;\n"
    "    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) v += in[i];\n"
    "    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffff, v, offset);\n"
    "    if (threadIdx.x % 32 == 0) atomicAdd(out, v);\n"
    "}\n";
const char* const kSumByTree =
    "__global__ void sum(const int* in, int* out, int n) {\n"
    "    __shared__ int s[256];\n"
    "    int v = 0;\n"
    "    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) v += in[i];\n"
    "    s[threadIdx.x] = v;\n"
    "    __syncthreads();\n"
    "    for (int k = blockDim.x / 2; k > 0; k /= 2) {\n"
    "        if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];\n"
    "        __syncthreads();\n"
    "    }\n"
    "    if (threadIdx.x == 0) atomicAdd(out, s[0]);\n"
    "}\n";
const char* const kSumAlone =
    "__global__ void sum(const int* in, int* out, int n) {\n"
    "    int v = 0;\n"
    "    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) v += in[i];\n"
    "    if (threadIdx.x % 32 == 0) atomicAdd(out, v);\n"
    "}\n";

// 4. A shuffle's and a barrier's own cost in the kernel model.
void bench_warp_functions(int repeats) {
    const uint64_t n = kElements;
    const std::vector<std::string> sum_binds = {"in=int[" + std::to_string(n) + "]:ones", "out=int[1]",
                                                "n=" + std::to_string(n)};
    const LaunchConfig sum_launch{{4096, 1, 1}, {256, 1, 1}};
    const auto time_sum = [&](const char* text) {
        auto k = bound(compile(text), sum_binds, false);
        return median_ms(repeats, [&] { must_run({&k->spec, {}, sum_launch}); });
    };
    const double shuffles_ms = time_sum(kSumByShuffles);
    const double tree_ms = time_sum(kSumByTree);
    const double neither_ms = time_sum(kSumAlone);
    const double threads = 4096.0 * 256;
    std::printf(
        "{\"case\": \"sum of %llu ints, 1,048,576 threads, model\", \"warp_shuffles_ms\": %.1f, "
        "\"shared_tree_with_barriers_ms\": %.1f, \"loads_and_atomics_alone_ms\": %.1f, "
        "\"ns_per_lane_per_shuffle\": %.1f, \"ns_per_thread_per_barrier\": %.1f}\n",
        (unsigned long long)n, shuffles_ms, tree_ms, neither_ms, (shuffles_ms - neither_ms) * 1e6 / threads / 5,
        (tree_ms - neither_ms) * 1e6 / threads / 9);
}

}  // namespace

int main(int argc, char** argv) {
    int repeats = 5;
    if (argc == 3 && std::strcmp(argv[1], "--repeats") == 0) repeats = std::max(1, std::atoi(argv[2]));
    bench_compile(repeats);
    bench_first_map(repeats);
    bench_run_speed(repeats);
    bench_warp_functions(repeats);
    return 0;
}
