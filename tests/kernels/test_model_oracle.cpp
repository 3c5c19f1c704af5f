// The kernel model against an oracle written from the kernels' CUDA text alone (nested loops
// over the grid, phases apart, sets of thread ids), on random launches — blocks wider than the
// tile, 2-D and 3-D blocks, grids larger or smaller than the data — where the lessons' covering
// launches never go: per element of every global array and of one block's __shared__ array,
// the smallest thread id that wrote (read) it and how many threads did; and how many findings
// of each kind: an out-of-bounds shared access each time, a race or an uninitialised read once
// per element (per block for shared memory).
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "builtin/registry.hpp"
#include "model/model_emulator.hpp"

using namespace threadmap;

namespace {

using Touchers = std::map<uint64_t, std::set<uint32_t>>;  // element -> thread ids

struct Expected {
    std::vector<Touchers> writes, reads;  // per array of the spec (a shared one: the kept block's)
    std::array<uint64_t, kFindingKinds> counts{};
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
void for_each_block(const LaunchConfig& l, PerBlock per_block) {
    const uint32_t tpb = l.block.x * l.block.y * l.block.z;
    for (uint32_t bz = 0; bz < l.grid.z; ++bz)
        for (uint32_t by = 0; by < l.grid.y; ++by)
            for (uint32_t bx = 0; bx < l.grid.x; ++bx) {
                const uint64_t b = (uint64_t(bz) * l.grid.y + by) * l.grid.x + bx;
                std::vector<Thread> threads;
                for (uint32_t tz = 0; tz < l.block.z; ++tz)
                    for (uint32_t ty = 0; ty < l.block.y; ++ty)
                        for (uint32_t tx = 0; tx < l.block.x; ++tx)
                            threads.push_back({uint32_t(b * tpb + (tz * l.block.y + ty) * l.block.x + tx),
                                               {bx, by, bz},
                                               {tx, ty, tz},
                                               b});
                per_block(b, threads);
            }
}

// transpose_tiled's text: phase 0 `tile[ty][tx] = in[y * cols + x]` where x < cols && y < rows;
// phase 1 `out[y * rows + x] = tile[tx][ty]` for the transposed block where x < rows && y < cols.
Expected transpose_oracle(uint64_t rows, uint64_t cols, uint32_t width, const LaunchConfig& l, uint64_t kept) {
    enum { kIn, kOut, kTile };
    Expected e;
    e.writes.resize(3);
    e.reads.resize(3);
    const uint64_t tile_size = 32 * width;
    for_each_block(l, [&](uint64_t b, const std::vector<Thread>& threads) {
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
Expected stencil_oracle(uint64_t n, const LaunchConfig& l, uint64_t kept) {
    enum { kIn, kOut, kTemp };
    Expected e;
    e.writes.resize(3);
    e.reads.resize(3);
    for_each_block(l, [&](uint64_t b, const std::vector<Thread>& threads) {
        Touchers written;
        std::set<uint64_t> read_unwritten;
        const auto write_temp = [&](uint64_t s, uint32_t id) {
            written[s].insert(id);
            if (b == kept) e.writes[kTemp][s].insert(id);
        };
        for (const Thread& t : threads) {
            const uint64_t g = uint64_t(t.block.x) * l.block.x + t.thread.x, s = t.thread.x + 3;
            if (g < n) e.reads[kIn][g].insert(t.id);
            write_temp(s, t.id);
            if (t.thread.x < 3) {
                if (g >= 3 && g - 3 < n) e.reads[kIn][g - 3].insert(t.id);
                write_temp(s - 3, t.id);
                if (g + l.block.x < n) e.reads[kIn][g + l.block.x].insert(t.id);
                write_temp(s + l.block.x, t.id);
            }
        }
        count(e, FindingKind::WriteWriteRace, shared_by_several(written));
        for (const Thread& t : threads) {
            const uint64_t g = uint64_t(t.block.x) * l.block.x + t.thread.x, s = t.thread.x + 3;
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

// Whether the model's records of array `a` are the oracle's: first id and distinct threads.
void check_records(const KernelSpec& k, const ModelResult& r, const Expected& e, size_t a) {
    CAPTURE(k.arrays[a].name);
    const ArrayResult& got = r.arrays[a];
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
}

std::string dims(const LaunchConfig& l) {
    const auto d = [](const Dim3& v) {
        return std::to_string(v.x) + "," + std::to_string(v.y) + "," + std::to_string(v.z);
    };
    return "grid " + d(l.grid) + " block " + d(l.block);
}

LaunchConfig random_launch(std::mt19937& g, int trial) {
    const auto pick = [&](uint32_t lo, uint32_t hi) { return std::uniform_int_distribution<uint32_t>(lo, hi)(g); };
    LaunchConfig l;
    static const uint32_t kWidths[] = {1, 2, 3, 5, 8, 16, 31, 32, 33, 64, 100};
    l.block = {kWidths[pick(0, 10)], pick(1, 4), trial % 5 == 0 ? 2u : 1u};
    l.block.x = std::min(l.block.x, 1024 / (l.block.y * l.block.z));
    l.grid = {pick(1, 4), pick(1, 3), trial % 7 == 0 ? 2u : 1u};
    return l;
}

}  // namespace

TEST_CASE("the model's records and findings equal an oracle's from the CUDA text: transposes on random launches") {
    std::mt19937 g(2026);
    for (int trial = 0; trial < 60; ++trial) {
        const bool padded = trial % 2;
        const KernelSpec& k = *find_builtin_kernel(padded ? "transpose-tiled-padded" : "transpose-tiled");
        const uint64_t rows = 1 + g() % 80, cols = 1 + g() % 80;
        const LaunchConfig l = random_launch(g, trial);
        ModelLaunch m{&k, {}, l};
        m.params.resize(k.params.size());
        m.params[k.param_index("rows")] = rows;
        m.params[k.param_index("cols")] = cols;
        m.shared_block = g() % l.blocks();
        CAPTURE(k.name);
        CAPTURE(rows);
        CAPTURE(cols);
        const std::string launch = dims(l);
        CAPTURE(launch);
        CAPTURE(m.shared_block);
        const auto r = run_model(m);
        REQUIRE_MESSAGE(r.value, r.error);
        const Expected e = transpose_oracle(rows, cols, padded ? 33 : 32, l, m.shared_block);
        for (size_t a = 0; a < 3; ++a) check_records(k, *r.value, e, a);
        CHECK(r.value->counts == e.counts);
    }
}

TEST_CASE("the model's records and findings equal an oracle's from the CUDA text: stencil-1d on random launches") {
    std::mt19937 g(1203);
    const KernelSpec& k = *find_builtin_kernel("stencil-1d");
    for (int trial = 0; trial < 60; ++trial) {
        const uint64_t n = 1 + g() % 400;
        const LaunchConfig l = random_launch(g, trial);
        ModelLaunch m{&k, {n}, l};
        m.shared_block = g() % l.blocks();
        CAPTURE(n);
        const std::string launch = dims(l);
        CAPTURE(launch);
        CAPTURE(m.shared_block);
        const auto r = run_model(m);
        REQUIRE_MESSAGE(r.value, r.error);
        const Expected e = stencil_oracle(n, l, m.shared_block);
        for (size_t a = 0; a < 3; ++a) check_records(k, *r.value, e, a);
        CHECK(r.value->counts == e.counts);
    }
}
