// A __shared__ array's own path (ModelThread::shared_array: its loads inlined, a settled read only
// counted) against the emulator's (the same array through array(), every access checked by the
// rules): random kernels of loads, stores, atomics, accesses past the end and divergent barriers,
// over a few phases and blocks, give the same findings, messages, records, values, counts and
// touching threads on both, with a recorded block, a recorded phase, no records, two workers, and
// past the 65,536th access and an access cap. Each fails when the settled stamp is set where the
// rules would still change the element (its two readers not required) or where accesses are
// recorded (seen on the review of 996882f: 8 and 580 of 2,400 runs differed).
#include <doctest/doctest.h>

#include <string>

#include "kernels/model/model_emulator.hpp"
#include "kernels/model/model_thread.hpp"

using namespace threadmap;

namespace {

uint64_t mix(uint64_t x) {  // splitmix64: a kernel's random choices from its seed
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

enum Param : size_t { kN, kSeed, kPhases, kOps, kShared, kRepeats, kDiverge };

// Each thread's operations on the __shared__ array `s`, a phase at a time, chosen from the seed,
// its thread and block (some seeds make the blocks differ), then its result in out.
template <class Handle>
void random_body(ModelThread& t, const Handle& s) {
    const uint64_t seed = t.param(kSeed), phases = t.param(kPhases), size = t.param(kShared);
    const uint32_t tid = t.threadIdx.x;
    const uint64_t id = uint64_t(t.blockIdx.x) * t.blockDim.x + tid;
    const uint64_t block_mix = (seed & 1) ? t.blockIdx.x % 2 : 0;
    uint32_t sum = 0;  // unsigned: its sums wrap (a signed overflow is undefined, and UBSan's)
    for (uint64_t phase = 0; phase < phases; ++phase) {
        for (uint64_t k = 0; k < t.param(kOps); ++k) {
            const uint64_t r = mix(seed * 1000003 + block_mix * 7919 + phase * 131 + tid * 17 + k);
            const uint64_t kind = r % 100;
            const uint64_t i = (r >> 20) % 50 == 0 ? size + (r >> 26) % 3 : (r >> 8) % size;  // past the end at times
            const int line = int(10 + kind / 10);
            if (kind < 55) {
                for (uint64_t q = 0; q < t.param(kRepeats); ++q) sum += uint32_t(s.load(i, line));
            } else if (kind < 70) {
                s.store(i, int(uint32_t(r >> 40) + sum), line);
            } else if (kind < 78) {
                sum += uint32_t(s.atomic_add(i, 1, line));
            } else if (kind < 84) {
                sum += uint32_t(s.atomic_max(i, int(r >> 33), line));
            } else if (kind < 88) {
                sum += uint32_t(s.atomic_cas(i, int(sum), int(r >> 35), line));
            } else if (kind < 90 && t.param(kDiverge) && phase == phases / 2 && tid == seed % 7) {
                t.array<int>(0).store(id % t.param(kN), int(sum), 40);
                return;  // a divergent barrier, where one follows
            }
        }
        if (phase + 1 < phases) t.syncthreads(50);
    }
    t.array<int>(0).store(id % t.param(kN), int(sum), 60);
}

KernelSpec random_kernel(bool shared_handle) {
    KernelSpec spec;
    spec.name = shared_handle ? "test-shared-handle" : "test-plain-handle";
    spec.params = {{"n", "", 64},     {"seed", "", 1, 0}, {"phases", "", 3},    {"ops", "", 3},
                   {"shared", "", 3}, {"repeats", "", 1}, {"diverge", "", 0, 0}};
    spec.arrays = {{"out", MemorySpace::Global, ValueType::Int32, ArrayRole::Output,
                    [](const Params& p, const LaunchConfig&) { return std::vector<uint64_t>{p[kN]}; }},
                   {"s", MemorySpace::Shared, ValueType::Int32, ArrayRole::Scratch,
                    [](const Params& p, const LaunchConfig&) { return std::vector<uint64_t>{p[kShared]}; }}};
    spec.uses_barriers = true;
    spec.uses_atomics = true;
    spec.body = shared_handle ? [](ModelThread& t) { random_body(t, t.shared_array<int>(1)); }
                              : [](ModelThread& t) { random_body(t, t.array<int>(1)); };
    return spec;
}

// Everything a run's result says, as text: two runs agree when their texts do.
std::string described(const Outcome<ModelResult>& run) {
    if (!run.value) return "error: " + run.error;
    const ModelResult& r = *run.value;
    std::string d = "accesses " + std::to_string(r.accesses) + " phases " + std::to_string(r.phases) + " ended " +
                    std::to_string(r.ended_early) + " counts";
    for (uint64_t c : r.counts) d += " " + std::to_string(c);
    d += "\n";
    for (const Finding& f : r.findings) d += std::to_string(int(f.kind)) + " " + f.message + "\n";
    for (const ArrayResult& a : r.arrays) {
        d += "writing " + std::to_string(a.threads_writing) + " reading " + std::to_string(a.threads_reading) +
             " past elsewhere " + std::to_string(a.past_elsewhere) + "\nbits";
        for (uint32_t b : a.bits) d += " " + std::to_string(b);
        d += "\nrecords";
        for (const ElementRecord& e : a.records)
            d += " " + std::to_string(e.first_writer) + "/" + std::to_string(e.writers) + "/" +
                 std::to_string(e.stores) + "/" + std::to_string(e.first_reader) + "/" + std::to_string(e.readers);
        d += "\nfound";
        for (uint8_t f : a.found) d += " " + std::to_string(f);
        d += "\npast";
        for (const PastRecord& p : a.past)
            d += " " + std::to_string(p.first_writer) + "/" + std::to_string(p.writes) + "/" +
                 std::to_string(p.first_reader) + "/" + std::to_string(p.reads);
        d += "\n";
    }
    return d;
}

// The launch run with either handle: the same text.
void check_handles_agree(ModelLaunch launch, const KernelSpec& shared, const KernelSpec& plain) {
    launch.spec = &shared;
    const std::string a = described(run_model(launch));
    launch.spec = &plain;
    const std::string b = described(run_model(launch));
    CHECK_MESSAGE(a == b, "with the __shared__ handle:\n" << a << "with array():\n" << b);
}

}  // namespace

TEST_CASE("a __shared__ array's own path gives the rules' result on random kernels - recorded or not, spread or not") {
    const KernelSpec shared = random_kernel(true), plain = random_kernel(false);
    for (uint64_t seed = 0; seed < 160; ++seed) {
        const uint64_t h = mix(seed ^ 0xabcdef);
        const uint64_t threads = 1 + h % 96, blocks = 1 + (h >> 8) % 4, phases = 1 + (h >> 12) % 5;
        const Params p = {
            64, seed, phases, 1 + (h >> 16) % 4, 1 + (h >> 20) % 4, 1 + (h >> 24) % 3, uint64_t((h >> 28) % 8 == 0)};
        CAPTURE(seed);
        for (int variant = 0; variant < 6; ++variant) {
            CAPTURE(variant);
            ModelLaunch launch;
            launch.params = p;
            launch.launch = {{uint32_t(blocks), 1, 1}, {uint32_t(threads), 1, 1}};
            launch.workers = 1;
            const uint64_t block = (h >> 32) % blocks;
            const uint32_t phase = uint32_t((h >> 36) % phases);
            if (variant == 1) launch.shared_block = block;
            if (variant == 2) launch.shared_block = block, launch.phase = phase;
            if (variant == 3) launch.phase = phase;
            if (variant == 4) launch.shared_block = block, launch.keep_records = 0;
            if (variant == 5) launch.workers = 2, launch.shared_block = block;
            check_handles_agree(launch, shared, plain);
        }
    }
}

// Long runs, where the emulator's path takes every 65,536th access (often a settled read) and an
// access cap stops the run mid-block.
TEST_CASE("a __shared__ array's own path gives the rules' result past the 65,536th access and at an access cap") {
    const KernelSpec shared = random_kernel(true), plain = random_kernel(false);
    for (uint64_t seed = 0; seed < 8; ++seed) {
        const uint64_t h = mix(seed ^ 0x1234);
        CAPTURE(seed);
        for (int variant = 0; variant < 3; ++variant) {
            CAPTURE(variant);
            ModelLaunch launch;
            launch.params = {64, seed, 2 + h % 4, 4, 1 + (h >> 8) % 3, 40 + (h >> 12) % 30, 0};
            launch.launch = {{3, 1, 1}, {uint32_t(64 + (h >> 20) % 64), 1, 1}};
            launch.workers = 1;
            if (variant == 1) launch.shared_block = 1;
            if (variant == 2) launch.max_accesses = 70000 + (h >> 24) % 100000;
            check_handles_agree(launch, shared, plain);
        }
    }
}
