// A learner's __constant__ arrays are arrays of the launch: every read recorded (who read each
// weight, out of bounds named), and counted by the memory view as the constant cache serves
// them: one address at a time, so a warp reading one weight costs 1 and a warp reading 32
// different ones costs 32 (Programming Guide, "Constant Memory").
#include <doctest/doctest.h>

#include <bit>
#include <cstdint>

#include "kernels/model/model_emulator.hpp"
#include "tests/source/source_test_helpers.hpp"

using namespace threadmap;
using namespace threadmap::test;

namespace {

const MemorySite& site(const MemoryView& v, int line, const KernelSpec& spec, const char* array) {
    for (const MemorySite& s : v.sites)
        if (s.line == line && spec.arrays[s.array].name == array) return s;
    FAIL("no site at line " << line);
    return v.sites.front();
}

}  // namespace

TEST_CASE("a __constant__ array is an array of the launch: its readers per element, an index past its end named") {
    auto s = compiled(
        "__constant__ float w[4] = {1.0f, 2.0f, 3.0f, 4.0f};\n"
        "__global__ void scale(const float* in, float* out, int n) {\n"
        "    int i = threadIdx.x;\n"
        "    if (i < n) out[i] = w[i % 4] * in[i];\n"
        "    if (i == n - 1) out[0] += w[n % 5];\n"
        "}\n");
    REQUIRE(s->kernels.at(0).variables == std::vector<size_t>{0});
    auto k = bound(s, {"in=float[8]:ones", "out=float[8]", "n=8"});
    const size_t w = k->spec.array_index("w");
    REQUIRE(w < k->spec.arrays.size());
    CHECK(k->spec.arrays[w].space == MemorySpace::Constant);
    CHECK(k->spec.arrays[w].role == ArrayRole::Input);
    const ModelResult result = run(*k, {1, 1, 1}, {8, 1, 1});
    // out[i] = w[i % 4]; thread 7 then adds w[8 % 5] = w[3].
    for (uint32_t i = 1; i < 8; ++i) CHECK(std::bit_cast<float>(result.arrays[1].bits[i]) == float(i % 4 + 1));
    CHECK(std::bit_cast<float>(result.arrays[1].bits[0]) == 1.0f + 4.0f);
    // w[0] is read by threads 0 and 4; w[3] by 3, 7 and 7 again (counted once).
    CHECK(result.arrays[w].records[0].readers == 2);
    CHECK(result.arrays[w].records[0].first_reader == 0);
    CHECK(result.arrays[w].records[3].readers == 2);
    CHECK(result.arrays[w].records[3].writers == 0);
    // Thread 7 races with thread 0 on out[0] (a real bug of this kernel), nothing on w.
    for (const Finding& f : result.findings) CHECK(f.array != "w");

    // n = 9 on 8 elements: thread 8 is past in and out, and reads w[9 % 5] = w[4], past w.
    auto past = bound(s, {"in=float[8]:ones", "out=float[8]", "n=9"});
    const ModelResult past_result = run(*past, {1, 1, 1}, {9, 1, 1});
    bool named = false;
    for (const Finding& f : past_result.findings)
        named = named || (f.array == "w" &&
                          f.message.find("reads w[4] at line 5, past the end of w (4 elements)") != std::string::npos);
    CHECK(named);
}

TEST_CASE("the memory view counts a __constant__ read by its distinct addresses: a broadcast costs 1") {
    auto s = compiled(
        "__constant__ float w[32];\n"
        "__global__ void k(float* out) {\n"
        "    int t = threadIdx.x;\n"
        "    float a = w[0];\n"
        "    float b = w[t % 4];\n"
        "    float c = w[t % 32];\n"
        "    out[t] = a + b + c;\n"
        "}\n");
    auto k = bound(s, {"out=float[64]", "w=float[32]:index"});
    ModelLaunch model_launch{&k->spec, {}, {{1, 1, 1}, {64, 1, 1}}};
    model_launch.record_requests = true;
    const auto r = run_model(model_launch);
    REQUIRE_MESSAGE(r.value, r.error);
    const MemoryView& v = *r.value->memory;
    // Two warps: one address per request, then 4, then 32.
    const MemorySite& broadcast = site(v, 4, k->spec, "w");
    CHECK(broadcast.space == MemorySpace::Constant);
    CHECK(broadcast.requests == 2);
    CHECK(broadcast.constant_addresses == 2);
    CHECK(broadcast.sectors == 0);
    CHECK(site(v, 5, k->spec, "w").constant_addresses == 8);
    CHECK(site(v, 5, k->spec, "w").constant_addresses_max == 4);
    CHECK(site(v, 6, k->spec, "w").constant_addresses == 64);
    const MemoryTotals t = memory_totals(v.sites, MemorySpace::Constant, AccessOp::Load);
    CHECK(t.requests == 6);
    CHECK(t.constant_addresses == 74);
    CHECK(t.constant_addresses_max == 32);
    // Values: the bound index fill, w[t] = t.
    for (uint32_t t = 0; t < 64; ++t)
        CHECK(std::bit_cast<float>(r.value->arrays[0].bits[t]) == float(0 + t % 4 + t % 32));
}

TEST_CASE("a kernel's arrays include only the __constant__ variables it reads, through its helpers too") {
    auto s = compiled(
        "__constant__ int a[2] = {10, 20};\n"
        "__constant__ int b[2] = {30, 40};\n"
        "__device__ int from_b(int i) { return b[i]; }\n"
        "__global__ void uses_a(int* out) { out[threadIdx.x] = a[threadIdx.x % 2]; }\n"
        "__global__ void uses_b(int* out) { out[threadIdx.x] = from_b(threadIdx.x % 2); }\n");
    REQUIRE(s->kernels.size() == 2);
    CHECK(s->kernels[0].variables == std::vector<size_t>{0});
    CHECK(s->kernels[1].variables == std::vector<size_t>{1});
    auto k = bound(s, {"out=int[4]"}, 1);
    CHECK(k->spec.array_index("a") == k->spec.arrays.size());
    const ModelResult result = run(*k, {1, 1, 1}, {4, 1, 1});
    CHECK(result.arrays[0].bits == std::vector<uint32_t>{30, 40, 30, 40});
}

TEST_CASE("a __device__ counter is an array of the launch: count++ races, atomicAdd counts, values start declared") {
    // 64 threads in 2 blocks: `racy` is bumped by plain ++, `counted` by atomicAdd, `table`
    // starts with its declaration's values and each thread reads table[i % 4]; `ptr` is a pointer
    // (plain memory, not an array); `limit` is const (plain too).
    auto s = compiled(
        "__device__ unsigned int racy;\n"
        "__device__ unsigned int counted = 5;\n"
        "__device__ float table[4] = {1, 2, 3, 4};\n"
        "__device__ float* ptr;\n"
        "const int limit = 64;\n"
        "__global__ void count(float* out) {\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i < limit) {\n"
        "        racy++;\n"
        "        atomicAdd(&counted, 1u);\n"
        "        out[i] = table[i % 4];\n"
        "    }\n"
        "}\n");
    const SourceKernel& kernel = s->kernels.at(0);
    REQUIRE(kernel.variables.size() == 3);
    auto k = bound(s, {"out=float[64]"});
    const size_t racy = k->spec.array_index("racy"), counted = k->spec.array_index("counted"),
                 table = k->spec.array_index("table");
    REQUIRE(racy < k->spec.arrays.size());
    REQUIRE(counted < k->spec.arrays.size());
    REQUIRE(table < k->spec.arrays.size());
    CHECK(k->spec.array_index("ptr") == k->spec.arrays.size());
    CHECK(k->spec.arrays[racy].space == MemorySpace::Global);
    CHECK(k->spec.arrays[racy].role == ArrayRole::InOut);
    const ModelResult result = run(*k, {2, 1, 1}, {32, 1, 1});
    // The model runs one thread after another, so the plain ++ happens to reach 64; the atomics
    // start from the declared 5.
    CHECK(result.arrays[racy].bits[0] == 64);
    CHECK(result.arrays[counted].bits[0] == 5 + 64);
    CHECK(result.arrays[racy].records[0].writers == 64);
    CHECK(result.arrays[counted].records[0].writers == 64);
    for (uint32_t i = 0; i < 64; ++i) CHECK(std::bit_cast<float>(result.arrays[0].bits[i]) == float(i % 4 + 1));
    CHECK(result.arrays[table].records[2].readers == 16);
    // The race on racy[0] is found (threads of one block, then of two), none on counted or table.
    CHECK(result.counts[size_t(FindingKind::WriteWriteRace)] == 1);
    bool race_on_racy = false;
    for (const Finding& f : result.findings) {
        CHECK(f.array != "counted");
        CHECK(f.array != "table");
        race_on_racy = race_on_racy || (f.kind == FindingKind::WriteWriteRace && f.array == "racy" &&
                                        f.message.find("both write racy[0] at line 9") != std::string::npos);
    }
    CHECK(race_on_racy);

    // Bound as the host's cudaMemcpyToSymbol would fill it.
    auto from_host = bound(s, {"out=float[64]", "counted=uint[1]:100", "table=float[4]:index"});
    const ModelResult host_result = run(*from_host, {2, 1, 1}, {32, 1, 1});
    CHECK(host_result.arrays[from_host->spec.array_index("counted")].bits[0] == 164);
    CHECK(std::bit_cast<float>(host_result.arrays[0].bits[7]) == 3.0f);  // table[7 % 4] = 3 (index fill)
    std::vector<SourceBinding> wrong{*parse_binding("out=float[64]").value, *parse_binding("counted=float[2]").value};
    const auto refused = bind_kernel(s, kernel, wrong);
    REQUIRE_FALSE(refused.value);
    CHECK(refused.error.find("'counted' is __device__ uint of 1 element") != std::string::npos);
}

TEST_CASE(
    "variables only host code uses take no slot: a program's seventeen globals compile, its kernel's one is "
    "an array") {
    std::string text;
    for (int v = 0; v < 17; ++v) text += "int setting" + std::to_string(v) + " = " + std::to_string(v) + ";\n";
    text += "int total() { return setting0";
    for (int v = 1; v < 17; ++v) text += " + setting" + std::to_string(v);
    text += "; }\n__global__ void fill(int* out) { out[threadIdx.x] = setting3; }\n";
    auto s = compiled(text);
    REQUIRE(s->kernels.at(0).variables.size() == 1);
    CHECK(s->variables.at(s->kernels[0].variables[0]).name == "setting3");
    auto k = bound(s, {"out=int[4]"});
    const ModelResult result = run(*k, {1, 1, 1}, {4, 1, 1});
    CHECK(result.arrays[0].bits == std::vector<uint32_t>{3, 3, 3, 3});
    CHECK(result.arrays[k->spec.array_index("setting3")].records[0].readers == 4);
}
