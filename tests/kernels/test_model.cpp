// The open kernel model: every built-in kernel's outputs equal its CPU reference on its
// covering launch; the findings tell the lessons' stories (races in histogram-racy and
// matmul-tiled-nosync, none in their fixes, the race of increment on a 2D block, out of
// bounds past an unguarded kernel's end, divergent barriers and uninitialised shared reads
// ending or flagged cleanly); the model's writer map equals the fast emulator's.
#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <stdexcept>

#include "tests/kernels/int_out_kernel.hpp"
#include "tests/random_launch.hpp"
#include "kernels/builtin/kernel_bodies.hpp"
#include "kernels/builtin/registry.hpp"
#include "kernels/emulator/cpu_emulator.hpp"
#include "kernels/model/model_array_stats.hpp"
#include "kernels/model/model_emulator.hpp"
#include "kernels/model/model_thread.hpp"

using namespace threadmap;

namespace {

Params default_params(const KernelSpec& spec) {
    Params p;
    for (const ParamSpec& s : spec.params) p.push_back(s.default_from < p.size() ? p[s.default_from] : s.default_value);
    return p;
}

ModelResult run(const KernelSpec& spec, const Params& p, const LaunchConfig& launch) {
    const auto r = run_model({&spec, p, launch});
    REQUIRE_MESSAGE(r.value, r.error);
    return *r.value;
}

LaunchConfig covering(const KernelSpec& spec, const Params& p) {
    return {spec.covering_grid(p, spec.default_block), spec.default_block};
}

uint64_t count(const ModelResult& result, FindingKind kind) { return result.counts[size_t(kind)]; }

}  // namespace

TEST_CASE("every built-in kernel's outputs equal its CPU reference on its covering launch") {
    for (const KernelSpec* spec : builtin_kernels()) {
        CAPTURE(spec->name);
        const Params p = default_params(*spec);
        const LaunchConfig launch = covering(*spec, p);
        const ModelResult result = run(*spec, p, launch);
        KernelSpec::Bits inputs(spec->arrays.size());
        for (size_t a = 0; a < spec->arrays.size(); ++a)
            if (spec->arrays[a].space == MemorySpace::Global && spec->arrays[a].role != ArrayRole::Output) {
                inputs[a].resize(result.arrays[a].bits.size());
                spec->fill_input(p, a, inputs[a]);
            }
        const KernelSpec::Bits expected = spec->reference(p, launch, inputs);
        // matmul-tiled-nosync's threads, run one after another between barriers, overwrite
        // tiles that others have not read yet: its result is wrong, as the hazard says it may be.
        const bool racy = spec->name == "histogram-racy" || spec->name == "matmul-tiled-nosync";
        for (size_t a = 0; a < spec->arrays.size(); ++a) {
            if (spec->arrays[a].role != ArrayRole::Output && spec->arrays[a].role != ArrayRole::InOut) continue;
            CAPTURE(spec->arrays[a].name);
            CHECK((result.arrays[a].bits == expected[a]) == (spec->name != "matmul-tiled-nosync"));  // exact in float
        }
        CHECK(!result.ended_early);
        CHECK((count(result, FindingKind::OutOfBounds) > 0) ==
              (spec->name == "increment-unguarded"));  // 512 threads, n 500
        const uint64_t hazards =
            count(result, FindingKind::WriteWriteRace) + count(result, FindingKind::ReadWriteHazard);
        CHECK((hazards > 0) == racy);
        CHECK(count(result, FindingKind::UninitializedRead) == 0);
    }
}

TEST_CASE("a finding's line is the line of the CUDA text where the access is") {
    const auto line = [](const KernelSpec& spec, int n) {
        size_t at = 0;
        for (int i = 1; i < n; ++i) at = spec.cuda_source.find('\n', at) + 1;
        return spec.cuda_source.substr(at, spec.cuda_source.find('\n', at) - at);
    };
    // matmul's loads at line 8, C's store at 9 (what the bodies name and findings report).
    for (const char* name : {"matmul", "matmul-xcol", "matmul-store-in-loop"}) {
        CAPTURE(name);
        const KernelSpec& spec = *find_builtin_kernel(name);
        CHECK(line(spec, 8).find("tmp += A[i * inner + k] * B[k * b_cols + j];") != std::string::npos);
        CHECK(line(spec, 9).find("C[i * cols + j] = tmp;") != std::string::npos);
    }
    CHECK(line(*find_builtin_kernel("increment"), 4).find("a[pos] += 1;") != std::string::npos);
    CHECK(line(*find_builtin_kernel("histogram-racy"), 4).find("bins[data[i] % nbins] += 1;") != std::string::npos);
    CHECK(line(*find_builtin_kernel("matmul-tiled"), 15).find("__syncthreads();") != std::string::npos);
    CHECK(line(*find_builtin_kernel("reduce-sequential"), 9).find("sdata[tid] += sdata[tid + s];") !=
          std::string::npos);
}

TEST_CASE("histogram-racy races on the bins - histogram-atomic does not - with the threads named") {
    const KernelSpec& racy = *find_builtin_kernel("histogram-racy");
    const Params p = default_params(racy);
    const ModelResult result = run(racy, p, covering(racy, p));
    CHECK(count(result, FindingKind::WriteWriteRace) == 16);   // each of the 16 bins, once
    CHECK(count(result, FindingKind::ReadWriteHazard) == 16);  // a thread reads a count another one wrote
    const Finding& f = *std::find_if(result.findings.begin(), result.findings.end(),
                                     [](const Finding& f) { return f.kind == FindingKind::WriteWriteRace; });
    CHECK(f.array == "bins");
    CHECK(f.line == 4);
    REQUIRE(f.threads.size() == 2);
    // Threads of one block that differ in more than one coordinate met at one bin: the cause is
    // many threads on one element, and the fix an atomic.
    CHECK(f.message.rfind("threads (", 0) == 0);
    CHECK(f.message.find("the index there is the same for both. Give each thread its own element, or accumulate "
                         "with an atomic (atomicAdd)") != std::string::npos);
    const KernelSpec& atomic = *find_builtin_kernel("histogram-atomic");
    CHECK(run(atomic, p, covering(atomic, p)).findings.empty());
}

TEST_CASE("increment on a 2D block: threads (0,0,0) and (0,1,0) of block (0,0,0) both write a[0]") {
    const KernelSpec& spec = *find_builtin_kernel("increment");
    const ModelResult result = run(spec, {500}, {{16, 1, 1}, {32, 2, 1}});
    REQUIRE(count(result, FindingKind::WriteWriteRace) == 500);
    const Finding* race = nullptr;
    for (const Finding& f : result.findings)
        if (f.kind == FindingKind::WriteWriteRace && !race) race = &f;
    REQUIRE(race);
    CHECK(race->message ==
          "threads (0,0,0) and (0,1,0) of block (0,0,0) both write a[0] at line 4, and differ only in threadIdx.y: "
          "the index gives both the same element. Make it use threadIdx.y, or let one of them write; which value "
          "remains is undefined.");
    CHECK(race->index == std::vector<uint64_t>{0});
    // Two threads wrote each element; the first is the smaller id.
    CHECK(result.arrays[0].records[0].writers == 2);
    CHECK(result.arrays[0].records[0].first_writer == 0);
    CHECK(result.arrays[0].records[0].stores == 2);
}

TEST_CASE("past the end of an unguarded kernel: out of bounds, named, skipped - the run goes on") {
    const KernelSpec& spec = *find_builtin_kernel("increment-unguarded");
    const ModelResult result = run(spec, {500}, {{16, 1, 1}, {32, 1, 1}});  // 512 threads for 500 elements
    CHECK(count(result, FindingKind::OutOfBounds) == 24);                   // 12 threads, a load and a store each
    const Finding& f = result.findings.front();
    CHECK(f.array == "a");
    CHECK(f.index == std::vector<uint64_t>{500});
    CHECK(f.line == 3);
    CHECK(f.threads.front().block == Dim3{15, 0, 0});
    CHECK(f.threads.front().thread == Dim3{20, 0, 0});
    CHECK(f.message ==
          "thread (20,0,0) of block (15,0,0) reads a[500] at line 3, past the end of a (500 elements): on a GPU that "
          "touches other data or faults; here it is skipped.");
    CHECK(std::bit_cast<float>(result.arrays[0].bits[499]) == 499 % 1000 + 1.0f);  // in-bounds work done
    // Kept for the map's cells past the end: a[500 + k] was read and written once by thread 500 + k.
    REQUIRE(result.arrays[0].past.size() == 12);
    for (uint32_t spec = 0; spec < 12; ++spec) {
        CHECK(result.arrays[0].past[spec].first_writer == 500 + spec);
        CHECK(result.arrays[0].past[spec].first_reader == 500 + spec);
        CHECK(result.arrays[0].past[spec].writes == 1);
        CHECK(result.arrays[0].past[spec].reads == 1);
    }
    CHECK(result.arrays[0].past_elsewhere == 0);
    // Farther than the window past the end (4,096 cells for a short array): counted, not kept.
    const ModelResult far = run(spec, {10}, {{20, 1, 1}, {256, 1, 1}});  // 5,120 threads for 10 elements
    CHECK(far.arrays[0].past.size() == 4096);
    CHECK(far.arrays[0].past_elsewhere == 2 * (5120 - 10 - 4096));
}

TEST_CASE("matmul-tiled-nosync: the next step's loads overwrite tiles still being read") {
    const KernelSpec& spec = *find_builtin_kernel("matmul-tiled-nosync");
    const Params p = {64, 64, 64, 64, 64};
    const ModelResult result = run(spec, p, covering(spec, p));
    CHECK(count(result, FindingKind::ReadWriteHazard) > 0);
    CHECK(count(result, FindingKind::WriteWriteRace) == 0);  // each tile element has one writer
    bool named = false;
    for (const Finding& f : result.findings)
        named |= f.kind == FindingKind::ReadWriteHazard && (f.array == "As" || f.array == "Bs") &&
                 f.message.find("missing __syncthreads() between line") != std::string::npos;
    CHECK(named);
    const KernelSpec& fixed = *find_builtin_kernel("matmul-tiled");
    CHECK(run(fixed, p, covering(fixed, p)).findings.empty());
}

TEST_CASE("a barrier not every thread reaches is a finding and ends the launch - never a hang") {
    KernelSpec spec = int_out_kernel("test-divergent", 64, true, [](ModelThread& t) {
        if (t.threadIdx.x % 2 == 1) return;  // odd threads leave
        t.syncthreads(3);
        t.array<int>(0).store(t.threadIdx.x, 1, 4);
    });
    const ModelResult result = run(spec, {64}, {{2, 1, 1}, {64, 1, 1}});
    CHECK(result.ended_early);
    REQUIRE(result.findings.size() == 1);
    CHECK(result.findings[0].kind == FindingKind::DivergentBarrier);
    CHECK(result.findings[0].line == 3);
    CHECK(result.findings[0].message.rfind("divergent barrier at line 3 in block (0,0,0): threads (0,0,0), (2,0,0), "
                                           "(4,0,0) and 29 more reached it, threads (1,0,0), (3,0,0), (5,0,0) and 29 "
                                           "more exited",
                                           0) == 0);
    CHECK(result.arrays[0].records[0].stores == 0);  // nobody passed the barrier
    // Where each thread of block 0 was, for the map: the even ones at line 3, the odd ones gone.
    REQUIRE(result.diverged);
    CHECK(result.diverged->block == 0);
    CHECK(result.diverged->line == 3);
    REQUIRE(result.diverged->sides.size() == 64);
    for (uint32_t t = 0; t < 64; ++t)
        CHECK(result.diverged->sides[t] == (t % 2 ? BarrierSide::Exited : BarrierSide::Waiting));

    // Waiting at two different barriers is divergent too.
    spec.body = [](ModelThread& t) {
        if (t.threadIdx.x < 32)
            t.syncthreads(3);
        else
            t.syncthreads(5);
    };
    const ModelResult two = run(spec, {64}, {{1, 1, 1}, {64, 1, 1}});
    REQUIRE(two.findings.size() == 1);
    CHECK(two.findings[0].message.find(
              "threads (32,0,0), (33,0,0), (34,0,0) and 29 more wait at the barrier on line 5") != std::string::npos);
    REQUIRE(two.diverged);
    CHECK(two.diverged->sides[0] == BarrierSide::Waiting);
    CHECK(two.diverged->sides[32] == BarrierSide::Elsewhere);
    // A launch that ends well has none.
    spec.body = [](ModelThread& t) { t.syncthreads(3); };
    CHECK_FALSE(run(spec, {64}, {{1, 1, 1}, {64, 1, 1}}).diverged);
}

TEST_CASE("a launch ended at a divergent barrier counts against the access cap only what came before the end") {
    // Spread over two workers: blocks 0-3 and 4-7. Block 1 diverges, so a one-thread run makes
    // block 0's 6,400 stores and stops; the second range's 25,600 are past the launch's end.
    const KernelSpec spec = int_out_kernel("test-divergent-late-work", 64, true, [](ModelThread& t) {
        if (t.blockIdx.x == 1 && t.threadIdx.x % 2 == 1) return;
        t.syncthreads(3);
        for (int k = 0; k < 100; ++k) t.array<int>(0).store(t.threadIdx.x, k, 4);
    });
    ModelLaunch model_launch{&spec, {64}, {{8, 1, 1}, {64, 1, 1}}};
    model_launch.workers = 2;
    model_launch.max_accesses = 10000;
    const auto ended = run_model(model_launch);
    REQUIRE(ended.value);
    CHECK(ended.value->accesses == 6400);
    REQUIRE(ended.value->diverged);
    CHECK(ended.value->diverged->block == 1);
    // Under a cap block 0 alone passes, a one-thread run stops before the end: so does this.
    model_launch.max_accesses = 5000;
    const auto over = run_model(model_launch);
    CHECK_FALSE(over.value);
    CHECK(over.error.find("more than 5000 loads and stores") != std::string::npos);
}

TEST_CASE("shared memory read before any thread of the block wrote it: an uninitialised read") {
    KernelSpec spec;
    spec.name = "test-uninit";
    spec.params = {{"n", "", 32}};
    spec.arrays = {
        {"out", MemorySpace::Global, ValueType::Float32, ArrayRole::Output,
         [](const Params& p, const LaunchConfig&) { return std::vector<uint64_t>{p[0]}; }},
        {"s", MemorySpace::Shared, ValueType::Float32, ArrayRole::Scratch,
         [](const Params&, const LaunchConfig& launch) { return std::vector<uint64_t>{launch.block.x + 1}; }}};
    spec.uses_barriers = true;
    spec.body = [](ModelThread& t) {
        const auto s = t.array<float>(1);
        s.store(t.threadIdx.x, 1.0f, 2);
        t.syncthreads(3);
        t.array<float>(0).store(t.threadIdx.x, s.load(t.threadIdx.x + 1, 4), 4);  // s[32] was never written
    };
    const ModelResult result = run(spec, {32}, {{1, 1, 1}, {32, 1, 1}});
    CHECK(count(result, FindingKind::UninitializedRead) == 1);
    CHECK(count(result, FindingKind::ReadWriteHazard) == 0);  // the barrier orders the rest
    CHECK(result.findings[0].message ==
          "thread (31,0,0) of block (0,0,0) reads s[32] (shared) at line 4 before any thread of its block wrote it: "
          "shared memory starts undefined.");
}

namespace {

// A kernel over `out` (n ints, n its one parameter) and a __shared__ `s` of one element, with
// barriers: the tests of which of an element's readers the model keeps.
KernelSpec one_shared_element_kernel(const std::string& name) {
    KernelSpec spec;
    spec.name = name;
    spec.params = {{"n", "", 64}};
    spec.arrays = {{"out", MemorySpace::Global, ValueType::Int32, ArrayRole::Output,
                    [](const Params& p, const LaunchConfig&) { return std::vector<uint64_t>{p[0]}; }},
                   {"s", MemorySpace::Shared, ValueType::Int32, ArrayRole::Scratch,
                    [](const Params&, const LaunchConfig&) { return std::vector<uint64_t>{1}; }}};
    spec.uses_barriers = true;
    return spec;
}

// Every thread reads s[0] after a barrier; thread 5 then writes it, after threads 0-4's reads
// with no barrier between. `s`: the array's handle, shared_array's or array()'s.
template <class Handle>
void read_by_a_row_then_written(ModelThread& t, const Handle& s) {
    if (t.threadIdx.x == 63) s.store(0, 7, 2);
    t.syncthreads(3);
    const int v = s.load(0, 4);
    if (t.threadIdx.x == 5) s.store(0, v + 1, 5);
    t.array<int>(0).store(t.threadIdx.x, v, 6);
}

}  // namespace

// Of a __shared__ element's readers since the last barrier the model keeps the first two distinct ones
// (BlockOrder::remember_reader): a later writer differs from one of them, so it meets one
// unordered, whichever of the readers it is. Through the __shared__ handle's inlined path and
// through the emulator's (a plain handle on the same array), the same finding.
TEST_CASE(
    "a __shared__ element read by a row of threads, then written by one of them: one hazard, with a kept reader") {
    for (const bool inlined : {true, false}) {
        CAPTURE(inlined);
        KernelSpec spec = one_shared_element_kernel("test-many-readers");
        spec.body = inlined ? [](ModelThread& t) { read_by_a_row_then_written(t, t.shared_array<int>(1)); }
                            : [](ModelThread& t) { read_by_a_row_then_written(t, t.array<int>(1)); };
        const ModelResult result = run(spec, {64}, {{1, 1, 1}, {64, 1, 1}});
        CHECK(count(result, FindingKind::ReadWriteHazard) == 1);
        CHECK(count(result, FindingKind::WriteWriteRace) == 0);
        REQUIRE(!result.findings.empty());
        CHECK(result.findings[0].message.find("thread (5,0,0) of block (0,0,0) writes s[0] at line 5, which thread "
                                              "(1,0,0) of block (0,0,0) reads at line 4") != std::string::npos);
    }
}

// After two of its threads read a __shared__ element in a phase, the model takes its block's other
// reads of it as settled (BlockOrder::reads_settled) until the next barrier; a block's copy starts
// unsettled, as it starts unwritten. Blocks 0 and 1 write s[0] and read it from every thread; block
// 2 only reads it, at the same barrier as the others: its read before any write is a finding there.
TEST_CASE("a __shared__ element read by every thread of two blocks, then only read by a third: uninitialised there") {
    for (const bool inlined : {true, false}) {
        CAPTURE(inlined);
        KernelSpec spec = one_shared_element_kernel("test-settled-per-block");
        const auto body = [](ModelThread& t, const auto& s) {
            if (t.blockIdx.x != 2 && t.threadIdx.x == 0) s.store(0, 7, 2);
            t.syncthreads(3);
            t.array<int>(0).store(t.blockIdx.x * t.blockDim.x + t.threadIdx.x, s.load(0, 4), 4);
        };
        spec.body = inlined
                        ? std::function<void(ModelThread&)>([=](ModelThread& t) { body(t, t.shared_array<int>(1)); })
                        : [=](ModelThread& t) { body(t, t.array<int>(1)); };
        const ModelResult result = run(spec, {192}, {{3, 1, 1}, {64, 1, 1}});
        CHECK(count(result, FindingKind::UninitializedRead) == 1);
        CHECK(count(result, FindingKind::ReadWriteHazard) == 0);
        REQUIRE(result.findings.size() == 1);
        CHECK(result.findings[0].message.find("thread (0,0,0) of block (2,0,0) reads s[0] (shared) at line 4") == 0);
    }
}

// A __syncwarp() orders a warp's readers with its later writer but not another warp's: of an
// element's two readers the model keeps one of another warp than the writer's
// (BlockOrder::keep_last_reader), on every path a __shared__ array's accesses take.
TEST_CASE("a __shared__ array read by two warps, then written after one warp's __syncwarp(): a hazard with the other") {
    KernelSpec spec = one_shared_element_kernel("test-syncwarp-readers");
    spec.uses_warp_ops = true;
    spec.body = [](ModelThread& t) {
        const auto s = t.shared_array<int>(1);
        const uint32_t i = t.threadIdx.x;
        if (i == 63) s.store(0, 7, 2);
        t.syncthreads(3);
        // Warp 1's lane 33 reads s[0], then warp 0's lanes 1 and 2 (after their warp met): the
        // last two readers are of warp 0, and lane 33's read must not be forgotten.
        int v = i == 33 ? s.load(0, 5) : 0;
        t.warp(WarpCall{WarpOp::Sync, ~0u, 0, 0, 32, 6});
        if (i == 1 || i == 2) v = s.load(0, 7);
        t.warp(WarpCall{WarpOp::Sync, ~0u, 0, 0, 32, 8});
        if (i == 0) s.store(0, v + 1, 9);  // ordered after lanes 1 and 2's reads, not after lane 33's
        t.array<int>(0).store(i, v, 10);
    };
    const ModelResult result = run(spec, {64}, {{1, 1, 1}, {64, 1, 1}});
    CHECK(count(result, FindingKind::ReadWriteHazard) == 1);
    CHECK(count(result, FindingKind::WriteWriteRace) == 0);
    REQUIRE(!result.findings.empty());
    CHECK(result.findings[0].message.find("thread (0,0,0) of block (0,0,0) writes s[0] at line 9, which thread "
                                          "(33,0,0) of block (0,0,0) reads at line 5") != std::string::npos);
}

// A thread runs on a fiber's stack: what its body throws (a model's bug) is caught there and
// rethrown on the caller's, which ends the launch with it; the process goes on.
TEST_CASE("a body with barriers that throws ends its launch with the error, and the next launch runs") {
    KernelSpec spec;
    spec.name = "test-throws";
    spec.params = {{"n", "", 64}};
    spec.arrays = {{"out", MemorySpace::Global, ValueType::Float32, ArrayRole::Output,
                    [](const Params& p, const LaunchConfig&) { return std::vector<uint64_t>{p[0]}; }}};
    spec.uses_barriers = true;
    spec.body = [](ModelThread& t) {
        const uint64_t i = t.blockIdx.x * uint64_t(t.blockDim.x) + t.threadIdx.x;
        t.syncthreads(2);
        if (i == t.param(0) + 5) throw std::runtime_error("a stand-in fault");
        if (i < t.param(0)) t.array<float>(0).store(i, 1.0f, 4);
    };
    const auto thrown = run_model({&spec, {64}, {{3, 1, 1}, {32, 1, 1}}});  // thread 69, in the last block
    REQUIRE_FALSE(thrown.value);
    CHECK(thrown.error == "kernel test-throws stopped: a stand-in fault");
    const auto next = run_model({&spec, {96}, {{3, 1, 1}, {32, 1, 1}}});  // i never reaches 101
    REQUIRE_MESSAGE(next.value, next.error);
    CHECK(next.value->accesses == 96);
}

TEST_CASE(
    "too much shared memory per block is refused in CUDA's words - ptxas's for static arrays, the launch's for "
    "dynamic") {
    KernelSpec spec = *find_builtin_kernel("reduce-sequential");
    spec.arrays[2].shape = [](const Params&, const LaunchConfig& launch) {
        return std::vector<uint64_t>{launch.block.x * 16};
    };
    spec.arrays[2].dynamic = false;  // __shared__ float sdata[16 * 1024]: the compiler refuses it
    const auto r = run_model({&spec, {4096}, {{4, 1, 1}, {1024, 1, 1}}});
    REQUIRE(!r.value);
    CHECK(r.error.find("uses 65536 bytes of __shared__ memory per block") != std::string::npos);
    CHECK(r.error.find("uses too much shared data (0x10000 bytes, 0xc000 max)") != std::string::npos);
    // histogram-shared's extern __shared__ bins, 20,000 of them: 80,000 bytes asked for at
    // launch, which fails without the opt-in attribute.
    const KernelSpec& histogram_shared = *find_builtin_kernel("histogram-shared");
    const auto d = run_model({&histogram_shared, {4096, 20000}, {{16, 1, 1}, {256, 1, 1}}});
    REQUIRE(!d.value);
    CHECK(d.error.find("uses 80000 bytes of __shared__ memory per block") != std::string::npos);
    CHECK(d.error.find("80000 of them dynamic") != std::string::npos);
    CHECK(d.error.find("cudaErrorInvalidValue") != std::string::npos);
    CHECK(d.error.find("ptxas") == std::string::npos);
}

TEST_CASE("the model's writer map equals the fast emulator's on random launches of every kernel with a fast body") {
    RandomLaunches random(7);
    REQUIRE(all_kernels().size() >= 4);  // the tutorial's four at least
    for (int trial = 0; trial < 10 * int(all_kernels().size()); ++trial) {
        const Workload workload = random.workload(trial);
        const LaunchConfig launch = random.launch(trial);
        const KernelSpec& spec = spec_of(*workload.kernel);
        REQUIRE(spec.fast == workload.kernel);
        const bool matrix = is_matrix(workload.kernel);
        const size_t mapped = spec.mapped_array();
        CAPTURE(spec.name);
        CAPTURE(to_string(launch.grid));
        CAPTURE(to_string(launch.block));
        const LaunchResult fast = emulate(workload, launch);
        const Params p = matrix ? Params{workload.rows, workload.cols, workload.inner, workload.a_rows, workload.b_cols}
                                : Params{workload.n};
        const ModelResult result = run(spec, p, launch);
        const auto& records = result.arrays[mapped].records;
        REQUIRE(records.size() == fast.map.size());
        uint64_t differ = 0;
        for (uint64_t e = 0; e < records.size(); ++e) {
            const uint32_t touches = fast.map.touches[e];
            differ +=
                records[e].writers != touches || (touches && records[e].first_writer != fast.map.first_toucher[e]);
        }
        CHECK(differ == 0);
        // The same counts: threads that wrote an element are the active ones, the rest idle.
        const LaunchStats s = model_array_stats(result, mapped, false, launch, false);
        CHECK(s.threads_active == fast.stats.threads_active);
        CHECK(s.threads_idle == fast.stats.threads_idle);
        CHECK(s.elements_untouched == fast.stats.elements_untouched);
        CHECK(s.elements_multi == fast.stats.elements_multi);
        CHECK(s.warps == fast.stats.warps);
        CHECK(s.partial_warps == fast.stats.partial_warps);
    }
}

TEST_CASE("a map's active threads are those that wrote - or read - its array, in one block for a shared one") {
    // reduce-sequential, n 1000, block 256: 4 blocks; every thread loads in[i] if i < n (1000
    // of 1024), thread 0 of each block writes its partial sum; every thread of a block writes
    // sdata, and threads 0-127 read it (the first step, s = 128, is the widest).
    const KernelSpec& spec = *find_builtin_kernel("reduce-sequential");
    const LaunchConfig launch{{4, 1, 1}, {256, 1, 1}};
    ModelLaunch model_launch{&spec, {1000}, launch};
    model_launch.shared_block = 1;
    const auto r = run_model(model_launch);
    REQUIRE_MESSAGE(r.value, r.error);
    const LaunchStats in = model_array_stats(*r.value, spec.array_index("in"), true, launch, false);
    CHECK(in.threads_active == 1000);
    CHECK(in.threads_idle == 24);
    CHECK(model_array_stats(*r.value, spec.array_index("in"), false, launch, false).threads_active == 0);
    const LaunchStats out = model_array_stats(*r.value, spec.array_index("partial"), false, launch, false);
    CHECK(out.threads_active == 4);
    CHECK(out.threads_idle == 1020);
    const LaunchStats sdata = model_array_stats(*r.value, spec.array_index("sdata"), false, launch, true);
    CHECK(sdata.threads_active == 256);
    CHECK(sdata.threads_idle == 0);
    CHECK(model_array_stats(*r.value, spec.array_index("sdata"), true, launch, true).threads_active == 128);
}

TEST_CASE("an element's writers and readers are distinct threads - again after a barrier, or atomics, count once") {
    KernelSpec spec;
    spec.name = "test-touch-again";
    const auto one = [](const Params&, const LaunchConfig&) { return std::vector<uint64_t>{1}; };
    spec.arrays = {{"x", MemorySpace::Global, ValueType::Float32, ArrayRole::Input, one},
                   {"w", MemorySpace::Global, ValueType::Float32, ArrayRole::Output, one},
                   {"sum", MemorySpace::Global, ValueType::Int32, ArrayRole::Output, one}};
    spec.fill_input = [](const Params&, size_t, std::vector<uint32_t>& bits) {
        std::fill(bits.begin(), bits.end(), 0u);
    };
    const auto phase = [](ModelThread& t) {
        t.array<float>(1).store(0, t.array<float>(0).load(0, 2), 3);
        t.array<int>(2).atomic_add(0, 1, 4);
        t.array<int>(2).atomic_add(0, 1, 4);
    };
    for (const bool barrier : {false, true}) {
        CAPTURE(barrier);
        spec.uses_barriers = barrier;
        spec.body = [&](ModelThread& t) {
            phase(t);
            if (barrier) t.syncthreads(5);
            phase(t);
        };
        const ModelResult result = run(spec, {}, {{2, 1, 1}, {8, 1, 1}});  // 16 threads, each touching twice
        CHECK(result.arrays[0].records[0].readers == 16);
        CHECK(result.arrays[1].records[0].writers == 16);
        CHECK(result.arrays[1].records[0].stores == 32);  // every store counts
        CHECK(result.arrays[2].records[0].readers == 16);
        CHECK(result.arrays[2].records[0].writers == 16);
        CHECK(result.arrays[2].bits[0] == 64);
    }
}

TEST_CASE("a watched element lists every thread that touched it - the first 32, then how many - as its record counts") {
    const KernelSpec& matmul = *find_builtin_kernel("matmul");
    ModelLaunch model_launch{&matmul, {200, 200, 200, 300, 300}, {{16, 16, 1}, {32, 32, 1}}};
    const size_t a = matmul.array_index("A"), c = matmul.array_index("C");
    const auto recorded = run_model(model_launch);
    REQUIRE(recorded.value);
    for (const auto& [array, element] : {std::pair{c, uint64_t(3 * 200 + 4)}, std::pair{a, uint64_t(5 * 200 + 7)}}) {
        CAPTURE(array);
        ModelLaunch w = model_launch;
        w.keep_records = 0;
        w.watch_array = array;
        w.watch_element = element;
        const auto run = run_model(w);
        REQUIRE(run.value);
        REQUIRE(run.value->watched);
        const WatchedElement& watched = *run.value->watched;
        const ElementRecord& r = recorded.value->arrays[array].records[element];
        CHECK(run.value->counts == recorded.value->counts);  // watching changes no finding
        if (array == c) {  // C[3, 4]: one thread writes it once, after reading nothing of C
            CHECK(watched.threads == 1);
            CHECK(watched.accesses == 1);
            REQUIRE(watched.listed.size() == 1);
            CHECK(watched.listed[0].thread == r.first_writer);
            CHECK(watched.listed[0].ops == ElementToucher::kWrite);
            CHECK(watched.listed[0].write_line > 0);
        } else {  // A[5, 7]: read by every thread of a row of C, each once
            CHECK(watched.threads == r.readers);
            CHECK(watched.threads == 200);
            CHECK(watched.accesses == 200);
            REQUIRE(watched.listed.size() == WatchedElement::kListed);
            CHECK(watched.listed[0].thread == r.first_reader);
            for (const ElementToucher& t : watched.listed) CHECK(t.ops == ElementToucher::kRead);
        }
    }

    // Atomics on one bin, by threads of every block: each listed once, as an atomic.
    const KernelSpec& histogram = *find_builtin_kernel("histogram-atomic");
    ModelLaunch atomic_launch{&histogram, {4096, 16}, {{16, 1, 1}, {256, 1, 1}}};
    const auto bins = run_model(atomic_launch);
    REQUIRE(bins.value);
    atomic_launch.watch_array = histogram.array_index("bins");
    atomic_launch.watch_element = 3;
    const auto watched = run_model(atomic_launch);
    REQUIRE(watched.value);
    CHECK(watched.value->watched->threads == bins.value->arrays[atomic_launch.watch_array].records[3].writers);
    CHECK(watched.value->watched->threads > 32);
    CHECK(watched.value->watched->listed.front().ops ==
          (ElementToucher::kRead | ElementToucher::kWrite | ElementToucher::kAtomic));
}
