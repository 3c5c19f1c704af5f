// The kernel model against an oracle written from the kernels' CUDA text alone (nested loops
// over the grid, phases apart, sets of thread ids), on random launches — blocks wider than the
// tile, 2-D and 3-D blocks, grids larger or smaller than the data — where the lessons' covering
// launches never go: for every registry kernel but increment and increment-stride (test_model's
// comparison with the fast emulator covers those), per element of every global array and of
// one block's __shared__ array, the smallest thread id that wrote (read) it and how many
// threads did (and, where the accesses are listed, the stores and the out-of-bounds accesses
// past each end); and how many findings of each kind: an out-of-bounds access each time, a
// race, a hazard or an uninitialised read once per element (per block for shared memory).
#include <doctest/doctest.h>

#include <algorithm>
#include <functional>
#include <array>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "tests/random_launch.hpp"
#include "kernels/builtin/registry.hpp"
#include "kernels/model/model_emulator.hpp"

using namespace threadmap;

namespace {

using Touchers = std::map<uint64_t, std::set<uint32_t>>;  // element -> thread ids

struct Expected {
    std::vector<Touchers> writes, reads;  // per array of the spec (a shared one: the kept block's)
    std::array<uint64_t, kFindingKinds> counts{};
    // judge()'s: per array, the out-of-bounds accesses within past_window() of its end (index
    // size + k: the smallest id and the number of accesses that wrote and read there) and
    // those elsewhere.
    bool past_checked = false;
    std::vector<std::map<uint64_t, PastRecord>> past;
    std::vector<uint64_t> past_elsewhere;
    std::vector<std::map<uint64_t, uint32_t>> stores;  // judge()'s: writes and atomics per element, each
};

void count(Expected& e, FindingKind kind, uint64_t n = 1) { e.counts[size_t(kind)] += n; }

// Elements of `t` two or more threads wrote.
uint64_t shared_by_several(const Touchers& t) {
    return uint64_t(std::count_if(t.begin(), t.end(), [](const auto& e) { return e.second.size() > 1; }));
}

struct Thread {
    uint32_t id;
    Dim3 block, thread;
    uint64_t block_linear;
};

// Every thread of the launch, block by block (x fastest), as CUDA numbers them.
template <class PerBlock>
void for_each_block(const LaunchConfig& launch, PerBlock per_block) {
    const uint32_t tpb = launch.block.x * launch.block.y * launch.block.z;
    for (uint32_t bz = 0; bz < launch.grid.z; ++bz)
        for (uint32_t by = 0; by < launch.grid.y; ++by)
            for (uint32_t bx = 0; bx < launch.grid.x; ++bx) {
                const uint64_t b = (uint64_t(bz) * launch.grid.y + by) * launch.grid.x + bx;
                std::vector<Thread> threads;
                for (uint32_t tz = 0; tz < launch.block.z; ++tz)
                    for (uint32_t ty = 0; ty < launch.block.y; ++ty)
                        for (uint32_t tx = 0; tx < launch.block.x; ++tx)
                            threads.push_back({uint32_t(b * tpb + (tz * launch.block.y + ty) * launch.block.x + tx),
                                               {bx, by, bz},
                                               {tx, ty, tz},
                                               b});
                per_block(b, threads);
            }
}

// transpose_tiled's text: phase 0 `tile[ty][tx] = in[y * cols + x]` where x < cols && y < rows;
// phase 1 `out[y * rows + x] = tile[tx][ty]` for the transposed block where x < rows && y < cols.
Expected transpose_oracle(uint64_t rows, uint64_t cols, uint32_t width, const LaunchConfig& launch, uint64_t kept) {
    enum { kIn, kOut, kTile };
    Expected e;
    e.writes.resize(3);
    e.reads.resize(3);
    const uint64_t tile_size = 32 * width;
    for_each_block(launch, [&](uint64_t b, const std::vector<Thread>& threads) {
        Touchers written;  // this block's tile, phase 0
        std::set<uint64_t> read_unwritten;
        for (const Thread& t : threads) {
            const uint64_t x = uint64_t(t.block.x) * 32 + t.thread.x, y = uint64_t(t.block.y) * 32 + t.thread.y;
            if (x >= cols || y >= rows) continue;
            e.reads[kIn][y * cols + x].insert(t.id);
            const uint64_t s = uint64_t(t.thread.y) * width + t.thread.x;
            if (s >= tile_size) {
                count(e, FindingKind::OutOfBounds);
                continue;
            }
            written[s].insert(t.id);
            if (b == kept) e.writes[kTile][s].insert(t.id);
        }
        count(e, FindingKind::WriteWriteRace, shared_by_several(written));
        for (const Thread& t : threads) {
            const uint64_t x = uint64_t(t.block.y) * 32 + t.thread.x, y = uint64_t(t.block.x) * 32 + t.thread.y;
            if (x >= rows || y >= cols) continue;
            const uint64_t s = uint64_t(t.thread.x) * width + t.thread.y;
            if (s >= tile_size) {
                count(e, FindingKind::OutOfBounds);
            } else {
                if (!written.count(s)) read_unwritten.insert(s);
                if (b == kept) e.reads[kTile][s].insert(t.id);
            }
            e.writes[kOut][y * rows + x].insert(t.id);
        }
        count(e, FindingKind::UninitializedRead, read_unwritten.size());
    });
    // Two threads writing one element of out: of two blocks (one block's are distinct).
    count(e, FindingKind::WriteWriteRace, shared_by_several(e.writes[kOut]));
    return e;
}

// stencil_1d's text (RADIUS 3, temp of blockDim.x + 6): phase 0 `temp[l] = g < n ? in[g] : 0`
// and, for threadIdx.x < 3, the halo `temp[l - 3]` from in[g - 3] (g >= 3 && g - 3 < n) and
// `temp[l + blockDim.x]` from in[g + blockDim.x] (< n); phase 1, where g < n, out[g] = the sum
// of temp[l - 3 … l + 3].
Expected stencil_oracle(uint64_t n, const LaunchConfig& launch, uint64_t kept) {
    enum { kIn, kOut, kTemp };
    Expected e;
    e.writes.resize(3);
    e.reads.resize(3);
    for_each_block(launch, [&](uint64_t b, const std::vector<Thread>& threads) {
        Touchers written;
        std::set<uint64_t> read_unwritten;
        const auto write_temp = [&](uint64_t s, uint32_t id) {
            written[s].insert(id);
            if (b == kept) e.writes[kTemp][s].insert(id);
        };
        for (const Thread& t : threads) {
            const uint64_t g = uint64_t(t.block.x) * launch.block.x + t.thread.x, s = t.thread.x + 3;
            if (g < n) e.reads[kIn][g].insert(t.id);
            write_temp(s, t.id);
            if (t.thread.x < 3) {
                if (g >= 3 && g - 3 < n) e.reads[kIn][g - 3].insert(t.id);
                write_temp(s - 3, t.id);
                if (g + launch.block.x < n) e.reads[kIn][g + launch.block.x].insert(t.id);
                write_temp(s + launch.block.x, t.id);
            }
        }
        count(e, FindingKind::WriteWriteRace, shared_by_several(written));
        for (const Thread& t : threads) {
            const uint64_t g = uint64_t(t.block.x) * launch.block.x + t.thread.x, s = t.thread.x + 3;
            if (g >= n) continue;
            for (uint64_t k = s - 3; k <= s + 3; ++k) {
                if (!written.count(k)) read_unwritten.insert(k);
                if (b == kept) e.reads[kTemp][k].insert(t.id);
            }
            e.writes[kOut][g].insert(t.id);
        }
        count(e, FindingKind::UninitializedRead, read_unwritten.size());
    });
    // threadIdx.y, .z and blockIdx.y, .z do not enter g: their threads write one out[g].
    count(e, FindingKind::WriteWriteRace, shared_by_several(e.writes[kOut]));
    return e;
}

// The kernels with atomics and loops of barriers, as a list of accesses per block, made in
// the model's order (phase by phase, threads by id, each in program order), then judged by
// CUDA's rules directly: a race is two threads' writes (not both atomic) with no barrier
// between them (always, from two blocks); a hazard a plain read and another thread's write of
// the block in one phase; an uninitialised read a plain read of shared memory no thread of the
// block wrote before; each once per element (per block for shared memory), an out-of-bounds
// access each time.
enum class Op { Read, Write, Atomic };
struct Access {
    uint32_t phase, id;
    size_t array;
    uint64_t element;
    Op op;
};

// `phase`: the records keep only that phase's accesses (ModelLaunch::phase); findings are all.
Expected judge(const KernelSpec& spec, const Params& p, const LaunchConfig& launch, uint64_t kept,
               const std::function<void(const std::vector<Thread>&, std::vector<Access>&)>& block_accesses,
               uint32_t phase = ModelLaunch::kAllPhases) {
    Expected e;
    e.writes.resize(spec.arrays.size());
    e.reads.resize(spec.arrays.size());
    e.past_checked = true;
    e.past.resize(spec.arrays.size());
    e.past_elsewhere.resize(spec.arrays.size());
    e.stores.resize(spec.arrays.size());
    std::vector<uint64_t> sizes;
    for (const ArraySpec& a : spec.arrays) {
        uint64_t n = 1;
        for (uint64_t side : a.shape(p, launch)) n *= side;
        sizes.push_back(n);
    }
    const auto shared = [&](size_t a) { return spec.arrays[a].space == MemorySpace::Shared; };
    // Per (array, element) of global arrays: every write with its block and phase, and the
    // block's plain reads, for the checks once all blocks ran.
    struct Write {
        uint64_t block;
        uint32_t phase, id;
        bool atomic;
    };
    std::map<std::pair<size_t, uint64_t>, std::vector<Write>> global_writes;
    std::map<std::pair<size_t, uint64_t>, std::vector<Write>> global_reads;
    for_each_block(launch, [&](uint64_t b, const std::vector<Thread>& threads) {
        std::vector<Access> accesses;
        block_accesses(threads, accesses);
        std::map<std::pair<size_t, uint64_t>, std::vector<Access>> shared_touches;
        std::set<std::pair<size_t, uint64_t>> written, uninitialised;
        for (const Access& x : accesses) {
            const bool writes = x.op != Op::Read, reads = x.op != Op::Write;
            if (x.element >= sizes[x.array]) {
                count(e, FindingKind::OutOfBounds);
                if ((shared(x.array) && b != kept) || (phase != ModelLaunch::kAllPhases && x.phase != phase)) continue;
                const uint64_t n = sizes[x.array];
                if (x.element - n >= past_window(n)) {
                    ++e.past_elsewhere[x.array];
                    continue;
                }
                PastRecord& r = e.past[x.array][x.element - n];
                if (writes) r.first_writer = std::min(r.first_writer, x.id), ++r.writes;
                if (reads) r.first_reader = std::min(r.first_reader, x.id), ++r.reads;
                continue;
            }
            if ((!shared(x.array) || b == kept) && (phase == ModelLaunch::kAllPhases || x.phase == phase)) {
                if (writes) e.writes[x.array][x.element].insert(x.id), ++e.stores[x.array][x.element];
                if (reads) e.reads[x.array][x.element].insert(x.id);
            }
            const auto key = std::make_pair(x.array, x.element);
            if (shared(x.array)) {
                if (x.op == Op::Read && !written.count(key)) uninitialised.insert(key);
                if (writes) written.insert(key);
                shared_touches[key].push_back(x);
            } else {
                (writes ? global_writes : global_reads)[key].push_back({b, x.phase, x.id, x.op == Op::Atomic});
            }
        }
        count(e, FindingKind::UninitializedRead, uninitialised.size());
        for (const auto& [key, touches] : shared_touches) {
            bool race = false, hazard = false;
            for (const Access& w : touches)
                for (const Access& o : touches) {
                    if (w.op == Op::Read || o.id == w.id || o.phase != w.phase) continue;
                    race |= o.op != Op::Read && !(w.op == Op::Atomic && o.op == Op::Atomic);
                    hazard |= o.op == Op::Read;
                }
            count(e, FindingKind::WriteWriteRace, race);
            count(e, FindingKind::ReadWriteHazard, hazard);
        }
    });
    for (const auto& [key, writes] : global_writes) {
        bool race = false, hazard = false;
        for (const Write& w : writes) {
            for (const Write& o : writes)
                race |= o.id != w.id && (o.block != w.block || o.phase == w.phase) && !(w.atomic && o.atomic);
            if (const auto r = global_reads.find(key); r != global_reads.end())
                for (const Write& o : r->second) hazard |= o.id != w.id && o.block == w.block && o.phase == w.phase;
        }
        count(e, FindingKind::WriteWriteRace, race);
        count(e, FindingKind::ReadWriteHazard, hazard);
    }
    return e;
}

// Whether the model's records of array `a` are the oracle's: first id and distinct threads.
void check_records(const KernelSpec& spec, const ModelResult& result, const Expected& e, size_t a) {
    CAPTURE(spec.arrays[a].name);
    const ArrayResult& got = result.arrays[a];
    REQUIRE(!got.records.empty());
    size_t wrong = 0;
    for (uint64_t i = 0; i < got.records.size() && wrong < 3; ++i) {
        const ElementRecord& rec = got.records[i];
        const auto w = e.writes[a].find(i), rd = e.reads[a].find(i);
        const uint32_t first_writer = w == e.writes[a].end() ? ElementRecord::kNone : *w->second.begin();
        const uint32_t first_reader = rd == e.reads[a].end() ? ElementRecord::kNone : *rd->second.begin();
        const uint32_t writers = w == e.writes[a].end() ? 0 : uint32_t(w->second.size());
        const uint32_t readers = rd == e.reads[a].end() ? 0 : uint32_t(rd->second.size());
        if (rec.first_writer != first_writer || rec.writers != writers || rec.first_reader != first_reader ||
            rec.readers != readers) {
            ++wrong;
            FAIL_CHECK("element " << i << ": model writer " << rec.first_writer << " ×" << rec.writers << ", reader "
                                  << rec.first_reader << " ×" << rec.readers << "; oracle writer " << first_writer
                                  << " ×" << writers << ", reader " << first_reader << " ×" << readers);
        }
    }
    if (!e.past_checked) return;
    for (uint64_t i = 0; i < got.records.size(); ++i) {
        const auto want = e.stores[a].find(i);
        if (got.records[i].stores != (want == e.stores[a].end() ? 0 : want->second)) {
            FAIL_CHECK("element " << i << ": " << got.records[i].stores << " stores");
            break;
        }
    }
    CHECK(got.past_elsewhere == e.past_elsewhere[a]);
    const uint64_t drawn = e.past[a].empty() ? 0 : e.past[a].rbegin()->first + 1;  // up to the last one touched
    REQUIRE(got.past.size() == drawn);
    for (uint64_t spec = 0; spec < drawn; ++spec) {
        const auto want = e.past[a].find(spec);
        if (got.past[spec] != (want == e.past[a].end() ? PastRecord{} : want->second))
            FAIL_CHECK("past the end + " << spec);
    }
}

std::string dims(const LaunchConfig& launch) {
    const auto d = [](const Dim3& v) {
        return std::to_string(v.x) + "," + std::to_string(v.y) + "," + std::to_string(v.z);
    };
    return "grid " + d(launch.grid) + " block " + d(launch.block);
}

// Runs the launch in the model and compares every array's records and the finding counts with
// the oracle's, naming the launch when they differ.
void check_model_run(const ModelLaunch& model_launch, const Expected& e) {
    const KernelSpec& spec = *model_launch.spec;
    std::string launch = spec.name + " " + dims(model_launch.launch);
    for (size_t i = 0; i < spec.params.size(); ++i)
        launch += " --" + spec.params[i].name + " " + std::to_string(model_launch.params[i]);
    if (model_launch.shared_block != UINT64_MAX) launch += ", kept block " + std::to_string(model_launch.shared_block);
    if (model_launch.phase != ModelLaunch::kAllPhases) launch += ", phase " + std::to_string(model_launch.phase);
    CAPTURE(launch);
    const auto r = run_model(model_launch);
    REQUIRE_MESSAGE(r.value, r.error);
    for (size_t a = 0; a < spec.arrays.size(); ++a) check_records(spec, *r.value, e, a);
    CHECK(r.value->counts == e.counts);
}

LaunchConfig random_launch(std::mt19937& g, int trial) {
    const auto pick = [&](uint32_t lo, uint32_t hi) { return std::uniform_int_distribution<uint32_t>(lo, hi)(g); };
    LaunchConfig launch;
    static const uint32_t kWidths[] = {1, 2, 3, 5, 8, 16, 31, 32, 33, 64, 100};
    launch.block = {kWidths[pick(0, 10)], pick(1, 4), trial % 5 == 0 ? 2u : 1u};
    launch.block.x = std::min(launch.block.x, 1024 / (launch.block.y * launch.block.z));
    launch.grid = {pick(1, 4), pick(1, 3), trial % 7 == 0 ? 2u : 1u};
    return launch;
}

}  // namespace

TEST_CASE("the model's records and findings equal an oracle's from the CUDA text: transposes on random launches") {
    std::mt19937 g(2026);
    for (int trial = 0; trial < random_trials(60); ++trial) {
        const bool padded = trial % 2;
        const KernelSpec& spec = *find_builtin_kernel(padded ? "transpose-tiled-padded" : "transpose-tiled");
        const uint64_t rows = 1 + g() % 80, cols = 1 + g() % 80;
        const LaunchConfig launch = random_launch(g, trial);
        ModelLaunch model_launch{&spec, {}, launch};
        model_launch.params.resize(spec.params.size());
        model_launch.params[spec.param_index("rows")] = rows;
        model_launch.params[spec.param_index("cols")] = cols;
        model_launch.shared_block = g() % launch.blocks();
        const Expected e = transpose_oracle(rows, cols, padded ? 33 : 32, launch, model_launch.shared_block);
        check_model_run(model_launch, e);
    }
}

TEST_CASE("the model's records and findings equal an oracle's from the CUDA text: stencil-1d on random launches") {
    std::mt19937 g(1203);
    const KernelSpec& spec = *find_builtin_kernel("stencil-1d");
    for (int trial = 0; trial < random_trials(60); ++trial) {
        const uint64_t n = 1 + g() % 400;
        const LaunchConfig launch = random_launch(g, trial);
        ModelLaunch model_launch{&spec, {n}, launch};
        model_launch.shared_block = g() % launch.blocks();
        const Expected e = stencil_oracle(n, launch, model_launch.shared_block);
        check_model_run(model_launch, e);
    }
}

TEST_CASE("the model's records and findings equal an oracle's from the CUDA text: reductions on random launches") {
    std::mt19937 g(77);
    enum { kIn, kPartial, kSdata };
    for (int trial = 0; trial < random_trials(80); ++trial) {
        const bool sequential = trial % 2;
        const KernelSpec& spec = *find_builtin_kernel(sequential ? "reduce-sequential" : "reduce-interleaved");
        const uint64_t n = 1 + g() % 600;
        const LaunchConfig launch = random_launch(g, trial);
        const Params p{n};
        const uint32_t bdx = launch.block.x;
        // The loop's steps, the same for every thread (they depend on blockDim.x only).
        std::vector<uint32_t> steps;
        if (sequential)
            for (uint32_t s = bdx / 2; s > 0; s >>= 1) steps.push_back(s);
        else
            for (uint32_t s = 1; s < bdx; s *= 2) steps.push_back(s);
        const uint64_t kept = g() % launch.blocks();
        // Every other launch maps one phase only: the accesses between two barriers.
        const uint32_t phase = trial % 4 < 2 ? ModelLaunch::kAllPhases : uint32_t(g() % (steps.size() + 2));
        const auto accesses = [&](const std::vector<Thread>& threads, std::vector<Access>& out) {
            for (const Thread& t : threads) {  // sdata[tid] = i < n ? in[i] : 0
                const uint64_t i = uint64_t(t.block.x) * bdx + t.thread.x;
                if (i < n) out.push_back({0, t.id, kIn, i, Op::Read});
                out.push_back({0, t.id, kSdata, t.thread.x, Op::Write});
            }
            for (uint32_t step = 0; step < steps.size(); ++step)
                for (const Thread& t : threads) {  // sdata[tid] += sdata[tid + s]
                    const uint32_t tid = t.thread.x, s = steps[step];
                    if (sequential ? tid >= s : tid % (2 * s) != 0) continue;
                    out.push_back({step + 1, t.id, kSdata, tid, Op::Read});
                    out.push_back({step + 1, t.id, kSdata, uint64_t(tid) + s, Op::Read});
                    out.push_back({step + 1, t.id, kSdata, tid, Op::Write});
                }
            const uint32_t last = uint32_t(steps.size()) + 1;
            for (const Thread& t : threads)  // if (tid == 0) partial[blockIdx.x] = sdata[0]
                if (t.thread.x == 0) {
                    out.push_back({last, t.id, kSdata, 0, Op::Read});
                    out.push_back({last, t.id, kPartial, t.block.x, Op::Write});
                }
        };
        const Expected e = judge(spec, p, launch, kept, accesses, phase);
        ModelLaunch model_launch{&spec, p, launch};
        model_launch.shared_block = kept;
        model_launch.phase = phase;
        check_model_run(model_launch, e);
    }
}

TEST_CASE("the model's records and findings equal an oracle's from the CUDA text: histograms on random launches") {
    std::mt19937 g(5);
    enum { kData, kBins, kLocal };
    for (int trial = 0; trial < random_trials(90); ++trial) {
        static const char* kNames[] = {"histogram-racy", "histogram-atomic", "histogram-shared"};
        const int kind = trial % 3;
        const KernelSpec& spec = *find_builtin_kernel(kNames[kind]);
        const uint64_t n = 1 + g() % 800, nbins = 1 + g() % (g() % 2 ? 8 : 300);
        const LaunchConfig launch = random_launch(g, trial);
        Params p(2);
        p[spec.param_index("n")] = n;
        p[spec.param_index("bins")] = nbins;
        std::vector<uint32_t> data(n);
        spec.fill_input(p, kData, data);
        const uint32_t bdx = launch.block.x;
        const uint64_t kept = g() % launch.blocks();
        const Expected e =
            judge(spec, p, launch, kept, [&](const std::vector<Thread>& threads, std::vector<Access>& out) {
                const auto i_of = [&](const Thread& t) { return uint64_t(t.block.x) * bdx + t.thread.x; };
                if (kind < 2) {
                    for (const Thread& t : threads) {  // bins[data[i] % nbins] += 1, or atomicAdd
                        const uint64_t i = i_of(t);
                        if (i >= n) continue;
                        out.push_back({0, t.id, kData, i, Op::Read});
                        const uint64_t bin = data[i] % nbins;
                        if (kind == 0) {
                            out.push_back({0, t.id, kBins, bin, Op::Read});
                            out.push_back({0, t.id, kBins, bin, Op::Write});
                        } else {
                            out.push_back({0, t.id, kBins, bin, Op::Atomic});
                        }
                    }
                    return;
                }
                for (const Thread& t : threads)  // local[b] = 0 for b = threadIdx.x, += blockDim.x
                    for (uint64_t b = t.thread.x; b < nbins; b += bdx) out.push_back({0, t.id, kLocal, b, Op::Write});
                for (const Thread& t : threads)  // atomicAdd(&local[data[i] % nbins], 1)
                    if (const uint64_t i = i_of(t); i < n) {
                        out.push_back({1, t.id, kData, i, Op::Read});
                        out.push_back({1, t.id, kLocal, data[i] % nbins, Op::Atomic});
                    }
                for (const Thread& t : threads)  // atomicAdd(&bins[b], local[b])
                    for (uint64_t b = t.thread.x; b < nbins; b += bdx) {
                        out.push_back({2, t.id, kLocal, b, Op::Read});
                        out.push_back({2, t.id, kBins, b, Op::Atomic});
                    }
            });
        ModelLaunch model_launch{&spec, p, launch};
        model_launch.shared_block = kind == 2 ? kept : UINT64_MAX;
        check_model_run(model_launch, e);
    }
}

TEST_CASE("the model's records and findings equal an oracle's from the CUDA text: tiled matmuls on random launches") {
    std::mt19937 g(16);
    enum { kA, kB, kC, kAs, kBs };
    for (int trial = 0; trial < random_trials(60); ++trial) {
        const bool nosync = trial % 2;
        const KernelSpec& spec = *find_builtin_kernel(nosync ? "matmul-tiled-nosync" : "matmul-tiled");
        const uint64_t rows = 1 + g() % 40, cols = 1 + g() % 40, inner = 1 + g() % 40;
        LaunchConfig launch = random_launch(g, trial);
        if (trial % 3 == 0) launch.block = {16, 16, 1};  // the kernel's own block: clean but for nosync
        Params p(spec.params.size());
        for (const auto& [name, value] :
             {std::pair{"rows", rows}, {"cols", cols}, {"inner", inner}, {"a_rows", rows}, {"b_cols", cols}})
            p[spec.param_index(name)] = value;
        const uint32_t steps = uint32_t((inner + 15) / 16);
        // One step's two halves, per thread: the tile loads (lines 10-11) and the sums (line 14).
        const auto loads = [&](const Thread& t, uint32_t s, uint32_t phase, std::vector<Access>& out) {
            const uint64_t row = uint64_t(t.block.y) * 16 + t.thread.y, col = uint64_t(t.block.x) * 16 + t.thread.x;
            const uint64_t tile = uint64_t(t.thread.y) * 16 + t.thread.x;
            if (row < rows && s * 16 + t.thread.x < inner)
                out.push_back({phase, t.id, kA, row * inner + s * 16 + t.thread.x, Op::Read});
            out.push_back({phase, t.id, kAs, tile, Op::Write});
            if (col < cols && s * 16 + t.thread.y < inner)
                out.push_back({phase, t.id, kB, (s * 16 + t.thread.y) * cols + col, Op::Read});
            out.push_back({phase, t.id, kBs, tile, Op::Write});
        };
        const auto sums = [&](const Thread& t, uint32_t phase, std::vector<Access>& out) {
            for (uint64_t kk = 0; kk < 16; ++kk) {
                out.push_back({phase, t.id, kAs, uint64_t(t.thread.y) * 16 + kk, Op::Read});
                out.push_back({phase, t.id, kBs, kk * 16 + t.thread.x, Op::Read});
            }
        };
        const auto store = [&](const Thread& t, uint32_t phase, std::vector<Access>& out) {
            const uint64_t row = uint64_t(t.block.y) * 16 + t.thread.y, col = uint64_t(t.block.x) * 16 + t.thread.x;
            if (row < rows && col < cols) out.push_back({phase, t.id, kC, row * cols + col, Op::Write});
        };
        const uint64_t kept = g() % launch.blocks();
        const Expected e =
            judge(spec, p, launch, kept, [&](const std::vector<Thread>& threads, std::vector<Access>& out) {
                if (!nosync) {  // phase 2s: the loads of step s; 2s + 1: its sums; then C
                    for (uint32_t s = 0; s < steps; ++s) {
                        for (const Thread& t : threads) loads(t, s, 2 * s, out);
                        for (const Thread& t : threads) sums(t, 2 * s + 1, out);
                    }
                    for (const Thread& t : threads) store(t, 2 * steps, out);
                    return;
                }
                // No second barrier: phase s + 1 holds the sums of step s and the loads of s + 1.
                for (const Thread& t : threads) loads(t, 0, 0, out);
                for (uint32_t s = 0; s < steps; ++s)
                    for (const Thread& t : threads) {
                        sums(t, s + 1, out);
                        if (s + 1 < steps)
                            loads(t, s + 1, s + 1, out);
                        else
                            store(t, s + 1, out);
                    }
            });
        ModelLaunch model_launch{&spec, p, launch};
        model_launch.shared_block = kept;
        check_model_run(model_launch, e);
    }
}

TEST_CASE(
    "the model's records and findings equal an oracle's from the CUDA text: one thread per element, past the end") {
    std::mt19937 g(42);
    enum { kA, kB, kC };
    for (int trial = 0; trial < random_trials(120); ++trial) {
        static const char* kNames[] = {"matmul",          "matmul-xcol", "matmul-store-in-loop",
                                       "transpose-naive", "copy-offset", "increment-unguarded"};
        const std::string name = kNames[trial % 6];
        const KernelSpec& spec = *find_builtin_kernel(name);
        const LaunchConfig launch = random_launch(g, trial);
        Params p(spec.params.size());
        const uint64_t rows = 1 + g() % 30, cols = 1 + g() % 30, inner = 1 + g() % 12, n = 1 + g() % 300;
        for (size_t i = 0; i < spec.params.size(); ++i) {
            const std::string& q = spec.params[i].name;
            p[i] = q == "rows" || q == "a_rows"   ? rows
                   : q == "cols" || q == "b_cols" ? cols
                   : q == "inner"                 ? inner
                   : q == "offset"                ? g() % 40
                                                  : n;
        }
        const auto param = [&](const char* q) { return p[spec.param_index(q)]; };
        const Expected e =
            judge(spec, p, launch, UINT64_MAX, [&](const std::vector<Thread>& threads, std::vector<Access>& out) {
                for (const Thread& t : threads) {
                    const uint64_t gx = uint64_t(t.block.x) * launch.block.x + t.thread.x;
                    const uint64_t gy = uint64_t(t.block.y) * launch.block.y + t.thread.y;
                    if (name == "increment-unguarded") {  // a[pos] += 1, no guard
                        out.push_back({0, t.id, 0, gx, Op::Read});
                        out.push_back({0, t.id, 0, gx, Op::Write});
                    } else if (name == "copy-offset") {  // if (i < n) out[i] = in[i + offset]
                        if (gx >= param("n")) continue;
                        out.push_back({0, t.id, 0, gx + param("offset"), Op::Read});
                        out.push_back({0, t.id, 1, gx, Op::Write});
                    } else if (name == "transpose-naive") {  // x column, y row of in
                        if (gx >= cols || gy >= rows) continue;
                        out.push_back({0, t.id, 0, gy * cols + gx, Op::Read});
                        out.push_back({0, t.id, 1, gx * rows + gy, Op::Write});
                    } else {  // C[i][j] = Σ A[i][k]·B[k][j]; the tutorial's i is x, matmul-xcol's y
                        const uint64_t i = name == "matmul-xcol" ? gy : gx, j = name == "matmul-xcol" ? gx : gy;
                        if (i >= rows || j >= cols) continue;
                        for (uint64_t kk = 0; kk < inner; ++kk) {
                            out.push_back({0, t.id, kA, i * inner + kk, Op::Read});
                            out.push_back({0, t.id, kB, kk * cols + j, Op::Read});
                            if (name == "matmul-store-in-loop") out.push_back({0, t.id, kC, i * cols + j, Op::Write});
                        }
                        if (name != "matmul-store-in-loop") out.push_back({0, t.id, kC, i * cols + j, Op::Write});
                    }
                }
            });
        check_model_run({&spec, p, launch}, e);
    }
}
