// A learner's kernel, typed as CUDA C++: Clang compiles it in-process, the kernel model runs it
// with every access recorded, and the results and findings are those of the same kernel built in.
#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <cfloat>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>

#include "kernels/builtin/registry.hpp"
#include "kernels/kernel_host/isolated_run.hpp"
#include "kernels/model/model_emulator.hpp"
#include "kernels/model/model_thread.hpp"
#include "kernels/source/source_binding.hpp"
#include "kernels/kernel_host/source_compiler.hpp"
#include "kernels/source/seed_source.hpp"
#include "tests/source/source_test_helpers.hpp"

using namespace threadmap;
using namespace threadmap::test;

namespace {

const char* const kIncrement = kSeedIncrementSource;

}  // namespace

TEST_CASE("the seed's increment, typed by hand, adds one to every element and names its parameters") {
    auto s = compiled(kIncrement);
    REQUIRE(s->kernels.size() == 1);
    const SourceKernel& k = s->kernels[0];
    CHECK(k.name == "increment_by_one");
    REQUIRE(k.params.size() == 2);
    CHECK(k.params[0].pointer);
    CHECK(k.params[0].name == "a");
    CHECK(!k.params[1].pointer);
    auto b = bound(s, {"a=float[500]:index", "n=500"});
    const ModelResult result = run(*b, {4, 1, 1}, {128, 1, 1});
    const ArrayResult& a = result.arrays[0];
    REQUIRE(a.bits.size() == 500);
    for (size_t i = 0; i < 500; ++i) CHECK(std::bit_cast<float>(a.bits[i]) == float(i) + 1);
    CHECK(a.records[499].first_writer == 499);
    CHECK(a.records[7].readers == 1);
    CHECK(result.findings.empty());
}

TEST_CASE("without the guard, threads past the end are out of bounds on the line of the access") {
    auto s = compiled(
        "__global__ void increment_by_one(float* a) {\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    a[i] = a[i] + 1;\n"
        "}\n");
    auto b = bound(s, {"a=float[500]"});
    const ModelResult result = run(*b, {4, 1, 1}, {128, 1, 1});
    CHECK(result.counts[size_t(FindingKind::OutOfBounds)] == 24);  // 12 threads read, then write
    REQUIRE(!result.findings.empty());
    CHECK(result.findings[0].line == 3);
    CHECK(result.findings[0].array == "a");
}

TEST_CASE("the cells past the end: each is the smallest thread whose index lands there, on random 2D launches") {
    // The map draws these; here they are listed straight from the kernel's index formula.
    auto s = compiled(
        "__global__ void fill(float* C, int cols) {\n"
        "    int j = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    int i = blockIdx.y * blockDim.y + threadIdx.y;\n"
        "    C[i * cols + j] = 1;\n"
        "}\n");
    std::mt19937 rng(5);
    uint64_t trials_with_past = 0, trials_with_elsewhere = 0;
    const auto pick = [&](uint32_t lo, uint32_t hi) { return std::uniform_int_distribution<uint32_t>(lo, hi)(rng); };
    for (int trial = 0; trial < 30; ++trial) {
        // The first: 40x40 under a launch of 96x192 threads, whose last index lies 6,135 past the
        // end, beyond the window of three times the array.
        const bool first = trial == 0;
        const uint64_t rows = first ? 40 : pick(1, 40), cols = first ? 40 : pick(1, 40), size = rows * cols;
        const Dim3 block = first ? Dim3{16, 16, 1} : Dim3{pick(1, 16), pick(1, 16), 1};
        const Dim3 grid = first ? Dim3{6, 12, 1} : Dim3{pick(1, 6), pick(1, 12), 1};
        CAPTURE(rows);
        CAPTURE(cols);
        CAPTURE(block.x);
        CAPTURE(block.y);
        CAPTURE(grid.x);
        CAPTURE(grid.y);
        auto k = bound(
            s, {"C=float[" + std::to_string(rows) + "][" + std::to_string(cols) + "]", "cols=" + std::to_string(cols)});
        const ModelResult result = run(*k, grid, block);
        std::vector<PastRecord> want;
        uint64_t elsewhere = 0;
        const uint64_t tpb = uint64_t(block.x) * block.y;
        for (uint32_t by = 0; by < grid.y; ++by)
            for (uint32_t bx = 0; bx < grid.x; ++bx)
                for (uint32_t ty = 0; ty < block.y; ++ty)
                    for (uint32_t tx = 0; tx < block.x; ++tx) {
                        const uint64_t j = uint64_t(bx) * block.x + tx, i = uint64_t(by) * block.y + ty;
                        const uint64_t index = i * cols + j;
                        if (index < size) continue;
                        if (index - size >= std::max<uint64_t>(3 * size, 4096)) {
                            ++elsewhere;
                            continue;
                        }
                        const uint32_t id = uint32_t((uint64_t(by) * grid.x + bx) * tpb + uint64_t(ty) * block.x + tx);
                        if (index - size >= want.size()) want.resize(index - size + 1);
                        PastRecord& p = want[index - size];
                        p.first_writer = std::min(p.first_writer, id);
                        ++p.writes;
                    }
        CHECK(result.arrays[0].past == want);
        CHECK(result.arrays[0].past_elsewhere == elsewhere);
        trials_with_past += !want.empty();
        trials_with_elsewhere += elsewhere > 0;
    }
    CHECK(trials_with_past > 20);  // the launches reach past the arrays, some beyond the window
    CHECK(trials_with_elsewhere > 0);
}

TEST_CASE("a 2D block on a 1D kernel: two threads write each element, a write-write race") {
    auto s = compiled(kIncrement);
    auto b = bound(s, {"a=float[64]", "n=64"});
    const ModelResult result = run(*b, {1, 1, 1}, {64, 2, 1});
    CHECK(result.counts[size_t(FindingKind::WriteWriteRace)] == 64);
}

// An array behind a const pointer keeps no ordering state (reads alone are no finding); a kernel
// that writes it anyway is run again with it kept, and its race is found as for any array.
TEST_CASE("a const array written through a const_cast: its write-write race is found, its values are the writes'") {
    auto s = compiled(
        "__global__ void k(const int* in, int* out) {\n"
        "    out[threadIdx.x] = in[threadIdx.x];\n"
        "    const_cast<int*>(in)[threadIdx.x / 2] = threadIdx.x;\n"
        "}\n");
    auto b = bound(s, {"in=int[32]:index", "out=int[32]"});
    const ModelResult result = run(*b, {1, 1, 1}, {32, 1, 1});
    CHECK(result.counts[size_t(FindingKind::WriteWriteRace)] == 16);  // threads 2k and 2k+1 on in[k]
    CHECK(result.arrays[0].bits[3] == 7);                             // the later thread's write
    CHECK(result.arrays[1].bits[31] == 31);
}

TEST_CASE(
    "a tiled matmul with __shared__ tiles and barriers multiplies exactly, and without the second barrier has "
    "hazards") {
    const std::string tiled =
        "#define TILE 16\n"
        "__global__ void matmul(const float* A, const float* B, float* C, int n) {\n"
        "    __shared__ float As[TILE][TILE];\n"
        "    __shared__ float Bs[TILE][TILE];\n"
        "    int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;\n"
        "    float sum = 0;\n"
        "    for (int t = 0; t < n / TILE; ++t) {\n"
        "        As[threadIdx.y][threadIdx.x] = A[row * n + t * TILE + threadIdx.x];\n"
        "        Bs[threadIdx.y][threadIdx.x] = B[(t * TILE + threadIdx.y) * n + col];\n"
        "        __syncthreads();\n"
        "        for (int k = 0; k < TILE; ++k) sum += As[threadIdx.y][k] * Bs[k][threadIdx.x];\n"
        "        SYNC\n"
        "    }\n"
        "    C[row * n + col] = sum;\n"
        "}\n";
    for (const bool second_barrier : {true, false}) {
        CAPTURE(second_barrier);
        std::string text = tiled;
        text.replace(text.find("SYNC"), 4, second_barrier ? "__syncthreads();" : "");
        auto s = compiled(text);
        const SourceKernel& k = s->kernels[0];
        CHECK(k.uses_barriers);
        REQUIRE(k.shared.size() == 2);
        CHECK(k.shared[0].name == "As");
        CHECK(k.shared[0].shape == std::vector<uint64_t>{16, 16});
        auto b = bound(s, {"A=float[32][32]:random:3", "B=float[32][32]:random:4", "C=float[32][32]", "n=32"});
        const ModelResult result = run(*b, {2, 2, 1}, {16, 16, 1});
        if (second_barrier) {
            CHECK(result.findings.empty());
            std::vector<uint32_t> a(32 * 32), bb(32 * 32);
            b->spec.fill_input({}, 0, a);
            b->spec.fill_input({}, 1, bb);
            for (int i = 0; i < 32; ++i)
                for (int j = 0; j < 32; ++j) {
                    float sum = 0;  // the kernel's own order of additions
                    for (int t = 0; t < 32; ++t)
                        sum += std::bit_cast<float>(a[i * 32 + t]) * std::bit_cast<float>(bb[t * 32 + j]);
                    CHECK(std::bit_cast<float>(result.arrays[2].bits[i * 32 + j]) == sum);
                }
        } else {
            CHECK(result.counts[size_t(FindingKind::ReadWriteHazard)] > 0);
        }
    }
}

TEST_CASE("a syntax error comes back with Clang's file, line, column and caret") {
    SourceCompile c = compile_source("__global__ void k(float* a) {\n    a[0] = 1\n}\n", "mine.cu");
    CHECK(!c.source);
    REQUIRE(!c.diagnostics.empty());
    CHECK(c.diagnostics[0].error);
    CHECK(c.diagnostics[0].file == "mine.cu");
    CHECK(c.diagnostics[0].line == 2);
    CHECK(c.diagnostics[0].column == 13);
    CHECK(c.text.find("mine.cu:2:13: error: expected ';'") != std::string::npos);
    CHECK(c.text.find("^") != std::string::npos);
    // The compiler is fine afterwards.
    CHECK(compile_source(kIncrement, "kernel.cu").source);
}

TEST_CASE("the limits of <cfloat>, <climits>, <cstdint> and CUDA's math_constants.h hold the host's values") {
    // The expected values are this test's own compiler's headers (x86-64, as nvcc's host).
    auto s = compiled(
        "#include <cfloat>\n"
        "#include <climits>\n"
        "#include <cstdint>\n"
        "#include <math_constants.h>\n"
        "__global__ void k(float* f, double* d, long long* i) {\n"
        "    f[0] = FLT_MAX; f[1] = FLT_MIN; f[2] = FLT_EPSILON; f[3] = CUDART_PI_F; f[4] = CUDART_INF_F;\n"
        "    f[5] = -FLT_MAX;\n"
        "    d[0] = DBL_MAX; d[1] = DBL_EPSILON; d[2] = M_PI; d[3] = CUDART_PI; d[4] = M_SQRT2;\n"
        "    i[0] = INT_MIN; i[1] = UINT_MAX; i[2] = LLONG_MIN; i[3] = CHAR_MIN; i[4] = USHRT_MAX;\n"
        "    i[5] = INT8_MIN; i[6] = UINT16_MAX; i[7] = INT64_MAX; i[8] = SIZE_MAX == UINT64_MAX;\n"
        "}\n");
    auto k = bound(s, {"f=float[6]", "d=double[5]", "i=long long[9]"});
    const ModelResult result = run(*k, {1, 1, 1}, {1, 1, 1});
    const auto f = [&](size_t e) { return std::bit_cast<float>(result.arrays[0].bits[e]); };
    const auto d = [&](size_t e) { return std::bit_cast<double>(wide(result.arrays[1], e)); };
    const auto i = [&](size_t e) { return int64_t(wide(result.arrays[2], e)); };
    CHECK(f(0) == FLT_MAX);
    CHECK(f(1) == FLT_MIN);
    CHECK(f(2) == FLT_EPSILON);
    CHECK(f(3) == 3.141592654f);
    CHECK(std::isinf(f(4)));
    CHECK(f(5) == -FLT_MAX);
    CHECK(d(0) == DBL_MAX);
    CHECK(d(1) == DBL_EPSILON);
    CHECK(d(2) == M_PI);
    CHECK(d(3) == M_PI);
    CHECK(d(4) == M_SQRT2);
    CHECK(i(0) == INT_MIN);
    CHECK(i(1) == UINT_MAX);
    CHECK(i(2) == LLONG_MIN);
    CHECK(i(3) == CHAR_MIN);
    CHECK(i(4) == USHRT_MAX);
    CHECK(i(5) == INT8_MIN);
    CHECK(i(6) == UINT16_MAX);
    CHECK(i(7) == INT64_MAX);
    CHECK(i(8) == 1);
}

TEST_CASE("a kernel cannot call the host: system() and fopen() do not link") {
    for (const char* call : {"system(\"touch /tmp/threadmap-pwned\")", "(long)fopen(\"/etc/passwd\", \"r\")"}) {
        CAPTURE(call);
        const std::string text = std::string(
                                     "extern \"C\" int system(const char*);\n"
                                     "extern \"C\" void* fopen(const char*, const char*);\n"
                                     "__global__ void k(int* a) { a[0] = ") +
                                 call + "; }\n";
        SourceCompile c = compile_source(text, "kernel.cu");
        CHECK(!c.source);
        CHECK(c.text.find("nothing of the host") != std::string::npos);
    }
}

TEST_CASE("atomicAdd into shared memory and back: a block-level histogram with no race") {
    auto s = compiled(
        "__global__ void hist(const int* data, int* bins, int n) {\n"
        "    __shared__ int local[4];\n"
        "    if (threadIdx.x < 4) local[threadIdx.x] = 0;\n"
        "    __syncthreads();\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i < n) atomicAdd(&local[data[i] % 4], 1);\n"
        "    __syncthreads();\n"
        "    if (threadIdx.x < 4) atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);\n"
        "}\n");
    auto b = bound(s, {"data=int[1000]:index", "bins=int[4]", "n=1000"});
    const ModelResult result = run(*b, {8, 1, 1}, {128, 1, 1});
    CHECK(result.findings.empty());
    for (int bin = 0; bin < 4; ++bin) CHECK(result.arrays[1].bits[bin] == 250);
}

TEST_CASE("a kernel that loops forever is stopped at the time limit, naming the kernel and its last line") {
    auto s = compiled(
        "__global__ void spin(int* a) {\n"
        "    int i = 0;\n"
        "    while (a[0] == 0) i++;\n"
        "    a[1] = i;\n"
        "}\n");
    std::vector<SourceBinding> b = {*parse_binding("a=int[2]").value};
    auto k = bind_kernel(s, s->kernels[0], b, {true, 0.5});
    REQUIRE(k.value);
    ModelLaunch model_launch{&(*k.value)->spec, {}, {{1, 1, 1}, {1, 1, 1}}};
    model_launch.max_accesses = UINT64_MAX;  // only the time limit stops it
    const auto r = run_model(model_launch);
    REQUIRE(!r.value);
    CHECK(r.error.find("kernel spin ran past the time limit of 0.5 s") != std::string::npos);
    CHECK(r.error.find("last line it reached was 3") != std::string::npos);
    // With an access budget the model stops it itself, mid-thread (an exception through the
    // compiled code's frames).
    model_launch.max_accesses = 100000;
    const auto budget = run_model(model_launch);
    REQUIRE(!budget.value);
    CHECK(budget.error.find("more than 100000 loads and stores") != std::string::npos);
}

TEST_CASE("a kernel that crashes is reported with its signal and its last printed lines, and the next run works") {
    auto s = compiled(
        "__global__ void wild(int* a, int n) {\n"
        "    int* p = (int*)(long)n;\n"
        "    for (int k = 0; k < 15; ++k) printf(\"step %d\\n\", k); a[0] = 1;\n"
        "    p[0] = 2;\n"
        "}\n");
    auto b = bound(s, {"a=int[1]", "n=64"});
    const auto r = run_model({&b->spec, {}, {{1, 1, 1}, {1, 1, 1}}});
    REQUIRE(!r.value);
    INFO(r.error);
    CHECK(r.error.find("kernel wild crashed with SIGSEGV") != std::string::npos);
    CHECK(r.error.find("last line it reached was 4") != std::string::npos);
    // What a learner debugging with printf looks for: the last 10 lines before the crash.
    CHECK(r.error.find("It printed 15 times; the last lines kept:\nstep 5\nstep 6\n") != std::string::npos);
    CHECK(r.error.substr(r.error.size() - 8) == "\nstep 14");
    auto fine = bound(compiled(kIncrement), {"a=float[10]", "n=10"});
    CHECK(run_model({&fine->spec, {}, {{1, 1, 1}, {32, 1, 1}}}).value);
}

TEST_CASE("inline assembly is refused at compile time (it could make system calls of its own)") {
    SourceCompile c = compile_source(
        "__global__ void sneaky(int* a) {\n"
        "    long r;\n"
        "    asm volatile(\"syscall\" : \"=a\"(r) : \"a\"(39L));\n"
        "    a[0] = (int)r;\n"
        "}\n",
        "kernel.cu");
    CHECK(!c.source);
    CHECK(c.text.find("kernel.cu:3: error: inline assembly") != std::string::npos);
}

TEST_CASE("the kernel's process is locked down: opening a file kills it with SIGSYS") {
    KernelSpec spec;
    spec.name = "opener";
    spec.arrays.push_back({"a", MemorySpace::Global, ValueType::Int32, ArrayRole::InOut,
                           [](const Params&, const LaunchConfig&) { return std::vector<uint64_t>{1}; }});
    spec.fill_input = [](const Params&, size_t, std::vector<uint32_t>&) {};
    spec.body = [](ModelThread& t) { t.array<int>(0).store(0, std::fopen("/etc/hostname", "r") ? 1 : 2, 1); };
    spec.run_apart = [](const ModelLaunch& model_launch, const std::atomic<bool>* cancel) {
        return run_isolated(model_launch, cancel, RunLimits{5});
    };
    const auto r = run_model({&spec, {}, {{1, 1, 1}, {1, 1, 1}}});
    REQUIRE(!r.value);
    CHECK(r.error.find("kernel opener crashed with SIGSYS") != std::string::npos);
}

TEST_CASE("unsigned atomicMax compares as unsigned, atomicMin and atomicExch do what CUDA's do") {
    auto s = compiled(
        "__global__ void extremes(const unsigned* v, unsigned* big, int* small, int* last, int n) {\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i < n) {\n"
        "        atomicMax(big, v[i]);\n"
        "        atomicMin(small, (int)v[i] - 50);\n"
        "        atomicExch(last, i);\n"
        "    }\n"
        "}\n");
    auto b = bound(s, {"v=unsigned[100]:index", "big=unsigned[1]", "small=int[1]", "last=int[1]", "n=100"});
    KernelSpec spec = b->spec;  // v holds 3,000,000,000 + i: above 2^31, negative as an int
    spec.fill_input = [](const Params&, size_t index, std::vector<uint32_t>& bits) {
        for (size_t i = 0; i < bits.size(); ++i) bits[i] = index == 0 ? 3000000000u + uint32_t(i) : 0u;
    };
    const auto r = run_model({&spec, {}, {{1, 1, 1}, {128, 1, 1}}});
    REQUIRE(r.value);
    CHECK(r.value->arrays[1].bits[0] == 3000000099u);
    CHECK(int32_t(r.value->arrays[2].bits[0]) == int32_t(3000000000u) - 50);
    CHECK(r.value->arrays[3].bits[0] == 99);  // threads run in order here: the last one's exchange stays
    CHECK(r.value->findings.empty());
}

TEST_CASE("the warp inspector's kept requests come back from the kernel's process as the built-in's") {
    // The seed's matmul typed by hand (its Code tab text), run in its locked-down child, and
    // the built-in body here: the same loads of A, warp by warp, in the same order.
    const KernelSpec* builtin = find_builtin_kernel("matmul");
    const auto k = bound(compiled(builtin->cuda_source), {"A=float[64][48]", "B=float[48][64]", "C=float[64][64]",
                                                          "rows=64", "cols=64", "inner=48", "b_cols=64"});
    ModelLaunch typed{&k->spec, {}, {{2, 2, 1}, {32, 32, 1}}};
    ModelLaunch here{builtin, {64, 64, 48, 64, 64}, typed.launch};
    for (ModelLaunch* model_launch : {&typed, &here}) {
        model_launch->record_requests = true;
        model_launch->record_elements = false;
        model_launch->keep_requests = 0;  // A
        model_launch->keep_op = AccessOp::Load;
    }
    const auto a = run_model(typed), b = run_model(here);
    REQUIRE_MESSAGE(a.value, a.error);
    REQUIRE(b.value);
    const MemoryView &t = *a.value->memory, &h = *b.value->memory;
    REQUIRE(t.kept_requests.size() == h.kept_requests.size());
    CHECK(t.kept_requests.size() == 4 * 32 * 48);  // 4 blocks of 32 warps, 48 loads of A each
    CHECK(t.kept_request_of == h.kept_request_of);
    bool same = true;
    for (size_t i = 0; i < t.kept_requests.size(); ++i) {
        const KeptRequest &x = t.kept_requests[i], &y = h.kept_requests[i];
        same = same && x.warp == y.warp && x.execution == y.execution && x.line == y.line &&
               x.request.mask == y.request.mask &&
               std::equal(std::begin(x.request.index), std::end(x.request.index), std::begin(y.request.index));
    }
    CHECK(same);
    // A's requests alone (a map of A coloured by sectors): the child groups only those too.
    typed.requests_array = 0;
    const auto alone = run_model(typed);
    REQUIRE_MESSAGE(alone.value, alone.error);
    const MemoryView& o = *alone.value->memory;
    REQUIRE(o.sites.size() == 1);
    CHECK(o.sites[0].array == 0);
    CHECK(o.kept_requests.size() == t.kept_requests.size());
    CHECK(o.kept_request_of == t.kept_request_of);
}

TEST_CASE("dynamic shared memory: CUDA's 48 KB limit on the bytes given - one extern __shared__ array, or refused") {
    auto s = compiled(
        "__global__ void k(float* a) {\n"
        "    extern __shared__ float s[];\n"
        "    s[threadIdx.x] = 1;\n"
        "    a[threadIdx.x] = s[threadIdx.x];\n"
        "}\n");
    std::vector<SourceBinding> b{*parse_binding("a=float[32]").value};
    const auto launch = [&](uint64_t bytes) {
        SourceRunOptions run;
        run.dynamic_shared_bytes = bytes;
        auto k = bind_kernel(s, s->kernels.at(0), b, run);
        REQUIRE_MESSAGE(k.value, k.error);
        return run_model({&(*k.value)->spec, {}, {{1, 1, 1}, {32, 1, 1}}});
    };
    CHECK(launch(49152).value);
    // 49,153 bytes hold the same 12,288 floats, but CUDA refuses the launch: it checks the bytes.
    const auto over = launch(49153);
    REQUIRE(!over.value);
    CHECK(over.error.find("uses 49153 bytes of __shared__ memory") != std::string::npos);

    auto two = compiled(
        "__global__ void k(float* a) {\n"
        "    extern __shared__ float s[];\n"
        "    extern __shared__ float u[];\n"
        "    s[threadIdx.x] = 1;\n"
        "    __syncthreads();\n"
        "    a[threadIdx.x] = u[threadIdx.x];\n"
        "}\n");
    SourceRunOptions run;
    run.dynamic_shared_bytes = 128;
    const auto refused = bind_kernel(two, two->kernels.at(0), b, run);
    REQUIRE(!refused.value);
    CHECK(refused.error.find("both start at the same address") != std::string::npos);
}

TEST_CASE("CUDA's math and integer intrinsics a course uses compile and compute") {
    auto s = compiled(
        "__global__ void k(const float* x, float* y, int* z) {\n"
        "    int i = threadIdx.x;\n"
        "    float v = __ldg(&x[i]) * 0.25f;\n"
        "    y[i] = fmaf(v, 2.0f, 1.0f) + atan2f(v, 1.0f) + fmodf(v, 0.3f) + hypotf(v, v) + asinf(v) + erff(v)\n"
        "         + cbrtf(v) + copysignf(1.0f, -v) + expm1f(v) + log1pf(v) + sinhf(v) + pow(2.0, 0.5);\n"
        "    __threadfence();\n"
        "    z[i] = __popc(i) + __clz(i) + __ffs(i) + (int)(__brev(i) >> 28);\n"
        "}\n");
    auto b = bound(s, {"x=float[4]:index", "y=float[4]", "z=int[4]"});
    const ModelResult result = run(*b, {1, 1, 1}, {4, 1, 1});
    CHECK(result.findings.empty());
    for (int i = 0; i < 4; ++i) {
        CAPTURE(i);
        const float v = float(i) * 0.25f;
        const double want = std::fma(v, 2.0f, 1.0f) + std::atan2(v, 1.0f) + std::fmod(v, 0.3f) + std::hypot(v, v) +
                            std::asin(v) + std::erf(v) + std::cbrt(v) + std::copysign(1.0f, -v) + std::expm1(v) +
                            std::log1p(v) + std::sinh(v) + std::sqrt(2.0);
        CHECK(std::bit_cast<float>(result.arrays[1].bits[i]) == doctest::Approx(want).epsilon(1e-5));
        CHECK(result.arrays[0].records[i].readers == 1);  // __ldg is a recorded load
    }
    // popc + clz + ffs + the top 4 bits of the reversed bits: 0+32+0+0, 1+31+1+8, 1+30+2+4, 2+30+1+12.
    CHECK(std::vector<uint32_t>(result.arrays[2].bits.begin(), result.arrays[2].bits.end()) ==
          std::vector<uint32_t>{32, 41, 37, 45});
}

TEST_CASE("a kernel template runs as each explicit instantiation, with its own __shared__ sizes") {
    auto s = compiled(
        "template <typename T, int N>\n"
        "__device__ T block_total(T v) {\n"
        "    __shared__ T part[N];\n"
        "    part[threadIdx.x] = v;\n"
        "    __syncthreads();\n"
        "    T total = 0;\n"
        "    for (int k = 0; k < N; ++k) total += part[k];\n"
        "    return total;\n"
        "}\n"
        "template <unsigned int blockSize>\n"
        "__global__ void sums(const float* in, float* out) {\n"
        "    float t = block_total<float, blockSize>(in[blockIdx.x * blockSize + threadIdx.x]);\n"
        "    if (threadIdx.x == 0) out[blockIdx.x] = t;\n"
        "}\n"
        "template __global__ void sums<32>(const float*, float*);\n"
        "template __global__ void sums<64>(const float*, float*);\n"
        "__global__ void plain(float* out) { out[threadIdx.x] = 1; }\n");
    REQUIRE(s->kernels.size() == 3);
    std::vector<std::string> names;
    for (const SourceKernel& k : s->kernels) names.push_back(k.name);
    std::sort(names.begin(), names.end());
    CHECK(names == std::vector<std::string>{"plain", "sums<32>", "sums<64>"});
    for (uint64_t size : {32, 64}) {
        const std::string name = "sums<" + std::to_string(size) + ">";
        CAPTURE(name);
        size_t k = 0;
        while (s->kernels[k].name != name) ++k;
        // Its own instantiation of the helper's array, not the other's.
        REQUIRE(s->kernels[k].shared.size() == 1);
        CHECK(s->kernels[k].shared[0].name == "part");
        CHECK(s->kernels[k].shared[0].shape == std::vector<uint64_t>{size});
        auto b = bound(s, {"in=float[128]:ones", "out=float[4]"}, k);
        const ModelResult result = run(*b, {uint32_t(128 / size), 1, 1}, {uint32_t(size), 1, 1});
        CHECK(std::bit_cast<float>(result.arrays[1].bits[0]) == float(size));
        CHECK(result.findings.empty());
    }
    // A kernel that calls no helper has no __shared__ array of the helper's.
    size_t plain = 0;
    while (s->kernels[plain].name != "plain") ++plain;
    CHECK(s->kernels[plain].shared.empty());
}

TEST_CASE(
    "a kernel template with no instantiation says how to write one - two shared arrays of one name are told apart") {
    SourceCompile c = compile_source(
        "template <int N>\n"
        "__global__ void fill(float* a) { a[threadIdx.x] = N; }\n",
        "kernel.cu");
    CHECK(!c.source);
    CHECK(c.text.find("kernel.cu:2:17: error: kernel template fill runs once instantiated for its template "
                      "arguments: add, after it, `template __global__ void fill<N>(float *);`") != std::string::npos);
    auto s = compiled(
        "__device__ float twice(float v) {\n"
        "    __shared__ float s[8];\n"
        "    s[threadIdx.x] = 2 * v;\n"
        "    __syncthreads();\n"
        "    return s[threadIdx.x];\n"
        "}\n"
        "__global__ void k(float* out) {\n"
        "    __shared__ float s[4];\n"
        "    s[threadIdx.x] = out[threadIdx.x];\n"
        "    __syncthreads();\n"
        "    out[threadIdx.x] = twice(s[threadIdx.x]);\n"
        "}\n");
    std::vector<std::string> names;
    for (const SourceSharedArray& a : s->kernels.at(0).shared) names.push_back(a.name);
    std::sort(names.begin(), names.end());
    CHECK(names == std::vector<std::string>{"k::s", "twice::s"});
    auto b = bound(s, {"out=float[4]:index"});
    const ModelResult result = run(*b, {1, 1, 1}, {4, 1, 1});
    CHECK(std::bit_cast<float>(result.arrays[0].bits[3]) == 6.0f);
    CHECK(result.findings.empty());
}

TEST_CASE("CUDA's vector types compute as local values") {
    auto s = compiled(
        "__global__ void k(const float* a, float* b) {\n"
        "    int i = threadIdx.x;\n"
        "    float3 p = make_float3(a[i], 2.0f, 3.0f);\n"
        "    int2 q = make_int2(i, 10);\n"
        "    float4 r = make_float4(p.x, p.y, p.z, q.y);\n"
        "    b[i] = r.x + r.y * r.z + r.w + q.x;\n"
        "}\n");
    auto b = bound(s, {"a=float[4]:index", "b=float[4]"});
    const ModelResult result = run(*b, {1, 1, 1}, {4, 1, 1});
    for (uint32_t i = 0; i < 4; ++i)
        CHECK(std::bit_cast<float>(result.arrays[1].bits[i]) == float(i) + 6 + 10 + float(i));
}

TEST_CASE(
    "__constant__ memory holds its initializer - a kernel that writes it is refused, one never given values warns") {
    auto s = compiled(
        "__constant__ float w[3] = {0.25f, 0.5f, 0.25f};\n"
        "__global__ void blur(const float* in, float* out, int n) {\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i > 0 && i < n - 1) out[i] = w[0] * in[i - 1] + w[1] * in[i] + w[2] * in[i + 1];\n"
        "}\n");
    auto b = bound(s, {"in=float[8]:index", "out=float[8]", "n=8"});
    const ModelResult result = run(*b, {1, 1, 1}, {8, 1, 1});
    for (uint32_t i = 1; i < 7; ++i) CHECK(std::bit_cast<float>(result.arrays[1].bits[i]) == float(i));
    CHECK(result.findings.empty());

    SourceCompile written = compile_source(
        "__constant__ int table[4] = {1, 2, 3, 4};\n"
        "__global__ void k(int* out) {\n"
        "    out[threadIdx.x] = table[threadIdx.x];\n"
        "    table[threadIdx.x] = 0;\n"
        "}\n",
        "kernel.cu");
    CHECK(!written.source);
    CHECK(written.text.find("kernel.cu:4: error: a kernel only reads __constant__ memory") != std::string::npos);
    SourceCompile atomic = compile_source(
        "__constant__ int count;\n"
        "__global__ void k() { atomicAdd(&count, 1); }\n",
        "kernel.cu");
    CHECK(atomic.text.find("kernel.cu:2: error: a kernel only reads __constant__ memory") != std::string::npos);

    SourceCompile unset = compile_source(
        "__constant__ float scale[2];\n"
        "__global__ void k(float* a) { a[threadIdx.x] *= scale[0]; }\n",
        "kernel.cu");
    REQUIRE(unset.source);
    REQUIRE(unset.diagnostics.size() == 1);
    CHECK(!unset.diagnostics[0].error);
    CHECK(unset.diagnostics[0].line == 1);
    CHECK(unset.diagnostics[0].message.find("'scale' has no initializer: it holds zeros unless bound") !=
          std::string::npos);
}

TEST_CASE(
    "a __constant__ variable bound as the host's cudaMemcpyToSymbol would fill it - unbound, its declaration's "
    "values") {
    auto s = compiled(
        "__constant__ float w[3];\n"
        "__constant__ int shift = 5;\n"
        "__global__ void blur(const float* in, float* out, int n) {\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i > 0 && i < n - 1) out[i] = w[0] * in[i - 1] + w[1] * in[i] + w[2] * in[i + 1] + shift;\n"
        "}\n");
    REQUIRE(s->variables.size() == 2);
    CHECK(s->variables[0].name == "w");
    CHECK(s->variables[0].elements == 3);
    const auto out = [&](std::vector<std::string> binds) {
        binds.insert(binds.end(), {"in=float[6]:index", "out=float[6]", "n=6"});
        std::vector<SourceBinding> b;
        for (const std::string& t : binds) b.push_back(*parse_binding(t).value);
        SourceRunOptions here;  // in this process: what one run writes, the next sees unless rewritten
        here.isolated = false;
        const auto k = bind_kernel(s, s->kernels.at(0), b, here);
        REQUIRE_MESSAGE(k.value, k.error);
        const ModelResult result = run(**k.value, {1, 1, 1}, {6, 1, 1});
        std::vector<float> v;
        for (uint32_t b : result.arrays[1].bits) v.push_back(std::bit_cast<float>(b));
        return v;
    };
    // Bound: 0.25, 0.5, 0.25 average i-1, i, i+1 to i; shift keeps its declaration's 5.
    CHECK(out({"w=float[3]:0.25,0.5,0.25"}) == std::vector<float>{0, 6, 7, 8, 9, 0});
    // Then unbound: w holds zeros again (the earlier run's values do not stay), shift is bound.
    CHECK(out({"shift=int[1]:100"}) == std::vector<float>{0, 100, 100, 100, 100, 0});
    // A binding of another size or a number is refused, naming the shape to give.
    for (const char* wrong : {"w=float[4]:ones", "w=3", "w=double[3]"}) {
        CAPTURE(wrong);
        const auto k = bind_kernel(s, s->kernels.at(0),
                                   {*parse_binding(wrong).value, *parse_binding("in=float[6]").value,
                                    *parse_binding("out=float[6]").value, *parse_binding("n=6").value});
        REQUIRE(!k.value);
        CHECK(k.error.find("'w' is __constant__ float of 3 elements: bind it as w=float[3]:V,V,") != std::string::npos);
    }
}

TEST_CASE("an array's values written out in its binding: one per element, each a value of its type") {
    auto s = compiled("__global__ void k(const int* a, unsigned char* b) { b[threadIdx.x] = a[threadIdx.x] * 2; }\n");
    const ModelResult result = run(*bound(s, {"a=int[4]:-3,0,7,100", "b=uchar[4]"}), {1, 1, 1}, {4, 1, 1});
    CHECK(result.arrays[0].bits == std::vector<uint32_t>{uint32_t(-3), 0, 7, 100});
    CHECK(result.arrays[1].bits == std::vector<uint32_t>{uint8_t(-6), 0, 14, 200});
    CHECK(binding_text(*parse_binding("a=int[4]:-3,0,7,100").value) == "a=int[4]:-3,0,7,100");
    const auto refused = [&](const char* a) {
        const auto k = bind_kernel(s, s->kernels.at(0), {*parse_binding(a).value, *parse_binding("b=uchar[4]").value});
        REQUIRE(!k.value);
        return k.error;
    };
    CHECK(refused("a=int[4]:1,2,3") == "--bind a: 3 values for 4 elements: give one per element");
    CHECK(refused("a=int[4]:1,2,3,x") ==
          "--bind a: value 4 'x' of an array of int: give a whole number in "
          "[-2147483648, 2147483647]");
    CHECK(refused("a=int[4]:1,2,3,4294967296").find("value 4 '4294967296'") != std::string::npos);
}

TEST_CASE("atomicAnd, atomicOr, atomicXor, atomicInc and atomicDec do what CUDA's do") {
    auto s = compiled(
        "__global__ void k(unsigned* bits, int* all, unsigned long long* flip, unsigned* ring, unsigned* down) {\n"
        "    unsigned i = threadIdx.x;\n"
        "    atomicOr(bits, 1u << i);\n"
        "    atomicAnd(all, ~(1 << i));\n"
        "    atomicXor(flip, 1ull << (i % 2));\n"
        "    atomicInc(ring, 4u);\n"
        "    atomicDec(down, 9u);\n"
        "}\n");
    auto b = bound(s, {"bits=uint[1]", "all=int[1]:-1", "flip=uint64[1]", "ring=uint[1]", "down=uint[1]:3"});
    const ModelResult result = run(*b, {1, 1, 1}, {7, 1, 1});
    CHECK(result.arrays[0].bits[0] == 0x7fu);            // threads 0-6 set their bits
    CHECK(result.arrays[1].bits[0] == uint32_t(~0x7f));  // and clear them from all ones
    CHECK(result.arrays[2].bits[0] == 2);                // bit 0 flipped 4 times (0), bit 1 3 times (1)
    CHECK(result.arrays[3].bits[0] == 2);                // 1, 2, 3, 4, then past 4 back to 0: 1, 2
    CHECK(result.arrays[4].bits[0] == 6);                // 2, 1, 0, then from 0 back to 9: 8, 7, 6
    CHECK(result.findings.empty());
}

TEST_CASE(
    "the headers a CUDA file includes as a matter of course compile - a failed assert stops the kernel with "
    "CUDA's line") {
    auto s = compiled(
        "#include <stdio.h>\n"
        "#include <cuda_runtime.h>\n"
        "#include <device_launch_parameters.h>\n"
        "#include <cmath>\n"
        "#include <cassert>\n"
        "__global__ void k(float* a, int n) {\n"
        "    int i = threadIdx.x;\n"
        "    assert(i < n);\n"
        "    a[i] = sqrtf(float(i));\n"
        "}\n");
    const ModelResult result = run(*bound(s, {"a=float[4]", "n=4"}), {1, 1, 1}, {4, 1, 1});
    CHECK(std::bit_cast<float>(result.arrays[0].bits[3]) == std::sqrt(3.0f));
    const auto k = bound(s, {"a=float[4]", "n=2"});
    const auto failed = run_model({&k->spec, {}, {{1, 1, 1}, {4, 1, 1}}});
    REQUIRE(!failed.value);
    CHECK(failed.error.find("a failed assert") != std::string::npos);
    CHECK(failed.error.find("the last line it reached was 8") != std::string::npos);
    CHECK(failed.error.find("line 8: block: [0,0,0], thread: [2,0,0] Assertion `i < n` failed.") != std::string::npos);
    // A header of the host's library is not there: the kernel cannot use it.
    SourceCompile host = compile_source("#include <iostream>\n__global__ void k(float* a) { a[0] = 1; }\n", "k.cu");
    CHECK(!host.source);
    CHECK(host.text.find("'iostream' file not found") != std::string::npos);
}

TEST_CASE("a whole CUDA program: its kernels run, its host code (main, cudaMalloc, <<<>>>) is named and not run") {
    const std::string program =
        "#include <stdio.h>\n"
        "#define CHECK(call) do { cudaError_t e = (call); if (e) printf(\"%d\\n\", e); } while (0)\n"
        "__global__ void add(const float* a, const float* b, float* c, int n) {\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i < n) c[i] = a[i] + b[i];\n"
        "}\n"
        "float host_sum(const float* v, int n) { float s = 0; for (int i = 0; i < n; ++i) s += v[i]; return s; }\n"
        "int main() {\n"
        "    float *a, *b, *c; /* { a brace in a comment */ const char* t = \"} and in a string\";\n"
        "    CHECK(cudaMalloc(&a, 100 * sizeof(float)));\n"
        "    add<<<1, 128>>>(a, b, c, 100);\n"
        "    return 0;\n"
        "}\n";
    SourceCompile c = compile_source(program, "vector_add.cu");
    INFO(c.text);
    REQUIRE(c.source);
    CHECK(c.source->text == program);  // the learner's text, as typed
    REQUIRE(!c.diagnostics.empty());
    CHECK(!c.diagnostics[0].error);
    CHECK(c.diagnostics[0].line == 7);
    CHECK(c.text.rfind("vector_add.cu:7: warning: host code not run: host_sum(), main(): threadmap runs the file's "
                       "kernels",
                       0) == 0);
    const ModelResult result = run(
        *bound(c.source, {"a=float[100]:ones", "b=float[100]:index", "c=float[100]", "n=100"}), {1, 1, 1}, {128, 1, 1});
    CHECK(std::bit_cast<float>(result.arrays[2].bits[99]) == 100.0f);
    // A mistake in a kernel is still reported as Clang reports it, at its place, host code or not.
    std::string wrong = program;
    wrong.replace(wrong.find("c[i] = a[i] + b[i];"), 19, "c[i] = a[i] + q[i];");
    SourceCompile bad = compile_source(wrong, "vector_add.cu");
    CHECK(!bad.source);
    CHECK(bad.text.find("vector_add.cu:5:30: error: use of undeclared identifier 'q'") != std::string::npos);
}

TEST_CASE("__syncthreads_count, _and and _or are barriers that count the block's true predicates") {
    auto s = compiled(
        "__global__ void k(const int* in, int* count, int* all, int* any) {\n"
        "    int t = threadIdx.x + blockIdx.x * blockDim.x;\n"
        "    int c = __syncthreads_count(in[t] > 2);\n"
        "    int a = __syncthreads_and(in[t] < 90);\n"
        "    int o = __syncthreads_or(in[t] == 50);\n"
        "    if (threadIdx.x == 0) { count[blockIdx.x] = c; all[blockIdx.x] = a; any[blockIdx.x] = o; }\n"
        "}\n");
    auto k = bound(s, {"in=int[96]:index", "count=int[2]", "all=int[2]", "any=int[2]"});
    CHECK(k->spec.uses_barriers);
    // Blocks of 48 (a partial second warp): values 0-47 and 48-95.
    const ModelResult result = run(*k, {2, 1, 1}, {48, 1, 1});
    CHECK(result.findings.empty());
    CHECK(std::vector<uint32_t>(result.arrays[1].bits.begin(), result.arrays[1].bits.end()) ==
          std::vector<uint32_t>{45, 48});
    CHECK(std::vector<uint32_t>(result.arrays[2].bits.begin(), result.arrays[2].bits.end()) ==
          std::vector<uint32_t>{1, 0});
    CHECK(std::vector<uint32_t>(result.arrays[3].bits.begin(), result.arrays[3].bits.end()) ==
          std::vector<uint32_t>{0, 1});
}

TEST_CASE("a learner's kernel run apart lists the threads that touched a watched element, checked on the way back") {
    auto s = compiled(
        "__global__ void gather(const float* in, float* out, int n) {\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i < n) out[i] = in[i / 4] + in[0];\n"
        "}\n");
    auto b = bound(s, {"in=float[64]", "out=float[64]", "n=64"});
    ModelLaunch model_launch{&b->spec, {}, {{2, 1, 1}, {32, 1, 1}}};
    model_launch.keep_records = 0;
    model_launch.watch_array = b->spec.array_index("in");
    model_launch.watch_element = 2;  // read by threads 8 to 11
    const auto r = run_model(model_launch);
    REQUIRE_MESSAGE(r.value, r.error);
    REQUIRE(r.value->watched);
    CHECK(r.value->watched->threads == 4);
    REQUIRE(r.value->watched->listed.size() == 4);
    for (uint32_t k = 0; k < 4; ++k) {
        CHECK(r.value->watched->listed[k].thread == 8 + k);
        CHECK(r.value->watched->listed[k].ops == ElementToucher::kRead);
        CHECK(r.value->watched->listed[k].read_line == 3);
    }
    model_launch.watch_element = 0;  // in[0]: every thread, twice for threads 0 to 3
    const auto all = run_model(model_launch);
    REQUIRE_MESSAGE(all.value, all.error);
    CHECK(all.value->watched->threads == 64);
    CHECK(all.value->watched->accesses == 68);
    CHECK(all.value->watched->listed.size() == WatchedElement::kListed);
}
