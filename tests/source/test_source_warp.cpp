// CUDA's warp-level functions in a learner's kernel: shuffles, votes, reductions, matches and
// __syncwarp, run by the kernel model as a warp's lanes meeting at the call. The expected values
// are written here from CUDA's documentation (lane arithmetic by hand), not from the model.
#include <doctest/doctest.h>

#include <bit>
#include <cstdint>
#include <string>

#include "kernels/model/model_emulator.hpp"
#include "kernels/model/warp_collective.hpp"
#include "tests/source/source_test_helpers.hpp"

using namespace threadmap;
using namespace threadmap::test;

namespace {

bool has_message(const ModelResult& result, FindingKind kind, const std::string& part) {
    for (const Finding& f : result.findings)
        if (f.kind == kind && f.message.find(part) != std::string::npos) return true;
    return false;
}

}  // namespace

TEST_CASE("shuffles give each lane the value CUDA's rules name, within segments of width lanes") {
    auto s = compiled(
        "__global__ void k(int* idx, int* up, int* down, int* bfly, int* down8, int* xor4) {\n"
        "    int t = threadIdx.x, v = t * 10;\n"
        "    idx[t] = __shfl_sync(0xffffffff, v, 37);\n"  // 37 % 32 = 5
        "    up[t] = __shfl_up_sync(0xffffffff, v, 3);\n"
        "    down[t] = __shfl_down_sync(0xffffffff, v, 5);\n"
        "    bfly[t] = __shfl_xor_sync(0xffffffff, v, 6);\n"
        "    down8[t] = __shfl_down_sync(0xffffffff, v, 2, 8);\n"
        "    xor4[t] = __shfl_xor_sync(0xffffffff, v, 6, 4);\n"
        "}\n");
    auto k = bound(s, {"idx=int[64]", "up=int[64]", "down=int[64]", "bfly=int[64]", "down8=int[64]", "xor4=int[64]"});
    CHECK(k->spec.uses_warp_ops);
    const ModelResult result = run(*k, {1, 1, 1}, {64, 1, 1});
    CHECK(result.findings.empty());
    for (int t = 0; t < 64; ++t) {
        CAPTURE(t);
        const int warp = t / 32 * 32, lane = t % 32;
        const auto value = [&](int l) { return uint32_t((warp + l) * 10); };
        CHECK(result.arrays[0].bits[t] == value(5));
        CHECK(result.arrays[1].bits[t] == value(lane >= 3 ? lane - 3 : lane));      // the first 3 keep their own
        CHECK(result.arrays[2].bits[t] == value(lane + 5 < 32 ? lane + 5 : lane));  // the last 5 keep their own
        CHECK(result.arrays[3].bits[t] == value(lane ^ 6));
        const int seg8 = lane / 8 * 8;
        CHECK(result.arrays[4].bits[t] == value(lane + 2 < seg8 + 8 ? lane + 2 : lane));
        // xor 6 in segments of 4: lane ^ 6 lies in an earlier segment or a later one; a later one
        // is out of range (the lane keeps its own), an earlier one is read.
        const int seg4 = lane / 4 * 4, j = lane ^ 6;
        CHECK(result.arrays[5].bits[t] == value(j < seg4 + 4 ? j : lane));
    }
}

TEST_CASE(
    "a warp-shuffle sum reduction adds every element once, and a block that is not whole warps reads lanes that do not "
    "exist") {
    auto s = compiled(
        "__device__ float warp_sum(float v) {\n"
        "    for (int offset = warpSize / 2; offset > 0; offset /= 2)\n"
        "        v += __shfl_down_sync(0xffffffff, v, offset);\n"
        "    return v;\n"
        "}\n"
        "__global__ void reduce(const float* in, float* out, int n) {\n"
        "    float sum = 0;\n"
        "    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)\n"
        "        sum += in[i];\n"
        "    sum = warp_sum(sum);\n"
        "    if ((threadIdx.x & 31) == 0) atomicAdd(out, sum);\n"
        "}\n");
    auto k = bound(s, {"in=float[1000]:ones", "out=float[1]", "n=1000"});
    const ModelResult whole = run(*k, {4, 1, 1}, {128, 1, 1});
    CHECK(whole.findings.empty());
    CHECK(std::bit_cast<float>(whole.arrays[1].bits[0]) == 1000.0f);
    CHECK(whole.arrays[1].records[0].writers == 16);  // lane 0 of each of the 16 warps

    // 10 blocks of 100 threads, one element each: warp 3 has lanes 0-3 only. Lanes 16-19, 8-11
    // and 4-7 do not exist (their values: undefined, the model keeps each lane's own: 1 → 2 → 4
    // → 8), then lane 0 gets lane 2's 8 + 8 = 16 and 16 + lane 1's 16 = 32: each block adds 96 + 32.
    const ModelResult partial = run(*k, {10, 1, 1}, {100, 1, 1});
    CHECK(std::bit_cast<float>(partial.arrays[1].bits[0]) == 1280.0f);
    // One finding per call in which a lane read a missing one: every offset (at 1, lane 3 reads
    // lane 4), 5 calls in each of the 10 blocks.
    CHECK(partial.counts[size_t(FindingKind::UninitializedRead)] == 50);
    CHECK(has_message(partial, FindingKind::UninitializedRead,
                      "thread (96,0,0) of block (0,0,0) (lane 0 of warp 3) takes a value from lane 16 through "
                      "__shfl_down_sync at line 3, but that lane is past the block's last thread (the block has 100 "
                      "threads): the value is undefined"));
}

TEST_CASE("votes, reductions and matches over a warp's lanes") {
    auto s = compiled(
        "__global__ void k(unsigned* ballot, int* any, int* all, unsigned* sum, int* mn, unsigned* mx,\n"
        "                  unsigned* match, unsigned* match_all, int* pred) {\n"
        "    int t = threadIdx.x;\n"
        "    ballot[t] = __ballot_sync(0xffffffff, t % 3 == 0);\n"
        "    any[t] = __any_sync(0xffffffff, t == 7);\n"
        "    all[t] = __all_sync(0xffffffff, t < 31);\n"
        "    sum[t] = __reduce_add_sync(0xffffffff, (unsigned)t);\n"
        "    mn[t] = __reduce_min_sync(0xffffffff, 5 - t);\n"
        "    mx[t] = __reduce_max_sync(0xffffffff, (unsigned)(t * 7 % 32));\n"
        "    match[t] = __match_any_sync(0xffffffff, t / 4);\n"
        "    int p = 7;\n"
        "    match_all[t] = __match_all_sync(0xffffffff, 42.0f, &p);\n"
        "    pred[t] = p;\n"
        "}\n");
    auto k = bound(s, {"ballot=uint[32]", "any=int[32]", "all=int[32]", "sum=uint[32]", "mn=int[32]", "mx=uint[32]",
                       "match=uint[32]", "match_all=uint[32]", "pred=int[32]"});
    const ModelResult result = run(*k, {1, 1, 1}, {32, 1, 1});
    CHECK(result.findings.empty());
    uint32_t thirds = 0;
    for (int l = 0; l < 32; l += 3) thirds |= 1u << l;
    for (int t = 0; t < 32; ++t) {
        CAPTURE(t);
        CHECK(result.arrays[0].bits[t] == thirds);
        CHECK(result.arrays[1].bits[t] == 1);
        CHECK(result.arrays[2].bits[t] == 0);  // lane 31's predicate is false
        CHECK(result.arrays[3].bits[t] == 496);
        CHECK(int32_t(result.arrays[4].bits[t]) == -26);
        CHECK(result.arrays[5].bits[t] == 31);
        CHECK(result.arrays[6].bits[t] == 0xfu << (t / 4 * 4));
        CHECK(result.arrays[7].bits[t] == 0xffffffffu);
        CHECK(result.arrays[8].bits[t] == 1);
    }
}

TEST_CASE("lanes of one warp with disjoint masks meet in two groups") {
    auto s = compiled(
        "__global__ void k(int* out) {\n"
        "    int t = threadIdx.x, v = t * 3;\n"
        "    if (t < 16) out[t] = __shfl_xor_sync(0x0000ffff, v, 1);\n"
        "    else out[t] = __shfl_xor_sync(0xffff0000, v, 1);\n"
        "}\n");
    auto k = bound(s, {"out=int[32]"});
    const ModelResult result = run(*k, {1, 1, 1}, {32, 1, 1});
    CHECK(result.findings.empty());
    for (int t = 0; t < 32; ++t) CHECK(result.arrays[0].bits[t] == uint32_t((t ^ 1) * 3));
}

TEST_CASE("__syncwarp orders a warp's shared-memory accesses: the warp-synchronous reduction races without it") {
    // The last steps of a shared-memory reduction done by one warp, as NVIDIA's "Using CUDA Warp-
    // Level Primitives" writes it with __syncwarp(), and as older code wrote it without.
    const std::string synced =
        "__global__ void k(const int* in, int* out) {\n"
        "    __shared__ int s[64];\n"
        "    int t = threadIdx.x;\n"
        "    s[t] = in[t];\n"
        "    s[t + 32] = in[t + 32];\n"
        "    __syncwarp();\n"
        "    int v = s[t];\n"
        "    for (int offset = 32; offset > 0; offset /= 2) {\n"
        "        v += s[t + offset];\n"
        "        __syncwarp();\n"
        "        s[t] = v;\n"
        "        __syncwarp();\n"
        "    }\n"
        "    if (t == 0) out[0] = s[0];\n"
        "}\n";
    auto k = bound(compiled(synced), {"in=int[64]:index", "out=int[1]"});
    const ModelResult result = run(*k, {1, 1, 1}, {32, 1, 1});
    // s[t + offset] past 32 + offset reads what lanes left behind: only lane 0's sum matters.
    CHECK(result.counts[size_t(FindingKind::ReadWriteHazard)] == 0);
    CHECK(result.counts[size_t(FindingKind::WriteWriteRace)] == 0);
    CHECK(result.arrays[1].bits[0] == 2016);  // 0 + 1 + … + 63

    std::string unsynced = synced;
    for (size_t at; (at = unsynced.find("        __syncwarp();\n")) != std::string::npos;)
        unsynced.erase(at, std::string("        __syncwarp();\n").size());
    auto racy = bound(compiled(unsynced), {"in=int[64]:index", "out=int[1]"});
    const ModelResult unsynced_result = run(*racy, {1, 1, 1}, {32, 1, 1});
    CHECK(unsynced_result.counts[size_t(FindingKind::ReadWriteHazard)] > 0);
    CHECK(
        has_message(unsynced_result, FindingKind::ReadWriteHazard, "missing __syncthreads() or __syncwarp() between"));
}

TEST_CASE("a warp call that a lane its mask names never reaches ends the launch with a divergence finding") {
    auto s = compiled(
        "__global__ void k(int* out) {\n"
        "    int v = threadIdx.x;\n"
        "    if (threadIdx.x < 16) v = __shfl_down_sync(0xffffffff, v, 1);\n"
        "    __syncthreads();\n"
        "    out[threadIdx.x] = v;\n"
        "}\n");
    auto k = bound(s, {"out=int[32]"});
    const ModelResult result = run(*k, {1, 1, 1}, {32, 1, 1});
    CHECK(result.ended_early);
    REQUIRE(result.counts[size_t(FindingKind::DivergentBarrier)] == 1);
    CHECK(has_message(result, FindingKind::DivergentBarrier,
                      "divergent warp call at line 3 in block (0,0,0): lanes 0, 1, 2 and 13 more of warp 0 wait at "
                      "__shfl_down_sync on line 3 with mask 0xffffffff, lanes 16, 17, 18 and 13 more that its mask "
                      "names wait at __syncthreads() on line 4"));
    // For the map: the lanes at the shuffle, and those its mask names at the barrier.
    REQUIRE(result.diverged);
    CHECK(result.diverged->line == 3);
    CHECK(result.diverged->sides[0] == BarrierSide::Waiting);
    CHECK(result.diverged->sides[15] == BarrierSide::Waiting);
    CHECK(result.diverged->sides[16] == BarrierSide::Elsewhere);
}

TEST_CASE("lanes that exited do not hold a warp call up, but reading one is undefined") {
    auto s = compiled(
        "__global__ void k(int* out) {\n"
        "    if (threadIdx.x >= 20) return;\n"
        "    out[threadIdx.x] = __shfl_down_sync(0xffffffff, (int)threadIdx.x, 4);\n"
        "}\n");
    auto k = bound(s, {"out=int[32]"});
    const ModelResult result = run(*k, {1, 1, 1}, {32, 1, 1});
    CHECK_FALSE(result.ended_early);
    for (uint32_t t = 0; t < 16; ++t) CHECK(result.arrays[0].bits[t] == t + 4);
    CHECK(result.arrays[0].bits[16] == 16);  // undefined: its own
    CHECK(has_message(result, FindingKind::UninitializedRead, "(lane 16 of warp 0) takes a value from lane 20"));
    CHECK(has_message(result, FindingKind::UninitializedRead, "but that lane has exited"));
}

TEST_CASE("a warp call whose mask leaves out the calling lane is undefined and ends the launch") {
    auto s = compiled(
        "__global__ void k(int* out) {\n"
        "    out[threadIdx.x] = __shfl_sync(0x00000002, 5, 1);\n"
        "}\n");
    auto k = bound(s, {"out=int[32]"});
    const ModelResult result = run(*k, {1, 1, 1}, {32, 1, 1});
    CHECK(result.ended_early);
    CHECK(has_message(result, FindingKind::DivergentBarrier,
                      "(lane 0 of warp 0) calls __shfl_sync at line 2 with mask 0x00000002, which leaves out its "
                      "own lane"));
}

TEST_CASE("warp functions the model cannot run are refused at compile time with the reason") {
    for (const char* call : {"__shfl_down(v, 1)", "__activemask()"}) {
        CAPTURE(call);
        const SourceCompile c = compile_source(
            std::string("__global__ void k(int* out) {\n    int v = 1;\n    out[0] = ") + call + ";\n}\n", "kernel.cu");
        CHECK_FALSE(c.source);
        CHECK(c.text.find("kernel.cu:3:") != std::string::npos);
        CHECK(c.text.find(std::string(call).find("__shfl") == 0 ? "removed in CUDA 9" : "cannot know") !=
              std::string::npos);
    }
}

TEST_CASE(
    "each reader keeps its own epoch: a neighbour's read before a __syncwarp() is ordered with the owner's "
    "write after it") {
    // Lane t reads s[t + 1], the warp meets, then lane t reads and writes its own s[t]: every
    // write is ordered after the neighbour's read, so CUDA's rules give no hazard. (Each element
    // has two readers, the neighbour before the __syncwarp() and the owner after; the model once
    // checked both against the owner's epoch and reported 32 hazards.)
    const std::string text =
        "__global__ void k(int* out) {\n"
        "    __shared__ int s[32];\n"
        "    int t = threadIdx.x;\n"
        "    s[t] = t;\n"
        "    __syncwarp();\n"
        "    int a = s[(t + 1) % 32];\n"
        "    __syncwarp();\n"
        "    s[t] = a + s[t];\n"
        "    __syncwarp();\n"
        "    out[t] = s[t];\n"
        "}\n";
    auto k = bound(compiled(text), {"out=int[32]"});
    const ModelResult result = run(*k, {1, 1, 1}, {32, 1, 1});
    CHECK(result.counts[size_t(FindingKind::ReadWriteHazard)] == 0);
    CHECK(result.arrays[0].bits[5] == 11);  // s[6] + s[5]

    // Without the second __syncwarp() the owner's write may come before the neighbour's read:
    // the finding names the neighbour's line (6), not the owner's own read's (8).
    std::string unsynced = text;
    unsynced.replace(unsynced.find("    __syncwarp();\n    s[t] = a"), std::string("    __syncwarp();\n").size(), "");
    auto racy = bound(compiled(unsynced), {"out=int[32]"});
    const ModelResult unsynced_result = run(*racy, {1, 1, 1}, {32, 1, 1});
    CHECK(unsynced_result.counts[size_t(FindingKind::ReadWriteHazard)] == 32);
    CHECK(has_message(unsynced_result, FindingKind::ReadWriteHazard,
                      "thread (1,0,0) of block (0,0,0) writes s[1] at line 7, which thread (0,0,0) of block (0,0,0) "
                      "reads at line 6"));
}

TEST_CASE("__syncwarp orders through a third lane: a vector clock per thread") {
    WarpOrder order;
    order.reset(64);
    // Lane 0 wrote at epoch 0; lanes 0 and 1 meet (epoch 1), then lanes 1 and 2 (epoch 2).
    order.sync(0, 0b011, 1);
    order.sync(0, 0b110, 2);
    CHECK(order.ordered(0, 2, 0));         // lane 0's write reaches lane 2 through lane 1
    CHECK_FALSE(order.ordered(0, 2, 1));   // a write lane 0 made after meeting lane 1 does not
    CHECK_FALSE(order.ordered(2, 0, 0));   // nor lane 2's to lane 0, which met it through no one
    CHECK_FALSE(order.ordered(0, 33, 0));  // another warp: never
}

TEST_CASE("cooperative groups: the block, tiles of 16 and 32, and cg::reduce, at the learner's lines") {
    auto s = compiled(
        "#include <cooperative_groups.h>\n"
        "#include <cooperative_groups/reduce.h>\n"
        "namespace cg = cooperative_groups;\n"
        "__global__ void k(const int* in, int* sums, unsigned* ballots, int* ranks, int* total) {\n"
        "    cg::thread_block block = cg::this_thread_block();\n"
        "    cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);\n"
        "    int t = block.thread_rank(), v = in[t];\n"
        "    for (int offset = tile.size() / 2; offset > 0; offset /= 2) v += tile.shfl_down(v, offset);\n"
        "    if (tile.thread_rank() == 0) sums[tile.meta_group_rank()] = v;\n"
        "    ballots[t] = tile.ballot(in[t] % 3 == 0);\n"
        "    ranks[t] = tile.thread_rank();\n"
        "    block.sync();\n"
        "    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);\n"
        "    int all = cg::reduce(warp, in[t], cg::plus<int>());\n"
        "    if (t == 0) total[0] = all;\n"
        "}\n");
    auto k = bound(s, {"in=int[64]:index", "sums=int[4]", "ballots=uint[64]", "ranks=int[64]", "total=int[1]"});
    CHECK(k->spec.uses_barriers);
    CHECK(k->spec.uses_warp_ops);
    const ModelResult result = run(*k, {1, 1, 1}, {64, 1, 1});
    CHECK(result.findings.empty());
    for (uint32_t g = 0; g < 4; ++g) CHECK(result.arrays[1].bits[g] == 16 * 16 * g + 120);  // 16g … 16g + 15
    for (uint32_t t = 0; t < 64; ++t) {
        CAPTURE(t);
        uint32_t want = 0;  // bit r for the tile's thread of rank r whose value is a multiple of 3
        for (uint32_t rank = 0; rank < 16; ++rank) want |= ((t / 16 * 16 + rank) % 3 == 0 ? 1u : 0u) << rank;
        CHECK(result.arrays[2].bits[t] == want);
        CHECK(result.arrays[3].bits[t] == t % 16);
    }
    CHECK(result.arrays[4].bits[0] == 496);  // lanes 0-31 of warp 0

    // A block of 40: the second tile of 32 has 8 threads, so its shuffles read missing lanes,
    // reported at the learner's line.
    const ModelResult partial = run(*k, {1, 1, 1}, {40, 1, 1});
    CHECK(has_message(partial, FindingKind::UninitializedRead,
                      "at line 14, but that lane is past the block's last thread"));
}

TEST_CASE("cooperative groups that need more than a block are refused with the reason") {
    const SourceCompile c = compile_source(
        "#include <cooperative_groups.h>\n"
        "__global__ void k(int* a) {\n"
        "    auto grid = cooperative_groups::this_grid();\n"
        "}\n",
        "kernel.cu");
    CHECK_FALSE(c.source);
    CHECK(c.text.find("kernel.cu:3:") != std::string::npos);
    CHECK(c.text.find("cooperative launch") != std::string::npos);
}
