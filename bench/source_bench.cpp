// Learners' kernels benchmark, printed as JSON lines:
//  1. compile: the seed's increment_by_one typed by hand, compiled by the embedded Clang
//     (parse, instrument, optimise, link): the first compile in the process (LLVM's JIT
//     starting included) and the median of the next ones;
//  2. compile + first map: compile, bind, run in the locked-down child process (fork, seccomp,
//     the result back through a pipe) over 500 elements — what Ctrl+Enter costs before drawing;
//  3. run speed: the JIT-compiled increment against the built-in increment body, both in the
//     kernel model in this process over 4,194,304 elements with every access recorded, and the
//     JIT-compiled tiled matmul (16×16 tiles, two barriers per step) against matmul-tiled,
//     256×256×256.
// Usage: source-bench [--repeats N] (default 5; the median printed).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <vector>

#include "nvrtc_compiler.hpp"
#include "builtin/registry.hpp"
#include "model/model_emulator.hpp"
#include "source_binding.hpp"
#include "source_compiler.hpp"
#include "source/seed_source.hpp"

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
void must_run(ModelLaunch l) {
    l.workers = 1;
    const auto r = run_model(l);
    if (!r.value) {
        std::fprintf(stderr, "source-bench: %s\n", r.error.c_str());
        std::exit(1);
    }
}

}  // namespace

int main(int argc, char** argv) {
    int repeats = 5;
    if (argc == 3 && std::strcmp(argv[1], "--repeats") == 0) repeats = std::max(1, std::atoi(argv[2]));

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

    const double first_map = median_ms(repeats * 4, [] {
        auto k = bound(compile(kIncrement), {"a=float[500]", "n=500"}, true);
        must_run({&k->spec, {}, {{2, 1, 1}, {256, 1, 1}}});
    });
    std::printf("{\"case\": \"compile + first map (child process), 500 elements\", \"median_ms\": %.1f}\n", first_map);

    const uint64_t n = uint64_t(1) << 22;
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
    return 0;
}
