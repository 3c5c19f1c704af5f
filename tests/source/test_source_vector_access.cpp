// Vector accesses in a learner's kernel: a float4 (or float2, double2, char4) read or written
// through reinterpret_cast is one access per lane on a GPU. Each of its elements is recorded
// as the elements of any access are (values, writers, races, out of bounds), and the memory
// view counts it once per lane at its full width: 16 sectors for a warp of coalesced float4
// loads, four quarter-warps of shared memory.
#include <doctest/doctest.h>

#include <bit>
#include <cstdint>

#include "kernels/model/model_emulator.hpp"
#include "tests/source/source_test_helpers.hpp"

using namespace threadmap;
using namespace threadmap::test;

namespace {

ModelResult run_with_requests(const BoundKernel& k, Dim3 grid, Dim3 block) {
    ModelLaunch model_launch{&k.spec, {}, {grid, block}};
    model_launch.record_requests = true;
    const auto r = run_model(model_launch);
    REQUIRE_MESSAGE(r.value, r.error);
    return *r.value;
}

float value(const ArrayResult& a, size_t i) { return std::bit_cast<float>(a.bits[i]); }

}  // namespace

TEST_CASE("a float4 copy through reinterpret_cast: each element written by its lane, 16 sectors per warp request") {
    auto s = compiled(
        "__global__ void copy4(const float* in, float* out, int n) {\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (4 * i < n) {\n"
        "        float4 v = reinterpret_cast<const float4*>(in)[i];\n"
        "        v.x += 1; v.y += 2; v.z += 3; v.w += 4;\n"
        "        reinterpret_cast<float4*>(out)[i] = v;\n"
        "    }\n"
        "}\n");
    auto k = bound(s, {"in=float[1024]:index", "out=float[1024]", "n=1024"});
    const ModelResult result = run_with_requests(*k, {2, 1, 1}, {128, 1, 1});
    CHECK(result.findings.empty());
    for (uint32_t e = 0; e < 1024; ++e) {
        CAPTURE(e);
        CHECK(value(result.arrays[1], e) == float(e) + float(e % 4 + 1));
        // out[4t..4t+3] are thread t's: the map shows runs of four elements per thread.
        CHECK(result.arrays[1].records[e].first_writer == e / 4);
        CHECK(result.arrays[1].records[e].writers == 1);
        CHECK(result.arrays[0].records[e].first_reader == e / 4);
    }
    const MemoryView& v = *result.memory;
    // 256 threads, 8 warps, one request each: 32 lanes × 16 bytes = 512 bytes = 16 sectors.
    for (const auto& [line, op] : {std::pair{4, AccessOp::Load}, std::pair{6, AccessOp::Store}}) {
        const MemorySite& m = site(v, line, op);
        CHECK(m.access_bytes == 16);
        CHECK(m.requests == 8);
        CHECK(m.sectors == 8 * 16);
        CHECK(m.ideal_sectors == 8 * 16);
        CHECK(m.active_lanes == 256);
    }
}

TEST_CASE("a float4 past the end: its elements out of bounds one by one, its lane inactive in the request") {
    auto s = compiled(
        "__global__ void copy4(const float* in, float* out, int n) {\n"
        "    int i = threadIdx.x;\n"
        "    if (i * 4 < n) reinterpret_cast<float4*>(out)[i] = reinterpret_cast<const float4*>(in)[i];\n"
        "}\n");
    // 1022 elements: the last lane's float4 covers in[1020..1023], two of them past the end.
    auto k = bound(s, {"in=float[1022]:index", "out=float[1022]", "n=1022"});
    const ModelResult result = run_with_requests(*k, {1, 1, 1}, {256, 1, 1});
    CHECK(result.counts[size_t(FindingKind::OutOfBounds)] == 4);  // in[1022], in[1023], out[1022], out[1023]
    bool named = false;
    for (const Finding& f : result.findings)
        named = named ||
                f.message.find("reads in[1023] at line 3, past the end of in (1022 elements)") != std::string::npos;
    CHECK(named);
    CHECK(value(result.arrays[1], 1021) == 1021.0f);  // the elements in bounds are copied
    const MemorySite& load = site(*result.memory, 3, AccessOp::Load);
    CHECK(load.active_lanes == 255);
    // The last warp's lanes 0-30 still touch its 16 sectors (lane 30 shares lane 31's), and
    // 31 lanes of 16 bytes would fill 15.5: 16 would do.
    CHECK(load.sectors == 8 * 16);
    CHECK(load.ideal_sectors == 8 * 16);
}

TEST_CASE("a misaligned float4 stops the run with CUDA's reason - a float3 is three accesses") {
    auto s = compiled(
        "__global__ void k(const float* in, float* out) {\n"
        "    int i = threadIdx.x;\n"
        "    float4 v = *reinterpret_cast<const float4*>(in + i);\n"
        "    out[i] = v.x;\n"
        "}\n");
    auto k = bound(s, {"in=float[64]:index", "out=float[32]"});
    const auto r = run_model({&k->spec, {}, {{1, 1, 1}, {32, 1, 1}}});
    REQUIRE(!r.value);
    CHECK(r.error.find("line 3: a 16-byte access at byte offset 4 of an array of 4-byte elements") !=
          std::string::npos);
    CHECK(r.error.find("misaligned address") != std::string::npos);

    // 12 bytes, no vector instruction: three loads per thread, each counted as one.
    auto three = compiled(
        "__global__ void k(const float* in, float* out) {\n"
        "    int i = threadIdx.x;\n"
        "    float3 p = reinterpret_cast<const float3*>(in)[i];\n"
        "    out[i] = p.x + p.y + p.z;\n"
        "}\n");
    auto t = bound(three, {"in=float[96]:index", "out=float[32]"});
    const ModelResult result = run_with_requests(*t, {1, 1, 1}, {32, 1, 1});
    for (uint32_t i = 0; i < 32; ++i) CHECK(value(result.arrays[1], i) == float(9 * i + 3));
    const MemorySite& load = site(*result.memory, 3, AccessOp::Load);
    CHECK(load.access_bytes == 4);
    CHECK(load.requests == 3);
}

TEST_CASE("shared memory serves float4 requests in quarter-warps and float2 ones in half-warps") {
    auto s = compiled(
        "__global__ void k(float* out, int stride) {\n"
        "    __shared__ float s[512];\n"
        "    int t = threadIdx.x;\n"
        "    reinterpret_cast<float4*>(s)[t] = make_float4(t, t, t, t);\n"
        "    reinterpret_cast<float2*>(s)[t] = make_float2(t, t);\n"
        "    __syncthreads();\n"
        "    float4 v = reinterpret_cast<float4*>(s)[(t * stride) % 128];\n"
        "    out[t] = v.x + v.w;\n"
        "}\n");
    const auto shared = [&](const char* stride) {
        auto k = bound(s, {"out=float[32]", stride});
        return run_with_requests(*k, {1, 1, 1}, {32, 1, 1});
    };
    const ModelResult result = shared("stride=1");
    // 8 lanes × 16 bytes = 128 bytes: one wavefront per quarter-warp, four per request.
    const MemorySite& store4 = site(*result.memory, 4, AccessOp::Store);
    CHECK(store4.access_bytes == 16);
    CHECK(store4.wavefronts == 4);
    CHECK(store4.ideal_wavefronts == 4);
    CHECK(store4.conflict_ways_max == 1);
    const MemorySite& store2 = site(*result.memory, 5, AccessOp::Store);
    CHECK(store2.access_bytes == 8);
    CHECK(store2.wavefronts == 2);
    CHECK(store2.ideal_wavefronts == 2);
    CHECK(site(*result.memory, 7, AccessOp::Load).wavefronts == 4);
    // Stride 2 float4s: a quarter-warp's 8 lanes span 256 bytes, each bank twice: 2-way.
    const ModelResult two = shared("stride=2");
    const MemorySite& strided = site(*two.memory, 7, AccessOp::Load);
    CHECK(strided.wavefronts == 8);
    CHECK(strided.conflict_ways_max == 2);
    // Stride 8: every lane of a quarter-warp on banks 0-3: 8-way, 32 wavefronts.
    const ModelResult eight = shared("stride=8");
    const MemorySite& worst = site(*eight.memory, 7, AccessOp::Load);
    CHECK(worst.wavefronts == 32);
    CHECK(worst.conflict_ways_max == 8);
    // Values: the float2 stores came second, over s[0..63]: thread 5's float4 read holds s[20] =
    // 10 (thread 10's float2) and s[23] = 11 (thread 11's). Two threads' unordered writes race
    // on each of s[2..63]; thread 0 writes s[0] and s[1] both times.
    CHECK(value(result.arrays[0], 5) == 10.0f + 11.0f);
    CHECK(result.counts[size_t(FindingKind::WriteWriteRace)] == 62);
}

TEST_CASE("double2 and char4 vectors: elements of their own size, a race between two lanes' vectors per element") {
    auto s = compiled(
        "__global__ void k(const double* d, double* e, const unsigned char* c, unsigned char* o) {\n"
        "    int i = threadIdx.x;\n"
        "    double2 p = reinterpret_cast<const double2*>(d)[i];\n"
        "    reinterpret_cast<double2*>(e)[i / 2] = make_double2(p.y, p.x);\n"
        "    uchar4 q = reinterpret_cast<const uchar4*>(c)[i];\n"
        "    reinterpret_cast<uchar4*>(o)[i] = make_uchar4(q.w, q.z, q.y, q.x);\n"
        "}\n");
    auto k = bound(s, {"d=double[64]:index", "e=double[64]", "c=uchar[128]:index", "o=uchar[128]"});
    const ModelResult result = run_with_requests(*k, {1, 1, 1}, {32, 1, 1});
    // Lanes 2j and 2j+1 write e[2j..2j+1]: a race on each of the two doubles.
    CHECK(result.counts[size_t(FindingKind::WriteWriteRace)] == 32);
    for (uint32_t i = 0; i < 128; ++i) CHECK(result.arrays[3].bits[i] == (i / 4 * 4 + 3 - i % 4));  // bytes reversed
    const MemorySite& d = site(*result.memory, 3, AccessOp::Load);
    CHECK(d.access_bytes == 16);
    CHECK(d.sectors == 16);
    const MemorySite& c = site(*result.memory, 5, AccessOp::Load);
    CHECK(c.access_bytes == 4);
    CHECK(c.sectors == 4);  // 128 bytes
}

TEST_CASE("a dynamic shared buffer of chars carved into doubles and ints: each access one request of its width") {
    auto s = compiled(
        "__global__ void k(double* out, int n) {\n"
        "    extern __shared__ char buffer[];\n"
        "    double* d = reinterpret_cast<double*>(buffer);\n"
        "    int* c = reinterpret_cast<int*>(&d[n]);\n"
        "    int t = threadIdx.x;\n"
        "    d[t] = t * 0.5;\n"
        "    c[t] = 3 * t;\n"
        "    __syncthreads();\n"
        "    out[t] = d[(t + 1) % n] + c[t];\n"
        "}\n");
    SourceRunOptions run;
    run.isolated = false;
    run.dynamic_shared_bytes = 32 * 8 + 32 * 4;
    std::vector<SourceBinding> b{*parse_binding("out=double[32]").value, *parse_binding("n=32").value};
    const auto k = bind_kernel(s, s->kernels.at(0), b, run);
    REQUIRE_MESSAGE(k.value, k.error);
    ModelLaunch model_launch{&(*k.value)->spec, {}, {{1, 1, 1}, {32, 1, 1}}};
    model_launch.record_requests = true;
    const auto r = run_model(model_launch);
    REQUIRE_MESSAGE(r.value, r.error);
    CHECK(r.value->findings.empty());
    for (uint32_t t = 0; t < 32; ++t) {
        const uint64_t bits = r.value->arrays[0].bits[2 * t] | uint64_t(r.value->arrays[0].bits[2 * t + 1]) << 32;
        CHECK(std::bit_cast<double>(bits) == ((t + 1) % 32) * 0.5 + 3 * t);
    }
    // A double: 8 bytes a lane, two half-warps with no conflict; an int: 4 bytes, one wavefront.
    const MemorySite& doubles = site(*r.value->memory, 6, AccessOp::Store);
    CHECK(doubles.access_bytes == 8);
    CHECK(doubles.wavefronts == 2);
    CHECK(doubles.ideal_wavefronts == 2);
    const MemorySite& ints = site(*r.value->memory, 7, AccessOp::Store);
    CHECK(ints.access_bytes == 4);
    CHECK(ints.wavefronts == 1);
}

TEST_CASE("memset of a shared array is a store per element - one of more than 64 KiB is refused with the reason") {
    auto s = compiled(
        "__global__ void k(float* out, int bytes) {\n"
        "    __shared__ float s[256];\n"
        "    s[threadIdx.x] = 7;\n"
        "    __syncthreads();\n"
        "    if (threadIdx.x == 0) memset(s, 0, sizeof s);\n"
        "    __syncthreads();\n"
        "    out[threadIdx.x] = s[threadIdx.x];\n"
        "    if (bytes && threadIdx.x == 0) memset(out, 0, bytes);\n"
        "}\n");
    const ModelResult result = run(*bound(s, {"out=float[256]:ones", "bytes=0"}), {1, 1, 1}, {256, 1, 1});
    CHECK(result.findings.empty());
    for (uint32_t i = 0; i < 256; ++i) CHECK(value(result.arrays[0], i) == 0.0f);
    auto big = bound(s, {"out=float[256]", "bytes=100000"});
    const auto refused = run_model({&big->spec, {}, {{1, 1, 1}, {256, 1, 1}}});
    REQUIRE(!refused.value);
    INFO(refused.error);
    CHECK(refused.error.find("line 8: a memcpy or memset of 100000 bytes into an array") != std::string::npos);
}
