// Warp requests of a learner's kernel follow its loops: a warp runs a loop's iterations
// together, so the lanes that make an access in one iteration are that iteration's request and
// a lane whose guard is false there is inactive in it, even if it makes the access in the next
// iteration. After a loop (left by its end, a break or a return) the lanes are one warp again.
// Every figure here is worked out by hand from the kernel's text in its comment.
#include <doctest/doctest.h>

#include "kernels/model/model_emulator.hpp"
#include "tests/source/source_test_helpers.hpp"

using namespace threadmap;
using namespace threadmap::test;

namespace {

struct Figures {
    uint64_t requests = 0, sectors = 0, lanes = 0;
};

// The figures of the site at `line` that makes `op`s, one warp of 32 threads.
Figures figures(const std::string& text, const std::vector<std::string>& binds, int line, AccessOp op,
                Dim3 block = {32, 1, 1}) {
    auto k = bound(compiled(text), binds);
    ModelLaunch model_launch{&k->spec, {}, {{1, 1, 1}, block}};
    model_launch.record_requests = true;
    const auto r = run_model(model_launch);
    REQUIRE_MESSAGE(r.value, r.error);
    for (const MemorySite& s : r.value->memory->sites)
        if (s.line == line && s.op == op) return {s.requests, s.sectors, s.active_lanes};
    FAIL("no site at line " << line);
    return {};
}

}  // namespace

TEST_CASE("lanes that take turns in a loop's iterations are in separate requests, as the warp runs them") {
    // Iteration i: the 16 lanes with (lane + i) even store, every other element of a[0..31]:
    // 4 requests of 16 lanes, each over the 4 sectors of a (not 2 requests of 32 lanes).
    const Figures f = figures(
        "__global__ void turns(float* a) {\n"
        "    for (int i = 0; i < 4; ++i)\n"
        "        if ((threadIdx.x + i) % 2 == 0) a[threadIdx.x] = i;\n"
        "}\n",
        {"a=float[32]"}, 3, AccessOp::Store);
    CHECK(f.requests == 4);
    CHECK(f.lanes == 4 * 16);
    CHECK(f.sectors == 4 * 4);
}

TEST_CASE("a triangle of stores: iteration k's request is lanes 0 to k") {
    // for k in 0..31, lanes 0..k store row k, elements k*32 + 0..k: k+1 contiguous floats, so
    // ceil((k+1) / 8) sectors: 8 requests each of 1, 2, 3 and 4 sectors, 80 in all, and 528 lanes.
    // (Counted by each lane's n-th store instead, request n would hold lanes 0..31-n, each on a
    // row of its own: 528 sectors.)
    const Figures f = figures(
        "__global__ void triangle(float* a) {\n"
        "    for (int k = 0; k < 32; ++k) {\n"
        "        if (threadIdx.x <= k)\n"
        "            a[k * 32 + threadIdx.x] = 1;\n"
        "    }\n"
        "}\n",
        {"a=float[1024]"}, 4, AccessOp::Store);
    CHECK(f.requests == 32);
    CHECK(f.lanes == 528);
    CHECK(f.sectors == 80);
}

TEST_CASE("after a loop that only some lanes run, or leave early, the warp's next access is one request") {
    // Lanes 0..15 run a loop, the others skip it; then every lane stores out[lane]: one request
    // of 32 lanes over 4 sectors (the loop's own stores: 3 requests of 16 lanes, 2 sectors each).
    const std::string some =
        "__global__ void some(float* a, float* out) {\n"
        "    if (threadIdx.x < 16)\n"
        "        for (int i = 0; i < 3; ++i) a[i * 32 + threadIdx.x] = i;\n"
        "    out[threadIdx.x] = 1;\n"
        "}\n";
    const Figures after = figures(some, {"a=float[96]", "out=float[32]"}, 4, AccessOp::Store);
    CHECK(after.requests == 1);
    CHECK(after.lanes == 32);
    CHECK(after.sectors == 4);
    const Figures in_loop = figures(some, {"a=float[96]", "out=float[32]"}, 3, AccessOp::Store);
    CHECK(in_loop.requests == 3);
    CHECK(in_loop.lanes == 48);
    CHECK(in_loop.sectors == 6);

    // Lane l breaks out of the loop at i == l % 4 (before storing); then every lane stores.
    // Loop stores: iteration i by the lanes with l % 4 > i: 24, 16 and 8 lanes, 3 requests.
    const std::string early =
        "__global__ void early(float* a, float* out) {\n"
        "    for (int i = 0; i < 4; ++i) {\n"
        "        if (i == threadIdx.x % 4) break;\n"
        "        a[i * 32 + threadIdx.x] = i;\n"
        "    }\n"
        "    out[threadIdx.x] = 1;\n"
        "}\n";
    const Figures breaks = figures(early, {"a=float[128]", "out=float[32]"}, 4, AccessOp::Store);
    CHECK(breaks.requests == 3);
    CHECK(breaks.lanes == 24 + 16 + 8);
    const Figures joined = figures(early, {"a=float[128]", "out=float[32]"}, 6, AccessOp::Store);
    CHECK(joined.requests == 1);
    CHECK(joined.lanes == 32);
}

TEST_CASE("a helper's loop, left by a return, and called twice: each call's iterations are their own requests") {
    // find() returns at the first i with a[i * 32 + lane] != 0; it is called twice, so its load
    // (line 3) runs in two calls of up to 4 iterations. a holds the index, so a[i * 32 + lane]
    // is 0 only at i = 0, lane 0: lane 0 loads 2 times per call (i = 0, 1), the others once
    // (i = 0). Per call: iteration 0 by 32 lanes (4 sectors), iteration 1 by lane 0 (1 sector).
    const Figures f = figures(
        "__device__ int find(const float* a) {\n"
        "    for (int i = 0; i < 4; ++i)\n"
        "        if (a[i * 32 + threadIdx.x] != 0) return i;\n"
        "    return -1;\n"
        "}\n"
        "__global__ void twice(const float* a, int* out) {\n"
        "    out[threadIdx.x] = find(a) + find(a);\n"
        "}\n",
        {"a=float[128]:index", "out=int[32]"}, 3, AccessOp::Load);
    CHECK(f.requests == 4);
    CHECK(f.lanes == 2 * 33);
    CHECK(f.sectors == 2 * 5);
}

TEST_CASE("while and do loops, and a barrier in the loop: iterations are told apart the same way") {
    // The same turns as above, written with while and with do, and with a __syncthreads() in
    // each iteration: 4 requests of 16 lanes.
    for (const char* loop : {"    int i = 0;\n    while (i < 4) {\n", "    int i = 0;\n    do {\n",
                             "    for (int i = 0; i < 4;) {\n        __syncthreads();\n"}) {
        CAPTURE(loop);
        const bool with_do = std::string(loop).find("do") != std::string::npos;
        const std::string text = std::string("__global__ void turns(float* a) {\n") + loop +
                                 "        if ((threadIdx.x + i) % 2 == 0) a[threadIdx.x] = i;\n"
                                 "        ++i;\n" +
                                 (with_do ? "    } while (i < 4);\n" : "    }\n") + "}\n";
        const Figures f = figures(text, {"a=float[32]"}, 4, AccessOp::Store);
        CHECK(f.requests == 4);
        CHECK(f.lanes == 4 * 16);
    }
}
