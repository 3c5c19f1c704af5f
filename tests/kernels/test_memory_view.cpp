// The memory view (kernels/model/memory_view.hpp): single requests counted by hand (sectors,
// broadcast, misalignment, bank conflicts and their broadcast), then whole launches whose
// totals are derived here from the launch's geometry, not from the code under test: the
// tutorial's matmul (x → row) against matmul-xcol, the tiled transposes, the two reductions'
// active lanes, the offset copy.
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <functional>
#include <iterator>
#include <random>
#include <vector>

#include "kernels/builtin/registry.hpp"
#include "kernels/core/executor.hpp"
#include "kernels/model/model_emulator.hpp"
#include "kernels/model/warp_requests.hpp"

using namespace threadmap;

namespace {

WarpRequest request(uint32_t lanes, const std::function<uint64_t(uint32_t lane)>& element) {
    WarpRequest r;
    for (uint32_t lane = 0; lane < lanes; ++lane) {
        r.mask |= 1u << lane;
        r.index[lane] = uint32_t(element(lane));
    }
    return r;
}

MemoryView view_of(const char* kernel, const Params& p, const LaunchConfig& launch) {
    ModelLaunch model_launch{find_builtin_kernel(kernel), p, launch};
    model_launch.record_requests = true;
    const auto r = run_model(model_launch);
    REQUIRE_MESSAGE(r.value, r.error);
    REQUIRE(r.value->memory);
    return *r.value->memory;
}

bool same_cost(const ElementCost& a, const ElementCost& b) {
    return a.load_cost == b.load_cost && a.store_cost == b.store_cost && a.load_lanes == b.load_lanes &&
           a.store_lanes == b.store_lanes;
}

// A copy: callers pass views that end with the statement.
MemorySite site(const KernelSpec& spec, const MemoryView& v, const char* array, AccessOp op) {
    for (const MemorySite& s : v.sites)
        if (spec.arrays[s.array].name == array && s.op == op) return s;
    FAIL("no site for " << array);
    return v.sites.front();
}

}  // namespace

TEST_CASE("a request's sectors for contiguous and strided and broadcast and misaligned and partial warps") {
    // 32 lanes × 4 bytes from element 0: 128 bytes, 4 sectors, all needed.
    auto r = request_sectors(request(32, [](uint32_t l) { return uint64_t(l); }));
    CHECK(r.sectors == 4);
    CHECK(r.ideal == 4);
    // One lane per row of a 200-float matrix: 800 bytes apart, 32 sectors where 4 would do.
    r = request_sectors(request(32, [](uint32_t l) { return uint64_t(l) * 200; }));
    CHECK(r.sectors == 32);
    CHECK(r.ideal == 4);
    // Every lane reads one element (a broadcast): one sector, fewer than the ideal of 32
    // distinct values.
    r = request_sectors(request(32, [](uint32_t) { return uint64_t(77); }));
    CHECK(r.sectors == 1);
    CHECK(r.ideal == 4);
    // Shifted by one element: bytes 4..131 straddle 5 sectors.
    r = request_sectors(request(32, [](uint32_t l) { return uint64_t(l) + 1; }));
    CHECK(r.sectors == 5);
    // 8 lanes from element 192 (byte 768, a sector boundary): one sector.
    r = request_sectors(request(8, [](uint32_t l) { return uint64_t(l) + 192; }));
    CHECK(r.sectors == 1);
    CHECK(r.ideal == 1);
    // Lanes in reverse order count the same as in order.
    r = request_sectors(request(32, [](uint32_t l) { return uint64_t(31 - l) * 8; }));
    CHECK(r.sectors == 32);
}

TEST_CASE("a request's wavefronts with banks and conflicts and broadcast") {
    // Consecutive words: one per bank.
    CHECK(request_wavefronts(request(32, [](uint32_t l) { return uint64_t(l); }), {4, 0}).wavefronts == 1);
    // Stride 2: lanes l and l+16 share a bank with different words: 2-way.
    CHECK(request_wavefronts(request(32, [](uint32_t l) { return uint64_t(l) * 2; }), {4, 0}).wavefronts == 2);
    // A column of a 32-wide tile: every word in one bank: 32-way.
    CHECK(request_wavefronts(request(32, [](uint32_t l) { return uint64_t(l) * 32; }), {4, 0}).wavefronts == 32);
    // A column of a 33-wide tile: every bank once.
    CHECK(request_wavefronts(request(32, [](uint32_t l) { return uint64_t(l) * 33; }), {4, 0}).wavefronts == 1);
    // All lanes on one word: broadcast, one wavefront.
    CHECK(request_wavefronts(request(32, [](uint32_t) { return uint64_t(5); }), {4, 0}).wavefronts == 1);
    // Two words in bank 0 (0 and 32), each read by 16 lanes: 2-way.
    CHECK(request_wavefronts(request(32, [](uint32_t l) { return uint64_t(l % 2) * 32; }), {4, 0}).wavefronts == 2);
    // The array's offset moves the banks, not the conflicts.
    CHECK(request_wavefronts(request(32, [](uint32_t l) { return uint64_t(l) * 32; }), {4, 28}).wavefronts == 32);
}

TEST_CASE("a request's wavefronts for 1-, 2- and 8-byte elements") {
    const auto lanes = [](uint64_t stride) {
        return request(32, [stride](uint32_t l) { return uint64_t(l) * stride; });
    };
    // Bytes: 32 lanes on 8 consecutive words, 4 lanes to a word (a broadcast each): one
    // wavefront; at a stride of 128 bytes every lane is on a word of bank 0: 32-way.
    CHECK(request_wavefronts(lanes(1), {1, 0}).wavefronts == 1);
    CHECK(request_wavefronts(lanes(128), {1, 0}).wavefronts == 32);
    // Stride 4 bytes: one word each, banks 0-31.
    CHECK(request_wavefronts(lanes(4), {1, 0}).wavefronts == 1);
    // Shorts: 2 lanes to a word; a stride of 64 shorts puts lanes on words 0, 32, 64, …: 32-way.
    CHECK(request_wavefronts(lanes(1), {2, 0}).wavefronts == 1);
    CHECK(request_wavefronts(lanes(64), {2, 0}).wavefronts == 32);
    // Doubles, consecutive: each half-warp's 16 doubles cover the 32 banks once: 2 wavefronts,
    // no conflict (the ideal for 8-byte elements).
    RequestWavefronts w = request_wavefronts(lanes(1), {8, 0});
    CHECK(w.wavefronts == 2);
    CHECK(w.ideal == 2);
    CHECK(w.ways == 1);
    // Stride 2 doubles (16 bytes): a half-warp touches words 0,1,4,5,…,60,61: 2 in each bank.
    w = request_wavefronts(lanes(2), {8, 0});
    CHECK(w.wavefronts == 4);
    CHECK(w.ways == 2);
    // Stride 16 doubles (128 bytes): every lane of a half-warp on banks 0 and 1: 16-way, twice.
    w = request_wavefronts(lanes(16), {8, 0});
    CHECK(w.wavefronts == 32);
    CHECK(w.ways == 16);
    // Only lanes 0-15 active: one half-warp, one wavefront.
    w = request_wavefronts(request(16, [](uint32_t l) { return uint64_t(l); }), {8, 0});
    CHECK(w.wavefronts == 1);
    CHECK(w.ideal == 1);
    // Every lane on one double: a broadcast in each half-warp.
    CHECK(request_wavefronts(lanes(0), {8, 0}).wavefronts == 2);
    // The bank strip: consecutive doubles touch every bank once in each half-warp.
    const auto banks = bank_words(lanes(1), {8, 0});
    CHECK(std::all_of(banks.begin(), banks.end(), [](uint32_t n) { return n == 2; }));
    // A double array after 3 bytes of chars starts at byte 8: bank 2.
    CHECK(ArrayPlace{8, 8}.bank(0) == 2);
    CHECK(ArrayPlace{8, 8}.bank(1) == 4);
}

TEST_CASE("a request of vector accesses: each lane's 8 or 16 bytes in one sector, half- and quarter-warps of banks") {
    const auto vectors = [](uint32_t width, uint64_t stride) {
        WarpRequest r = request(32, [=](uint32_t l) { return uint64_t(l) * stride * width; });
        r.width = width;
        return r;
    };
    // float4s, consecutive: 512 bytes, 16 sectors, the ideal; every other one: 32 sectors.
    RequestSectors g = request_sectors(vectors(4, 1), 4);
    CHECK(g.sectors == 16);
    CHECK(g.ideal == 16);
    g = request_sectors(vectors(4, 2), 4);
    CHECK(g.sectors == 32);
    CHECK(g.ideal == 16);
    // float2s: 256 bytes, 8 sectors.
    CHECK(request_sectors(vectors(2, 1), 4).sectors == 8);
    // Shared float4s: a quarter-warp's 8 lanes fill the 32 banks once: 4 wavefronts, no conflict.
    RequestWavefronts w = request_wavefronts(vectors(4, 1), {4, 0});
    CHECK(w.wavefronts == 4);
    CHECK(w.ideal == 4);
    CHECK(w.ways == 1);
    // A stride of 8 float4s (128 bytes): a quarter-warp's lanes all on banks 0-3: 8-way, 4 times.
    w = request_wavefronts(vectors(4, 8), {4, 0});
    CHECK(w.wavefronts == 32);
    CHECK(w.ways == 8);
    // float2s are served in half-warps, as doubles are.
    w = request_wavefronts(vectors(2, 1), {4, 0});
    CHECK(w.wavefronts == 2);
    CHECK(w.ideal == 2);
    // The bank strip: consecutive float4s touch every bank once in each quarter-warp.
    const auto banks = bank_words(vectors(4, 1), {4, 0});
    CHECK(std::all_of(banks.begin(), banks.end(), [](uint32_t n) { return n == 4; }));
}

TEST_CASE("a request's sectors for 1- and 8-byte elements") {
    // 32 bytes: one sector; 32 doubles: 256 bytes, 8 sectors, the ideal.
    auto r = request_sectors(request(32, [](uint32_t l) { return uint64_t(l); }), 1);
    CHECK(r.sectors == 1);
    CHECK(r.ideal == 1);
    r = request_sectors(request(32, [](uint32_t l) { return uint64_t(l); }), 8);
    CHECK(r.sectors == 8);
    CHECK(r.ideal == 8);
    // Every third byte (an RGB image's red channel): 96 bytes, 3 sectors where 1 would do.
    r = request_sectors(request(32, [](uint32_t l) { return uint64_t(l) * 3; }), 1);
    CHECK(r.sectors == 3);
    CHECK(r.ideal == 1);
}

// The tutorial's launch: C 200×200 from A 300×200 and B 200×300, grid 16×16, block 32×32. A warp
// is 32 consecutive threadIdx.x of one threadIdx.y. Along x, blocks 0–5 are full warps (32 active
// lanes) and block 6 has 8 (192..199); blocks 7–15 have none. So each line of 200 elements along
// y (or x) has 7 requests: 6 of 32 lanes and one of 8.
TEST_CASE("the tutorial's matmul stores 28.6 sectors per request with x on rows and 3.6 with x on columns") {
    const Params p = {200, 200, 200, 300, 300};
    const LaunchConfig launch{{16, 16, 1}, {32, 32, 1}};
    const KernelSpec& row = *find_builtin_kernel("matmul");
    const KernelSpec& col = *find_builtin_kernel("matmul-xcol");
    const MemoryView x_rows = view_of("matmul", p, launch);
    const MemoryView x_cols = view_of("matmul-xcol", p, launch);

    // Stores, x → row: each lane its own row of C (800 bytes apart): a sector per lane.
    // Per column j: 6·32 + 8 = 200 sectors in 7 requests; 200 columns.
    const MemoryTotals st_row = memory_totals(x_rows.sites, MemorySpace::Global, AccessOp::Store);
    CHECK(st_row.requests == 7 * 200);
    CHECK(st_row.sectors == 200 * 200);
    CHECK(double(st_row.sectors) / double(st_row.requests) == doctest::Approx(200.0 / 7));  // 28.57
    // Stores, x → column: a row of C is 800 bytes (25 sectors, sector-aligned): 6 full warps
    // of 4 sectors and 8 lanes in 1. Per row: 25 sectors in 7 requests.
    const MemoryTotals st_col = memory_totals(x_cols.sites, MemorySpace::Global, AccessOp::Store);
    CHECK(st_col.requests == 7 * 200);
    CHECK(st_col.sectors == 25 * 200);
    CHECK(double(st_col.sectors) / double(st_col.requests) == doctest::Approx(25.0 / 7));  // 3.57

    // Loads, x → row, per (j, k): A[i,k] down a column (a sector per lane: 200 sectors in 7
    // requests), B[k,j] one element for all lanes (1 sector each: 7 in 7).
    const MemoryTotals ld_row = memory_totals(x_rows.sites, MemorySpace::Global, AccessOp::Load);
    CHECK(ld_row.requests == 2 * 7 * 200 * 200);
    CHECK(ld_row.sectors == (200 + 7) * 200 * 200);
    CHECK(double(ld_row.sectors) / double(ld_row.requests) == doctest::Approx(207.0 / 14));  // 14.79
    CHECK(site(row, x_rows, "A", AccessOp::Load).sectors == 200 * 200 * 200);
    // Loads, x → column, per (i, k): A[i,k] one element (7 sectors in 7 requests); B[k, j..]
    // along a row of 300 floats (1,200 bytes): even rows start on a sector (6·4 + 1 = 25
    // sectors), odd rows 16 bytes into one (6·5 + 2 = 32).
    const MemoryTotals ld_col = memory_totals(x_cols.sites, MemorySpace::Global, AccessOp::Load);
    CHECK(ld_col.requests == 2 * 7 * 200 * 200);
    CHECK(ld_col.sectors == 7 * 200 * 200 + (25 + 32) * 100 * 200);
    CHECK(double(ld_col.sectors) / double(ld_col.requests) == doctest::Approx((7 + 28.5) / 14));  // 2.54
    CHECK(site(col, x_cols, "B", AccessOp::Load).sectors == (25 + 32) * 100 * 200);

    // Every lane of these requests is active but in block 6's warps: 6·32 + 8 lanes per 7.
    CHECK(site(row, x_rows, "C", AccessOp::Store).active_lanes == 200 * 200);
}

TEST_CASE("each element of C carries its store's sectors and active lanes") {
    const Params p = {200, 200, 200, 300, 300};
    ModelLaunch model_launch{find_builtin_kernel("matmul"), p, {{16, 16, 1}, {32, 32, 1}}};
    model_launch.record_requests = true;
    model_launch.record_elements = false;
    const auto r = run_model(model_launch);
    REQUIRE(r.value);
    const std::vector<ElementCost>& c = r.value->memory->costs[2];
    REQUIRE(c.size() == 200 * 200);
    CHECK(c[0].store_cost == 32);  // row 0: a full warp, a sector per lane
    CHECK(c[0].store_lanes == 32);
    CHECK(c[195 * 200 + 7].store_cost == 8);  // rows 192–199: the 8-lane warps
    CHECK(c[195 * 200 + 7].store_lanes == 8);
    CHECK(c[0].load_cost == 0);                 // C is never read
    CHECK(r.value->arrays[2].records.empty());  // no per-element records in this mode
    // Only C's costs kept (the window's map of C): A's and B's are left out, C's and every
    // site's figures are the same.
    model_launch.cost_array = 2;
    const auto only_c = run_model(model_launch);
    REQUIRE(only_c.value);
    const MemoryView& v = *only_c.value->memory;
    CHECK(v.costs[0].empty());
    CHECK(v.costs[1].empty());
    REQUIRE(v.costs[2].size() == c.size());
    CHECK(std::equal(c.begin(), c.end(), v.costs[2].begin(), same_cost));
    REQUIRE(v.sites.size() == r.value->memory->sites.size());
    for (size_t k = 0; k < v.sites.size(); ++k) {
        CHECK(v.sites[k].requests == r.value->memory->sites[k].requests);
        CHECK(v.sites[k].sectors == r.value->memory->sites[k].sectors);
        CHECK(v.sites[k].active_lanes == r.value->memory->sites[k].active_lanes);
    }
}

TEST_CASE("the tiled transpose's column reads are 32-way bank conflicts and padding the tile removes them") {
    const Params p = {200, 300};
    const KernelSpec& tiled = *find_builtin_kernel("transpose-tiled");
    const LaunchConfig launch{tiled.covering_grid(p, tiled.default_block), tiled.default_block};
    const MemoryView plain = view_of("transpose-tiled", p, launch);
    const MemoryView padded = view_of("transpose-tiled-padded", p, launch);
    const MemoryTotals conflicted = memory_totals(plain.sites, MemorySpace::Shared, AccessOp::Load);
    CHECK(conflicted.conflict_ways_max == 32);
    // Each request's lanes read as many words of one bank as it has active lanes.
    CHECK(conflicted.wavefronts == conflicted.active_lanes);
    const MemoryTotals clean = memory_totals(padded.sites, MemorySpace::Shared, AccessOp::Load);
    CHECK(clean.conflict_ways_max == 1);
    CHECK(clean.wavefronts == clean.requests);
    // Writing the tile along its rows never conflicts, padded or not.
    CHECK(memory_totals(plain.sites, MemorySpace::Shared, AccessOp::Store).conflict_ways_max == 1);
}

TEST_CASE("each element of a chosen block's shared tile carries its requests' bank conflict ways") {
    const Params p = {200, 300};
    const KernelSpec& tiled = *find_builtin_kernel("transpose-tiled");
    const LaunchConfig launch{tiled.covering_grid(p, tiled.default_block), tiled.default_block};
    const auto tile_costs = [&](const char* kernel, uint64_t block) {
        ModelLaunch model_launch{find_builtin_kernel(kernel), p, launch};
        model_launch.record_requests = true;
        model_launch.record_elements = false;
        model_launch.shared_block = block;
        const auto r = run_model(model_launch);
        REQUIRE_MESSAGE(r.value, r.error);
        return r.value->memory->costs[model_launch.spec->array_index("tile")];
    };
    // Block (1,1) lies inside both matrices: every lane of every request is active. Written
    // along rows (one word per bank), read down columns of a 32-wide tile (one bank).
    const uint64_t inside = 1 + launch.grid.x;
    const std::vector<ElementCost> plain = tile_costs("transpose-tiled", inside);
    REQUIRE(plain.size() == 32 * 32);
    for (const ElementCost& c : plain) {
        CHECK(c.store_cost == 1);
        CHECK(c.load_cost == 32);
        CHECK(c.load_lanes == 32);
    }
    // 33 wide: a column's words fall in 32 different banks; the 33rd word of each row is never touched.
    const std::vector<ElementCost> padded = tile_costs("transpose-tiled-padded", inside);
    REQUIRE(padded.size() == 32 * 33);
    for (size_t e = 0; e < padded.size(); ++e) {
        CHECK(padded[e].load_cost == (e % 33 == 32 ? 0 : 1));
        CHECK(padded[e].store_cost == (e % 33 == 32 ? 0 : 1));
    }
    // No block chosen: no per-element costs for shared memory.
    for (const ElementCost& c : tile_costs("transpose-tiled", UINT64_MAX)) CHECK(c.load_cost == 0);
}

// Block 256 over 65,536 values: 256 blocks of 8 warps. Each step's line loads sdata twice.
TEST_CASE("reduce-interleaved's active lanes fall step by step and reduce-sequential keeps warps full") {
    const Params p = {65536};
    const LaunchConfig launch{{256, 1, 1}, {256, 1, 1}};
    const KernelSpec& inter = *find_builtin_kernel("reduce-interleaved");
    const KernelSpec& seq = *find_builtin_kernel("reduce-sequential");
    const MemorySite a = site(inter, view_of("reduce-interleaved", p, launch), "sdata", AccessOp::Load);
    // s = 1, 2, 4, 8, 16: every warp has 16, 8, 4, 2, 1 active lanes; s = 32, 64, 128: 4, 2, 1
    // warps with one lane. Per block: 2·(8·5 + 7) requests, 2·(8·31 + 7) lanes.
    CHECK(a.requests == 256 * 2 * (8 * 5 + 7));
    CHECK(a.active_lanes == 256 * 2 * (8 * 31 + 7));
    // s = 128, 64, 32: 4, 2, 1 full warps; s = 16 … 1: one warp of 16 … 1 lanes.
    const MemorySite b = site(seq, view_of("reduce-sequential", p, launch), "sdata", AccessOp::Load);
    CHECK(b.requests == 256 * 2 * (4 + 2 + 1 + 5));
    CHECK(b.active_lanes == 256 * 2 * (128 + 64 + 32 + 16 + 8 + 4 + 2 + 1));
}

TEST_CASE("an offset-by-one copy loads 5 sectors per request where 4 would do and offset 0 loads 4") {
    const KernelSpec& spec = *find_builtin_kernel("copy-offset");
    const LaunchConfig launch{{4, 1, 1}, {256, 1, 1}};
    const MemorySite off = site(spec, view_of("copy-offset", {1024, 1}, launch), "in", AccessOp::Load);
    CHECK(off.requests == 32);
    CHECK(off.sectors == 5 * 32);
    CHECK(off.ideal_sectors == 4 * 32);
    const MemorySite aligned = site(spec, view_of("copy-offset", {1024, 0}, launch), "in", AccessOp::Load);
    CHECK(aligned.sectors == 4 * 32);
}

TEST_CASE("warps cut across rows of a 2D block and partial warps and guarded-off lanes are inactive") {
    // increment over 40 elements, block 48: warp 0 = threads 0–31, warp 1 = threads 32–47 (a
    // partial warp of 16), all active in block 0; block 1's threads 48–87: 40–47 … none active.
    const KernelSpec& spec = *find_builtin_kernel("increment");
    const MemoryView v = view_of("increment", {40}, {{2, 1, 1}, {48, 1, 1}});
    const MemorySite st = site(spec, v, "a", AccessOp::Store);
    CHECK(st.requests == 2);
    CHECK(st.active_lanes == 40);
    CHECK(st.sectors == 4 + 1);  // elements 32–39: one sector
    // matmul-xcol with block (16, 4): a warp is two rows of 16 threads, i.e. two rows of C.
    const KernelSpec& xcol = *find_builtin_kernel("matmul-xcol");
    const MemoryView w = view_of("matmul-xcol", {16, 16, 1, 16, 16}, {{1, 4, 1}, {16, 4, 1}});
    const MemorySite c = site(xcol, w, "C", AccessOp::Store);
    CHECK(c.requests == 8);     // 16 rows, two per warp
    CHECK(c.sectors == 8 * 4);  // each half-warp: 16 floats of one row, 2 sectors
}

TEST_CASE("a launch without record_requests has no memory view and the view changes no result") {
    const KernelSpec& spec = *find_builtin_kernel("stencil-1d");
    const LaunchConfig launch{spec.covering_grid({1000}, spec.default_block), spec.default_block};
    const auto plain = run_model({&spec, {1000}, launch});
    ModelLaunch model_launch{&spec, {1000}, launch};
    model_launch.record_requests = true;
    const auto viewed = run_model(model_launch);
    REQUIRE(plain.value);
    REQUIRE(viewed.value);
    CHECK_FALSE(plain.value->memory);
    CHECK(viewed.value->memory);
    CHECK(plain.value->arrays[1].bits == viewed.value->arrays[1].bits);
    CHECK(plain.value->counts == viewed.value->counts);
}

TEST_CASE("the store requests of one array are kept whole for the warp inspector") {
    ModelLaunch model_launch{find_builtin_kernel("matmul"), {200, 200, 200, 300, 300}, {{16, 16, 1}, {32, 32, 1}}};
    model_launch.record_requests = true;
    const auto plain = run_model(model_launch);
    REQUIRE(plain.value);
    CHECK(plain.value->memory->kept_requests.empty());  // not asked to keep them
    model_launch.keep_requests = 2;                     // C
    const auto r = run_model(model_launch);
    REQUIRE(r.value);
    const MemoryView& v = *r.value->memory;
    CHECK(v.kept_requests.size() == 1400);
    CHECK_FALSE(v.kept_capped);
    REQUIRE(v.kept_request_of.size() == 200 * 200);
    // C[114, 47] is stored by warp 15 of block (3, 1): threadIdx.y 15, x 0-31, i.e. rows 96-127
    // of column 47.
    const KeptRequest& k = v.kept_requests.at(v.kept_request_of[114 * 200 + 47]);
    CHECK(k.warp == (1 * 16 + 3) * 32 + 15);
    CHECK(k.execution == 0);
    const WarpRequest& w = k.request;
    CHECK(w.mask == 0xFFFFFFFFu);
    for (uint32_t lane = 0; lane < 32; ++lane) CHECK(w.index[lane] == (96 + lane) * 200 + 47);
    CHECK(request_sectors(w).sectors == 32);
    bool all_stored = true;
    for (uint32_t id : v.kept_request_of) all_stored = all_stored && id != MemoryView::kNoRequest;
    CHECK(all_stored);
}

TEST_CASE("a warp's load requests are kept in program order - the k loop of the seed's matmul") {
    // 64x64 C, inner 48: the warp of threadIdx.y 5 in block (1, 0) computes C[32..63][5] and
    // loads A[i][k] (line 8) once per k: 48 requests, the k-th touching column k of rows 32-63.
    ModelLaunch model_launch{find_builtin_kernel("matmul"), {64, 64, 48, 64, 64}, {{2, 2, 1}, {32, 32, 1}}};
    model_launch.record_requests = true;
    model_launch.keep_requests = 0;  // A
    model_launch.keep_op = AccessOp::Load;
    const auto r = run_model(model_launch);
    REQUIRE(r.value);
    const MemoryView& v = *r.value->memory;
    const uint32_t first = v.kept_request_of[32 * 48 + 0];  // A[32][0]: the first of that warp
    REQUIRE(first != MemoryView::kNoRequest);
    const uint64_t warp = v.kept_requests[first].warp;
    for (uint32_t k = 0; k < 48; ++k) {
        CAPTURE(k);
        const KeptRequest& q = v.kept_requests.at(first + k);
        CHECK(q.warp == warp);
        CHECK(q.execution == k);
        CHECK(q.line == 8);
        CHECK(q.request.index[0] == 32 * 48 + k);
        CHECK(q.request.index[31] == 63 * 48 + k);
    }
    // A warp's requests are contiguous: the next one belongs to another warp.
    CHECK((first + 48 == v.kept_requests.size() || v.kept_requests[first + 48].warp != warp));
    // Every element of A is read (64 rows of 48): each has its first request.
    for (uint32_t id : v.kept_request_of) CHECK(id != MemoryView::kNoRequest);
}

TEST_CASE("a shared array's requests are kept for the mapped block only, with their banks") {
    // transpose-tiled reads its 32x32 tile down a column: 32 words of one bank, 32 wavefronts;
    // the padded tile's 33-word rows put them in 32 banks.
    for (const char* name : {"transpose-tiled", "transpose-tiled-padded"}) {
        CAPTURE(name);
        const KernelSpec* spec = find_builtin_kernel(name);
        ModelLaunch model_launch{spec, {64, 64}, {{2, 2, 1}, {32, 32, 1}}};
        model_launch.record_requests = true;
        model_launch.record_elements = false;
        model_launch.shared_block = 3;  // block (1, 1)
        model_launch.keep_requests = spec->array_index("tile");
        model_launch.keep_op = AccessOp::Load;
        const auto r = run_model(model_launch);
        REQUIRE(r.value);
        const MemoryView& v = *r.value->memory;
        CHECK(v.kept_requests.size() == 32);  // one per warp of the mapped block
        for (const KeptRequest& k : v.kept_requests) CHECK(k.warp / 32 == 3);
        const WarpRequest& q = v.kept_requests.front().request;
        const ArrayPlace& place = v.places[model_launch.keep_requests];
        const auto banks = bank_words(q, place);
        const uint32_t most = *std::max_element(banks.begin(), banks.end());
        CHECK(most == (std::string(name) == "transpose-tiled" ? 32u : 1u));
        CHECK(most == request_wavefronts(q, place).wavefronts);
    }
}

TEST_CASE("kept requests stop at kMaxKeptRequests and say so") {
    // increment over 2^23 + 32 elements in blocks of 32: one store request per warp, 2^18 + 1.
    ModelLaunch model_launch{
        find_builtin_kernel("increment"), {(uint64_t(1) << 23) + 32}, {{(1u << 18) + 1, 1, 1}, {32, 1, 1}}};
    model_launch.record_requests = true;
    model_launch.record_elements = false;
    model_launch.keep_requests = 0;
    const auto r = run_model(model_launch);
    REQUIRE(r.value);
    CHECK(r.value->memory->kept_requests.size() == kMaxKeptRequests);
    CHECK(r.value->memory->kept_capped);
    CHECK(r.value->memory->kept_request_of.back() == MemoryView::kNoRequest);  // the last warp's: not kept
}

TEST_CASE("a launch past the model's access budget stops between blocks and says so") {
    ModelLaunch model_launch{find_builtin_kernel("increment"), {5000}, {{20, 1, 1}, {256, 1, 1}}};
    model_launch.max_accesses = 1000;
    const auto r = run_model(model_launch);
    CHECK_FALSE(r.value);
    CHECK(r.error.find("more than 1000 loads and stores") != std::string::npos);
    model_launch.max_accesses = 10000;  // 5,000 loads and 5,000 stores: within it
    CHECK(run_model(model_launch).value);

    // Spread over two workers, each range's 5,000 accesses under the cap and their sum over it:
    // the cap is the launch's, whichever worker stopped first.
    model_launch.workers = 2;
    model_launch.max_accesses = 6000;
    const auto spread = run_model(model_launch);
    CHECK_FALSE(spread.value);
    CHECK(spread.error.find("more than 6000 loads and stores") != std::string::npos);
    model_launch.max_accesses = 10000;
    const auto within = run_model(model_launch);
    REQUIRE(within.value);
    CHECK(within.value->accesses == 10000);
    CHECK(within.value->block_ranges == 2);
}

TEST_CASE("a launch whose one block is huge stops within the block - cancelled or past its budget") {
    // matmul-tiled with its largest inner dimension: one block alone is some 10^8 accesses.
    const KernelSpec* tiled = find_builtin_kernel("matmul-tiled");
    ModelLaunch model_launch{tiled, {16, 16, 65536, 16, 16}, {{1, 1, 1}, {16, 16, 1}}};
    model_launch.max_accesses = uint64_t(1) << 22;
    const auto over = run_model(model_launch);  // a few ms, not hours
    CHECK_FALSE(over.value);
    CHECK(over.error.find("more than 4194304 loads and stores") != std::string::npos);

    // Cancelled: the same check (should_stop) that stopped it above, so no timing is needed —
    // a cancel already set stops it before its first block, as quickly.
    model_launch.max_accesses = kMaxModelAccesses;
    const std::atomic<bool> cancel{true};
    CHECK(run_model(model_launch, &cancel).cancelled());
    // ... and a kernel without barriers, one thread looping over the whole array.
    ModelLaunch stride{find_builtin_kernel("increment-stride"), {uint64_t(1) << 20}, {{1, 1, 1}, {1, 1, 1}}};
    stride.max_accesses = uint64_t(1) << 18;
    CHECK(run_model(stride).error.find("more than 262144 loads and stores") != std::string::npos);
}

TEST_CASE("lanes logged in turn make the requests lanes joined access by access make") {
    // Two recorders fed the same accesses, lane after lane: one logs each warp and counts it when
    // the warp closes, the other joins each access to its request as it comes (as for threads
    // that interleave). Lanes in lockstep, lanes that stop early, a lane that skips an access or
    // takes another context, a lane with more accesses than lane 0, out-of-bounds lanes, vector
    // accesses, shared arrays, and a warp longer than the log holds: the same view every time.
    const KernelSpec& spec = *find_builtin_kernel("matmul-tiled");  // A, B, C global; As, Bs shared
    const std::vector<uint64_t> sizes = {4096, 4096, 4096, 256, 256};
    std::mt19937 rng(2026);
    for (int round = 0; round < 120; ++round) {
        const uint32_t tpb = round == 5 ? 64 : 1 + uint32_t(rng() % 100);
        const int kind = round % 6;
        const uint32_t steps = round == 5 ? 40000 : 1 + uint32_t(rng() % 20);
        const size_t keep = rng() % 5;
        const AccessOp keep_op = rng() % 2 ? AccessOp::Load : AccessOp::Store;
        WarpRequests logged(spec, sizes, tpb, keep, keep_op, 0, SIZE_MAX, true);
        WarpRequests joined(spec, sizes, tpb, keep, keep_op, 0, SIZE_MAX, false);
        const uint32_t odd_lane = uint32_t(rng() % tpb);
        for (uint64_t block = 0; block < 2; ++block) {
            logged.begin_block(block, block == 1);
            joined.begin_block(block, block == 1);
            for (uint32_t t = 0; t < tpb; ++t) {
                uint32_t made = steps;
                if (kind == 1) made = steps - std::min(steps, t % 5);  // a guard ends some lanes early
                if (kind == 4 && t == odd_lane) made = steps + 2;      // more than lane 0
                for (uint32_t k = 0; k < made; ++k) {
                    if (kind == 2 && t == odd_lane && k == steps / 2) continue;  // skips one
                    // Four sites taken in turn, each several times, in contexts of eight accesses.
                    const uint32_t slot = k % 4;
                    const size_t array = (slot + size_t(round)) % 5;
                    const uint64_t size = sizes[array];
                    const uint32_t width = slot == 2 ? 4 : 1;
                    const uint64_t index = (t * (1 + k % 3) + k * 32 + block) % (size - 4) / width * width;
                    const uint64_t context = kind == 3 && t == odd_lane ? 99 : k / 8;
                    const bool in_bounds = (t + k) % 11 != 0;
                    const int line = 10 + int(slot);
                    const AccessOp op = slot % 2 ? AccessOp::Store : AccessOp::Load;
                    logged.record(t, context, array, index, line, op, width, in_bounds);
                    joined.record(t, context, array, index, line, op, width, in_bounds);
                }
                if ((t + 1) % kWarpLanes == 0 || t + 1 == tpb) {
                    logged.close_warp(t / kWarpLanes);
                    joined.close_warp(t / kWarpLanes);
                }
            }
        }
        const MemoryView a = logged.finish(), b = joined.finish();
        CAPTURE(round);
        REQUIRE(a.sites.size() == b.sites.size());
        for (size_t k = 0; k < a.sites.size(); ++k) {
            const MemorySite &x = a.sites[k], &y = b.sites[k];
            CHECK((x.line == y.line && x.op == y.op && x.array == y.array && x.access_bytes == y.access_bytes));
            CHECK((x.requests == y.requests && x.active_lanes == y.active_lanes && x.sectors == y.sectors &&
                   x.ideal_sectors == y.ideal_sectors && x.wavefronts == y.wavefronts &&
                   x.ideal_wavefronts == y.ideal_wavefronts && x.conflict_ways_max == y.conflict_ways_max));
        }
        REQUIRE(a.costs.size() == b.costs.size());
        for (size_t k = 0; k < a.costs.size(); ++k)
            CHECK(std::equal(a.costs[k].begin(), a.costs[k].end(), b.costs[k].begin(), b.costs[k].end(), same_cost));
        REQUIRE(a.kept_requests.size() == b.kept_requests.size());
        for (size_t k = 0; k < a.kept_requests.size(); ++k) {
            const KeptRequest &x = a.kept_requests[k], &y = b.kept_requests[k];
            CHECK((x.warp == y.warp && x.line == y.line && x.execution == y.execution &&
                   x.request.mask == y.request.mask && x.request.width == y.request.width &&
                   std::equal(std::begin(x.request.index), std::end(x.request.index), std::begin(y.request.index))));
        }
        CHECK(a.kept_request_of == b.kept_request_of);
        CHECK(a.kept_capped == b.kept_capped);
    }
}

TEST_CASE("one array's requests alone are the ones a view of every array counts for it - every built-in kernel") {
    // The window's memory colour modes group only the mapped array's accesses into requests:
    // its sites, per-element costs and kept requests must be those of the whole view.
    for (const KernelSpec* spec : builtin_kernels()) {
        CAPTURE(spec->name);
        Params p;
        for (const ParamSpec& s : spec->params)
            p.push_back(std::max(
                s.min, std::min<uint64_t>(96, s.default_from < p.size() ? p[s.default_from] : s.default_value)));
        const Dim3 block = spec->default_block;
        ModelLaunch every{spec, p, {spec->covering_grid(p, block), block}};
        every.record_requests = true;
        every.record_elements = false;
        every.shared_block = 1;
        for (size_t a = 0; a < spec->arrays.size(); ++a) {
            CAPTURE(spec->arrays[a].name);
            every.cost_array = a;
            every.keep_requests = a;
            every.keep_op = spec->arrays[a].role == ArrayRole::Input ? AccessOp::Load : AccessOp::Store;
            ModelLaunch one = every;
            one.requests_array = a;
            const auto all = run_model(every), alone = run_model(one);
            REQUIRE_MESSAGE(all.value, all.error);
            REQUIRE_MESSAGE(alone.value, alone.error);
            const MemoryView &x = *all.value->memory, &y = *alone.value->memory;
            std::vector<MemorySite> of_a;
            std::copy_if(x.sites.begin(), x.sites.end(), std::back_inserter(of_a),
                         [&](const MemorySite& s) { return s.array == a; });
            REQUIRE(y.sites.size() == of_a.size());
            for (size_t k = 0; k < of_a.size(); ++k) {
                const MemorySite &s = of_a[k], &t = y.sites[k];
                CHECK((s.line == t.line && s.op == t.op && s.access_bytes == t.access_bytes &&
                       s.requests == t.requests && s.active_lanes == t.active_lanes && s.sectors == t.sectors &&
                       s.ideal_sectors == t.ideal_sectors && s.wavefronts == t.wavefronts &&
                       s.ideal_wavefronts == t.ideal_wavefronts && s.conflict_ways_max == t.conflict_ways_max));
            }
            CHECK(std::equal(x.costs[a].begin(), x.costs[a].end(), y.costs[a].begin(), y.costs[a].end(), same_cost));
            REQUIRE(x.kept_requests.size() == y.kept_requests.size());
            for (size_t k = 0; k < x.kept_requests.size(); ++k) {
                const KeptRequest &s = x.kept_requests[k], &t = y.kept_requests[k];
                CHECK(
                    (s.warp == t.warp && s.line == t.line && s.execution == t.execution &&
                     s.request.mask == t.request.mask &&
                     std::equal(std::begin(s.request.index), std::end(s.request.index), std::begin(t.request.index))));
            }
            CHECK(x.kept_request_of == y.kept_request_of);
            CHECK(all.value->accesses == alone.value->accesses);
            // The other arrays' accesses take the body's own path (values only): the same
            // values, and the same out-of-bounds findings.
            for (size_t k = 0; k < spec->arrays.size(); ++k)
                CHECK(all.value->arrays[k].bits == alone.value->arrays[k].bits);
            CHECK(all.value->counts == alone.value->counts);
            CHECK(all.value->findings.size() == alone.value->findings.size());
        }
    }
}
