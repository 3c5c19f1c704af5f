// The kernel model spreads a launch's blocks over several threads: whatever the split, the
// result is the one-thread run's — values, every record, the findings with their threads,
// messages and order, the counts — for every built-in kernel on its covering launch and on
// awkward ones (extra blocks past the end, 2D blocks that race, blocks a tiled kernel was not
// written for), and when a block in the middle ends the launch at a divergent barrier. And the
// findings-only level (no per-element records) finds what the recording run finds.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <functional>
#include <random>
#include <string>
#include <thread>

#include "tests/kernels/int_out_kernel.hpp"
#include "kernels/builtin/registry.hpp"
#include "kernels/model/model_emulator.hpp"
#include "kernels/model/model_thread.hpp"

using namespace threadmap;

namespace {

// The kernel's defaults, each at most 72 (a few blocks of every kernel, and quick).
Params small_params(const KernelSpec& spec) {
    Params p;
    for (const ParamSpec& s : spec.params)
        p.push_back(
            std::max(s.min, std::min<uint64_t>(72, s.default_from < p.size() ? p[s.default_from] : s.default_value)));
    return p;
}

// records: the arrays (bit a: array a) whose per-element records `spread` kept (the others must
// have none; `one`'s are not compared there).
void check_same(const ModelResult& one, const ModelResult& spread, uint64_t records = ModelLaunch::kAllArrays) {
    CHECK(spread.ended_early == one.ended_early);
    REQUIRE(spread.diverged.has_value() == one.diverged.has_value());
    if (one.diverged) {
        CHECK(spread.diverged->block == one.diverged->block);
        CHECK(spread.diverged->line == one.diverged->line);
        CHECK(spread.diverged->sides == one.diverged->sides);
    }
    CHECK(spread.phases == one.phases);
    CHECK(spread.accesses == one.accesses);
    CHECK(spread.counts == one.counts);
    REQUIRE(spread.findings.size() == one.findings.size());
    for (size_t f = 0; f < one.findings.size(); ++f) {
        CAPTURE(f);
        const Finding &a = one.findings[f], &b = spread.findings[f];
        CHECK(b.kind == a.kind);
        CHECK(b.message == a.message);
        CHECK(b.array == a.array);
        CHECK(b.index == a.index);
        CHECK(b.line == a.line);
        REQUIRE(b.threads.size() == a.threads.size());
        for (size_t t = 0; t < a.threads.size(); ++t) {
            CHECK(b.threads[t].block == a.threads[t].block);
            CHECK(b.threads[t].thread == a.threads[t].thread);
        }
    }
    REQUIRE(spread.arrays.size() == one.arrays.size());
    for (size_t a = 0; a < one.arrays.size(); ++a) {
        CAPTURE(a);
        const ArrayResult &x = one.arrays[a], &y = spread.arrays[a];
        CHECK(y.shape == x.shape);
        CHECK(y.bits == x.bits);
        CHECK(y.found == x.found);
        CHECK(y.threads_writing == x.threads_writing);
        CHECK(y.threads_reading == x.threads_reading);
        if (!(records >> a & 1)) {
            CHECK(y.records.empty());
            continue;
        }
        CHECK(y.past == x.past);
        CHECK(y.past_elsewhere == x.past_elsewhere);
        REQUIRE(y.records.size() == x.records.size());
        uint64_t differ = 0;
        for (size_t e = 0; e < x.records.size(); ++e) {
            const ElementRecord &r = x.records[e], &s = y.records[e];
            differ += r.first_writer != s.first_writer || r.writers != s.writers || r.stores != s.stores ||
                      r.first_reader != s.first_reader || r.readers != s.readers;
        }
        CHECK(differ == 0);
    }
}

// The launch on one thread, then spread over 2, 3 and 5.
void check_spread(ModelLaunch model_launch) {
    model_launch.workers = 1;
    const auto one = run_model(model_launch);
    if (!one.value) return;  // a launch the model refuses is refused whatever the split
    for (unsigned workers : {2u, 3u, 5u}) {
        CAPTURE(workers);
        model_launch.workers = workers;
        const auto spread = run_model(model_launch);
        REQUIRE_MESSAGE(spread.value, spread.error);
        check_same(*one.value, *spread.value);
    }
}

// The launch on 1 and on 3 workers gives `reference` (`records`: as check_same).
void check_workers_give(const ModelResult& reference, ModelLaunch model_launch,
                        uint64_t records = ModelLaunch::kAllArrays) {
    for (unsigned workers : {1u, 3u}) {
        CAPTURE(workers);
        model_launch.workers = workers;
        const auto run = run_model(model_launch);
        REQUIRE_MESSAGE(run.value, run.error);
        check_same(reference, *run.value, records);
    }
}

// Each built-in kernel on its covering launch, with blocks past the end (out of bounds in the
// unguarded kernels), and on three random 2D blocks (races, blocks a tiled kernel was not
// written for); `seed` picks the blocks.
template <class Check>
void for_each_test_launch(unsigned seed, Check check) {
    std::mt19937 rng(seed);
    const auto pick = [&](uint32_t lo, uint32_t hi) { return std::uniform_int_distribution<uint32_t>(lo, hi)(rng); };
    for (const KernelSpec* spec : builtin_kernels()) {
        CAPTURE(spec->name);
        const Params p = small_params(*spec);
        const Dim3 grid = spec->covering_grid(p, spec->default_block);
        check({spec, p, {grid, spec->default_block}});
        check({spec, p, {{grid.x + 2, grid.y, grid.z}, spec->default_block}});
        for (int trial = 0; trial < 3; ++trial) {
            Dim3 block{pick(1, 64), pick(1, 4), 1};
            check({spec, p, {spec->covering_grid(p, block), block}});
        }
    }
}

// A test kernel over one global float array `a` of n elements (n, its one parameter), a[i] = i
// at the start.
KernelSpec one_array_kernel(const std::string& name, uint64_t n, std::function<void(ModelThread&)> body) {
    KernelSpec spec;
    spec.name = name;
    spec.params = {{"n", "", n}};
    spec.arrays = {{"a", MemorySpace::Global, ValueType::Float32, ArrayRole::InOut,
                    [](const Params& p, const LaunchConfig&) { return std::vector<uint64_t>{p[0]}; }}};
    spec.fill_input = [](const Params&, size_t, std::vector<uint32_t>& bits) {
        for (size_t i = 0; i < bits.size(); ++i) bits[i] = std::bit_cast<uint32_t>(float(i));
    };
    spec.body = std::move(body);
    return spec;
}

}  // namespace

TEST_CASE("spread over threads, every built-in kernel's launches give the one-thread result, findings included") {
    for_each_test_launch(11, check_spread);
}

// The state is kept in chunks of 65,536 elements, and a later range's chunks that no earlier one
// touched are taken whole (ModelEmulator::take_chunk): the small launches above fit in one.
TEST_CASE("spread over threads, launches over several chunks of elements give the one-thread result") {
    const KernelSpec& increment = *find_builtin_kernel("increment");
    const uint64_t n = 5 * (uint64_t(1) << 16) + 123;
    check_spread({&increment, {n}, {{uint32_t((n + 255) / 256), 1, 1}, {256, 1, 1}}});
    const KernelSpec& transpose = *find_builtin_kernel("transpose-tiled");
    check_spread({&transpose, {512, 512}, {{16, 16, 1}, {32, 32, 1}}});
    // 8-byte elements (two words each), all read, odd ones written by two threads (a race).
    KernelSpec wide = one_array_kernel("wide", n, [](ModelThread& t) {
        const uint64_t i = t.blockIdx.x * uint64_t(t.blockDim.x) + t.threadIdx.x;
        if (i >= t.param(0)) return;
        const uint64_t bits = t.load_bits(0, i, 1);
        if (i % 2 || i + 1 < t.param(0)) t.store_bits(0, i | 1, bits + (uint64_t(1) << 40) + 1, 2);
    });
    wide.arrays[0].type = ValueType::Float64;
    wide.fill_input = [](const Params&, size_t, std::vector<uint32_t>& bits) {
        for (size_t w = 0; w < bits.size(); ++w) bits[w] = uint32_t(w * 2654435761u);
    };
    check_spread({&wide, {n}, {{uint32_t((n + 127) / 128), 1, 1}, {128, 1, 1}}});
}

// An input (a const pointer) keeps no ordering state (ModelLaunch::inputs_tracked): reads alone
// can be no finding, and a kernel that writes one anyway is run again with it tracked.
TEST_CASE("inputs without ordering state: every built-in kernel's launches give the tracked run's result, spread too") {
    const auto compare = [](ModelLaunch model_launch) {
        model_launch.inputs_tracked = true;
        model_launch.workers = 1;
        const auto tracked = run_model(model_launch);
        if (!tracked.value) return;
        model_launch.inputs_tracked = false;
        check_workers_give(*tracked.value, model_launch);
    };
    for_each_test_launch(37, compare);
}

TEST_CASE("a kernel that writes its input after all (a learner's const_cast) is run again with it tracked: its race") {
    KernelSpec spec = one_array_kernel("writes-input", 64, [](ModelThread& t) {
        const auto a = t.array<float>(0);
        const float v = a.load(t.threadIdx.x, 1);
        a.store(t.threadIdx.x / 2, v, 2);  // threads 2k and 2k+1 write a[k]
    });
    spec.arrays[0].role = ArrayRole::Input;
    for (unsigned workers : {1u, 2u}) {
        CAPTURE(workers);
        ModelLaunch model_launch{&spec, {64}, {{2, 1, 1}, {32, 1, 1}}};
        model_launch.workers = workers;
        const auto untracked = run_model(model_launch);
        REQUIRE_MESSAGE(untracked.value, untracked.error);
        CHECK(untracked.value->counts[size_t(FindingKind::WriteWriteRace)] == 16);  // a[0] to a[15]
        model_launch.inputs_tracked = true;
        const auto tracked = run_model(model_launch);
        REQUIRE_MESSAGE(tracked.value, tracked.error);
        check_same(*tracked.value, *untracked.value);
    }
}

// The launch with every access taken by the emulator's path: a run that records the memory
// view's warp requests takes none inline (ModelEmulator::set_up_inline_path), so it is the
// reference the inlined path must match.
ModelLaunch through_the_emulator(ModelLaunch model_launch) {
    model_launch.record_requests = true;
    return model_launch;
}

TEST_CASE(
    "findings only: every built-in kernel's findings, their cells, counts, values and touching threads are the "
    "recording run's, no records") {
    const auto compare = [](ModelLaunch model_launch) {
        model_launch.shared_block = 0;  // its __shared__ arrays' copies and touching threads kept too
        const auto recorded = run_model(through_the_emulator(model_launch));
        if (!recorded.value) return;
        REQUIRE(!recorded.value->arrays.empty());
        model_launch.keep_records = 0;
        check_workers_give(*recorded.value, model_launch, 0);
    };
    for_each_test_launch(29, compare);
}

TEST_CASE(
    "records taken inline are the emulator's: every built-in kernel's launches, every phase and one, with their "
    "values, findings and touching threads") {
    const auto compare = [](ModelLaunch model_launch) {
        model_launch.shared_block = 0;
        for (uint32_t phase : {ModelLaunch::kAllPhases, 0u, 1u}) {
            CAPTURE(phase);
            model_launch.phase = phase;
            const auto reference = run_model(through_the_emulator(model_launch));
            if (!reference.value) return;
            check_workers_give(*reference.value, model_launch);
        }
    };
    for_each_test_launch(31, compare);
}

TEST_CASE(
    "one array's records (the window's map): every built-in kernel's launches keep that array's records as a run "
    "that keeps every array's does, and the others' none, with the same values, findings and touching threads") {
    const auto compare = [](ModelLaunch model_launch) {
        model_launch.shared_block = 0;
        for (uint32_t phase : {ModelLaunch::kAllPhases, 0u}) {
            CAPTURE(phase);
            model_launch.phase = phase;
            model_launch.keep_records = ModelLaunch::kAllArrays;
            const auto every = run_model(model_launch);
            if (!every.value) return;
            for (size_t a = 0; a < model_launch.spec->arrays.size(); ++a) {
                CAPTURE(model_launch.spec->arrays[a].name);
                model_launch.keep_records = uint64_t(1) << a;
                model_launch.workers = a % 2 ? 3 : 1;
                const auto one = run_model(model_launch);
                REQUIRE_MESSAGE(one.value, one.error);
                check_same(*every.value, *one.value, model_launch.keep_records);
            }
        }
    };
    for_each_test_launch(37, compare);
}

TEST_CASE("findings only: a read of what a later thread of the block writes, no barrier between, is a hazard") {
    // a[i] = a[i + 1] + 1 in place, one block: thread i reads a[i + 1] before thread i + 1 writes
    // it (the model runs a block's threads in order), with no barrier between: 62 hazards. At this
    // level plain loads and stores are recorded inline (model_thread.hpp): the reader a load
    // remembers there is what the later write is checked against.
    const KernelSpec spec = one_array_kernel("test-shift-in-place", 64, [](ModelThread& t) {
        const auto a = t.array<float>(0);
        const uint64_t i = t.threadIdx.x;
        if (i + 1 < a.size()) a.store(i, a.load(i + 1, 3) + 1, 3);
    });
    ModelLaunch launch{&spec, {64}, {{1, 1, 1}, {64, 1, 1}}};
    const auto recorded = run_model(launch);
    REQUIRE(recorded.value);
    launch.keep_records = 0;
    const auto found = run_model(launch);
    REQUIRE(found.value);
    CHECK(found.value->counts[size_t(FindingKind::ReadWriteHazard)] == 62);
    REQUIRE(!found.value->findings.empty());
    const Finding& first = found.value->findings.front();
    CHECK(first.kind == FindingKind::ReadWriteHazard);
    CHECK(first.index == std::vector<uint64_t>{1});  // read by thread 0, written by thread 1
    check_same(*recorded.value, *found.value, 0);
}

TEST_CASE("a finding reported on an element does not hide one of another kind there, on either path") {
    // One block of four threads, run in order. a[0]: threads 0, 1 and 2 write it (a race,
    // reported at thread 1), then thread 3 reads it (a hazard). a[1]: thread 0 writes it, thread
    // 1 reads it (a hazard), thread 2 writes it (a race). A kind reported on an element is not
    // looked for again there (BlockOrder::read_may_conflict): the other kind still is.
    const KernelSpec spec = one_array_kernel("test-race-then-hazard", 2, [](ModelThread& t) {
        const auto a = t.array<float>(0);
        const uint32_t i = t.threadIdx.x;
        if (i < 3) a.store(0, float(i), 3);
        if (i == 3) a.load(0, 4);
        if (i == 0 || i == 2) a.store(1, float(i), 5);
        if (i == 1) a.load(1, 6);
    });
    ModelLaunch launch{&spec, {2}, {{1, 1, 1}, {4, 1, 1}}};
    const auto through = run_model(through_the_emulator(launch));
    REQUIRE(through.value);
    for (uint64_t records : {ModelLaunch::kAllArrays, uint64_t(0)}) {
        CAPTURE(records);
        launch.keep_records = records;
        const auto inlined = run_model(launch);
        REQUIRE(inlined.value);
        CHECK(inlined.value->counts[size_t(FindingKind::WriteWriteRace)] == 2);
        CHECK(inlined.value->counts[size_t(FindingKind::ReadWriteHazard)] == 2);
        check_same(*through.value, *inlined.value, records);
    }
}

TEST_CASE("spread over threads: blocks that share only what they read run apart - a race runs again on one") {
    const KernelSpec& tiled = *find_builtin_kernel("matmul-tiled");
    ModelLaunch model_launch{&tiled, {64, 64, 64, 64, 64}, {{4, 4, 1}, {16, 16, 1}}};
    model_launch.workers = 3;
    const auto apart = run_model(model_launch);
    REQUIRE_MESSAGE(apart.value, apart.error);
    CHECK(apart.value->block_ranges == 3);  // A and B are only read: the three ranges joined
    check_spread(model_launch);

    // Every block adds to the same bins: the second range wrote bins the first touched.
    const KernelSpec& racy = *find_builtin_kernel("histogram-racy");
    ModelLaunch racy_launch{&racy, {4096, 16}, {{16, 1, 1}, {256, 1, 1}}};
    racy_launch.workers = 2;
    const auto again = run_model(racy_launch);
    REQUIRE_MESSAGE(again.value, again.error);
    CHECK(again.value->block_ranges == 1);
    CHECK(again.value->counts[size_t(FindingKind::WriteWriteRace)] > 0);
    check_spread(racy_launch);
}

TEST_CASE("spread over threads: a range that touched what a joined range wrote runs again, after that range's state") {
    // Six blocks over three ranges (blocks 0-1, 2-3, 4-5): each thread writes its own element,
    // and block 5's thread 0 also writes element 8, block 2's, or reads it. The second range
    // joins the first; the third does not (only what the second range left says element 8 was
    // written), so its blocks run again on one thread, after the second range's state.
    const auto late_touch = [](bool write) {
        return int_out_kernel("test-late-touch", 24, false, [write](ModelThread& t) {
            const auto out = t.array<int>(0);
            const uint64_t i = uint64_t(t.blockIdx.x) * t.blockDim.x + t.threadIdx.x;
            out.store(i, 1, 2);
            if (t.blockIdx.x != 5 || t.threadIdx.x != 0) return;
            if (write)
                out.store(8, 2, 4);
            else
                out.store(i, out.load(8, 6) + 10, 6);
        });
    };
    for (bool write : {true, false}) {
        CAPTURE(write);
        const KernelSpec spec = late_touch(write);
        ModelLaunch model_launch{&spec, {24}, {{6, 1, 1}, {4, 1, 1}}};
        model_launch.workers = 3;
        const auto r = run_model(model_launch);
        REQUIRE_MESSAGE(r.value, r.error);
        CHECK(r.value->block_ranges == 2);
        if (write) {  // the race names the second range's writer
            REQUIRE(r.value->counts[size_t(FindingKind::WriteWriteRace)] == 1);
            const Finding& race = r.value->findings.front();
            REQUIRE(race.threads.size() == 2);
            CHECK(race.threads[0].block.x == 2);
            CHECK(race.threads[1].block.x == 5);
            CHECK(r.value->arrays[0].found[8] == kFoundRace);
        } else {  // the read saw block 2's write
            CHECK(r.value->findings.empty());
            CHECK(r.value->arrays[0].bits[20] == 11u);
        }
        check_spread(model_launch);
    }
}

TEST_CASE("spread over threads: blocks that only add into the same integers run apart and their sums join") {
    // Both histograms drop what atomicAdd returns: every range runs apart, and the bins hold
    // the one-thread run's counts (checked against the spec's own reference too).
    for (const char* name : {"histogram-atomic", "histogram-shared"}) {
        CAPTURE(name);
        const KernelSpec& spec = *find_builtin_kernel(name);
        ModelLaunch model_launch{&spec, {5000, 24}, {{20, 1, 1}, {256, 1, 1}}};
        model_launch.workers = 3;
        const auto apart = run_model(model_launch);
        REQUIRE_MESSAGE(apart.value, apart.error);
        CHECK(apart.value->block_ranges == 3);
        CHECK(apart.value->counts == std::array<uint64_t, kFindingKinds>{});
        check_spread(model_launch);
    }

    // The same adds from a body that may use the old values, into floats (whose sums depend on
    // their order), or beside a plain store: the ranges run again on one thread.
    const auto adding = [](bool results_unused, ValueType type, bool plain_store) {
        KernelSpec spec;
        spec.name = "test-adds";
        spec.params = {{"n", "", 4}};
        spec.arrays = {{"sum", MemorySpace::Global, type, ArrayRole::Output,
                        [](const Params& p, const LaunchConfig&) { return std::vector<uint64_t>{p[0]}; }}};
        spec.uses_atomics = true;
        spec.atomic_results_unused = results_unused;
        spec.body = [type, plain_store](ModelThread& t) {
            const uint64_t i = t.threadIdx.x % t.param(0);
            if (plain_store && t.blockIdx.x == 9 && t.threadIdx.x == 0) t.array<int>(0).store(i, 5, 2);
            if (type == ValueType::Float32)
                t.array<float>(0).atomic_add(i, 0.1f * float(t.blockIdx.x + 1), 3);
            else
                t.array<int>(0).atomic_add(i, int(t.blockIdx.x) - 5, 3);
        };
        return spec;
    };
    const struct {
        bool results_unused;
        ValueType type;
        bool plain_store;
        uint32_t ranges;
    } cases[] = {{true, ValueType::Int32, false, 2},
                 {false, ValueType::Int32, false, 1},
                 {true, ValueType::Float32, false, 1},
                 {true, ValueType::Int32, true, 1}};
    for (const auto& c : cases) {
        CAPTURE(c.results_unused);
        CAPTURE(int(c.type));
        CAPTURE(c.plain_store);
        const KernelSpec spec = adding(c.results_unused, c.type, c.plain_store);
        ModelLaunch model_launch{&spec, {4}, {{12, 1, 1}, {64, 1, 1}}};
        model_launch.workers = 2;
        const auto r = run_model(model_launch);
        REQUIRE_MESSAGE(r.value, r.error);
        CHECK(r.value->block_ranges == c.ranges);
        check_spread(model_launch);
    }
}

TEST_CASE("spread over threads, the kept shared block and a divergent barrier mid-launch stay as on one thread") {
    const KernelSpec& reduce = *find_builtin_kernel("reduce-sequential");
    ModelLaunch kept{&reduce, {5000}, {{20, 1, 1}, {256, 1, 1}}};
    kept.shared_block = 13;
    check_spread(kept);

    // One phase recorded (the window's phase slider): the kept block's shared records and the
    // global ones are that phase's, the findings every phase's, as on one thread.
    const KernelSpec& tiled = *find_builtin_kernel("matmul-tiled");
    for (uint32_t phase : {0u, 3u}) {
        CAPTURE(phase);
        ModelLaunch one_phase{&tiled, {70, 70, 70, 70, 70}, {{9, 9, 1}, {8, 16, 1}}};
        one_phase.phase = phase;
        one_phase.shared_block = 40;
        one_phase.workers = 3;
        const auto r = run_model(one_phase);
        REQUIRE_MESSAGE(r.value, r.error);
        CHECK(r.value->block_ranges > 1);
        check_spread(one_phase);
    }

    // Block 7 of 12 leaves half its threads out of the barrier: the launch ends there, and
    // the blocks after it (run by another thread) leave no trace.
    const KernelSpec spec = int_out_kernel("test-divergent-mid-launch", 768, true, [](ModelThread& t) {
        const uint64_t i = uint64_t(t.blockIdx.x) * t.blockDim.x + t.threadIdx.x;
        t.array<int>(0).store(i, 1, 2);
        if (t.blockIdx.x == 7 && t.threadIdx.x % 2 == 1) return;
        t.syncthreads(4);
        t.array<int>(0).store(i, 2, 5);
    });
    ModelLaunch model_launch{&spec, {768}, {{12, 1, 1}, {64, 1, 1}}};
    model_launch.workers = 3;
    const auto r = run_model(model_launch);
    REQUIRE_MESSAGE(r.value, r.error);
    CHECK(r.value->ended_early);
    CHECK(r.value->arrays[0].bits[7 * 64 - 1] == 2);  // block 6 passed its barrier
    CHECK(r.value->arrays[0].bits[7 * 64] == 1);      // block 7 stopped at it
    CHECK(r.value->arrays[0].bits[8 * 64] == 0);      // block 8 never ran
    check_spread(model_launch);
}

TEST_CASE("left to choose, the model spreads a launch of many accesses per element, not one of few, with one result") {
    const unsigned cores = std::max(1u, std::min(8u, std::thread::hardware_concurrency()));
    struct Case {
        const char* kernel;
        Params params;
        Dim3 block;
        bool spreads;
    };
    // matmul-tiled: 16K threads of some 120 accesses each over 48K elements; increment: 64K
    // threads of two accesses each, one element each (records kept: not worth a second copy).
    for (const Case& c : {Case{"matmul-tiled", {128, 128, 128, 128, 128}, {16, 16, 1}, true},
                          Case{"increment", {uint64_t(1) << 16}, {256, 1, 1}, false}}) {
        CAPTURE(c.kernel);
        const KernelSpec& spec = *find_builtin_kernel(c.kernel);
        ModelLaunch chosen{&spec, c.params, {spec.covering_grid(c.params, c.block), c.block}};
        const auto r = run_model(chosen);
        REQUIRE_MESSAGE(r.value, r.error);
        CHECK(r.value->block_ranges == (c.spreads ? cores : 1u));
        ModelLaunch one = chosen;
        one.workers = 1;
        check_same(*run_model(one).value, *r.value);
    }
}

TEST_CASE("left to choose, a grid larger than its data is cut where each core gets a share of its work") {
    // Each range's first block is the first whose blocks before it weigh its share, a block
    // within the covering grid weighing `weight` blocks outside it (counted here one by one).
    const auto check_starts = [](const ModelLaunch& launch, unsigned ranges, uint64_t weight) {
        const Dim3 cover = launch.spec->covering_grid(launch.params, launch.launch.block);
        const Dim3& grid = launch.launch.grid;
        std::vector<uint64_t> before{0};  // the weight of the blocks before each block
        for (uint64_t b = 0; b < launch.launch.blocks(); ++b) {
            const bool covered = b % grid.x < cover.x && b / grid.x % grid.y < cover.y && b / grid.x / grid.y < cover.z;
            before.push_back(before.back() + (covered ? weight : 1));
        }
        const std::vector<uint64_t> starts = model_range_starts(launch, ranges, weight);
        REQUIRE(starts.size() == ranges + 1);
        CHECK(starts.front() == 0);
        CHECK(starts.back() == launch.launch.blocks());
        for (unsigned r = 1; r < ranges; ++r) {
            CAPTURE(r);
            const uint64_t first = uint64_t(std::find_if(before.begin(), before.end(),
                                                         [&](uint64_t w) { return w * ranges >= before.back() * r; }) -
                                            before.begin());
            CHECK(starts[r] == std::max(first, starts[r - 1] + 1));
        }
    };
    // The tutorial's matmul: 16×16 blocks of 32×32 threads over a 200×200 C, whose work is in the
    // 7×7 blocks at the grid's corner, all in its first half (some 400 accesses a thread).
    const KernelSpec& matmul = *find_builtin_kernel("matmul");
    ModelLaunch seed{&matmul, {200, 200, 200, 300, 300}, {{16, 16, 1}, {32, 32, 1}}};
    seed.keep_records = 0;  // as `check` runs it
    for (unsigned ranges : {2u, 3u})
        for (uint64_t weight : {3u, 401u}) {
            CAPTURE(ranges);
            CAPTURE(weight);
            check_starts(seed, ranges, weight);
        }
    // A covering grid larger than the launch's on one axis, smaller on the two others.
    ModelLaunch three_d = seed;
    three_d.launch = {{5, 9, 3}, {32, 32, 1}};  // covers 7×7×1: x wholly, y up to 7, z only 0
    check_starts(three_d, 3, 17);
    // Weight 1, or every block within the covering grid: equal counts of blocks.
    CHECK(model_range_starts(seed, 2, 1) == std::vector<uint64_t>{0, 128, 256});
    ModelLaunch covering = seed;
    covering.launch.grid = {7, 7, 1};
    CHECK(model_range_starts(covering, 2, 401) == std::vector<uint64_t>{0, 24, 49});

    // Left to choose, the first blocks weigh a covered block: the matmul's cores each get about
    // half of the 49 covered blocks, and the result is the one-thread run's.
    const auto r = run_model(seed);
    REQUIRE_MESSAGE(r.value, r.error);
    CHECK(r.value->block_ranges == std::max(1u, std::min(8u, std::thread::hardware_concurrency())));
    ModelLaunch one = seed;
    one.workers = 1;
    check_same(*run_model(one).value, *r.value, 0);
}
