// __half in a learner's kernel (cuda_fp16.h): an array of halves is an array of 2-byte
// elements whose values convert and round as CUDA's do, each operation rounding to half; a
// __half2 access is one vector access of two elements.
#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "kernels/model/half_bits.hpp"
#include "kernels/model/memory_view.hpp"
#include "kernels/model/model_emulator.hpp"
#include "tests/source/source_test_helpers.hpp"

using namespace threadmap;
using namespace threadmap::test;

namespace {

uint16_t half_bits(const ArrayResult& a, size_t i) { return uint16_t(a.bits[i]); }

// GCC's own _Float16 (libgcc's conversions): an oracle written apart from half_bits.hpp.
uint16_t gcc_half(float f) {
    const _Float16 h = static_cast<_Float16>(f);
    uint16_t b;
    std::memcpy(&b, &h, 2);
    return b;
}

}  // namespace

TEST_CASE("half_bits converts as IEEE binary16: every half to float and back, and floats against GCC's _Float16") {
    for (uint32_t h = 0; h < 65536; ++h) {
        _Float16 x;
        const uint16_t b = uint16_t(h);
        std::memcpy(&x, &b, 2);
        const float want = static_cast<float>(x), got = __threadmap_half_to_float(b);
        if (want != want) {  // NaN stays NaN, and comes back as the GPU's canonical one
            CHECK(got != got);
            CHECK(__threadmap_half_from_float(got) == 0x7fff);
            continue;
        }
        REQUIRE(std::bit_cast<uint32_t>(got) == std::bit_cast<uint32_t>(want));
        REQUIRE(__threadmap_half_from_float(got) == b);
    }
    // Midpoints and their neighbours (ties to even), subnormals, the overflow edge, randoms.
    for (float f : {65504.0f, 65519.99f, 65520.0f, 1e-8f, 2.98e-8f, 2.9802322e-8f, 6.1e-5f, 1.0009765625f,
                    1.00048828125f, 1.00146484375f, -0.0f, 3.0e38f}) {
        CAPTURE(f);
        CHECK(__threadmap_half_from_float(f) == gcc_half(f));
        CHECK(__threadmap_half_from_float(-f) == gcc_half(-f));
    }
    std::mt19937 g(7);
    for (int i = 0; i < 1000000; ++i) {
        const float f = std::bit_cast<float>(uint32_t(g()));
        if (f != f) continue;
        if (__threadmap_half_from_float(f) != gcc_half(f)) FAIL("float bits " << std::bit_cast<uint32_t>(f));
    }
    // Doubles round once, as GCC's double to _Float16 (and CUDA's __double2half): 1 + 2^-11 +
    // 2^-40 is above the midpoint 1 + 2^-11 by less than a float can tell.
    std::mt19937_64 g64(11);
    for (int i = 0; i < 1000000; ++i) {
        // Near the halves' range (exponents -30 to 16) and exactly on or beside midpoints.
        const double d =
            std::ldexp(1.0 + double(g64() >> 11) / 9007199254740992.0, int(g64() % 47) - 30) * (g64() & 1 ? -1 : 1);
        for (double v : {d, std::nextafter(std::ldexp(std::round(std::ldexp(d, 11)) + 0.5, -11), 2.0)}) {
            const _Float16 h = static_cast<_Float16>(v);
            uint16_t want;
            std::memcpy(&want, &h, 2);
            if (__threadmap_half_from_double(v) != want) FAIL("double " << v);
        }
    }
    const double above_midpoint = 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40);
    CHECK(__threadmap_half_from_double(above_midpoint) == 0x3c01);
    CHECK(__threadmap_half_from_float(float(above_midpoint)) == 0x3c00);  // rounded twice: down to 1
}

TEST_CASE("a kernel of __half: values round to half after every operation, as on a GPU") {
    auto s = compiled(
        "#include <cuda_fp16.h>\n"
        "__global__ void axpy(__half* y, const __half* x, __half a, int n) {\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i < n) y[i] = a * x[i] + y[i];\n"
        "}\n"
        "__global__ void tenth(half* out, float* back, int n) {\n"
        "    int i = threadIdx.x;\n"
        "    if (i < n) {\n"
        "        __half h = __float2half(0.1f) + __hmul(__int2half_rn(i), __float2half(0.001f));\n"
        "        out[i] = h;\n"
        "        back[i] = __half2float(h);\n"
        "    }\n"
        "}\n");
    REQUIRE(s->kernels.size() == 2);
    CHECK(s->kernels[0].params[0].element == ValueType::Float16);
    auto k = bound(s, {"y=half[40]:index", "x=half[40]:ones", "a=0.5", "n=40"});
    const ModelResult result = run(*k, {2, 1, 1}, {32, 1, 1});
    // y[i] = 0.5 * 1 + i: exact in half up to 40.
    for (uint32_t i = 0; i < 40; ++i) CHECK(half_bits(result.arrays[0], i) == gcc_half(0.5f + float(i)));
    CHECK(result.findings.empty());

    // Each operation rounds to half: 0.1 is 0x2e66 (0.0999755859375); i * 0.001 rounds to half,
    // then the sum does.
    auto t = bound(s, {"out=half[8]", "back=float[8]", "n=8"}, 1);
    const ModelResult rounded = run(*t, {1, 1, 1}, {8, 1, 1});
    for (uint32_t i = 0; i < 8; ++i) {
        const float tenth = __threadmap_half_to_float(gcc_half(0.1f));
        const float step = __threadmap_half_to_float(gcc_half(float(i) * __threadmap_half_to_float(gcc_half(0.001f))));
        const uint16_t want = gcc_half(tenth + step);
        CHECK(half_bits(rounded.arrays[0], i) == want);
        CHECK(std::bit_cast<float>(rounded.arrays[1].bits[i]) == __threadmap_half_to_float(want));
    }
    CHECK(half_bits(rounded.arrays[0], 0) == 0x2e66);
}

TEST_CASE("__hfma rounds once: a * b + c to the nearest half, checked against GCC on random halves") {
    auto s = compiled(
        "#include <cuda_fp16.h>\n"
        "__global__ void fma3(const unsigned short* a, const unsigned short* b, const unsigned short* c,\n"
        "                     unsigned short* out) {\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    out[i] = __half_as_ushort(__hfma(__ushort_as_half(a[i]), __ushort_as_half(b[i]), "
        "__ushort_as_half(c[i])));\n"
        "}\n");
    // First a product on a midpoint plus the smallest half (float's fma loses it); then normal
    // halves of either sign, whose exact a * b + c fits a long double.
    std::vector<uint16_t> a = {0x3c02}, b = {0x3d00}, c = {0x0001};
    std::mt19937 g(3);
    const auto normal = [&] { return uint16_t((g() & 0x8000) | (0x0400 + g() % (0x7800 - 0x0400))); };
    while (a.size() < 1024) {
        a.push_back(normal());
        b.push_back(normal());
        c.push_back(g() % 2 ? normal() : uint16_t(g() % 0x0400));  // subnormal c too
    }
    auto k = bound(s, {ushorts("a", a), ushorts("b", b), ushorts("c", c), "out=ushort[1024]"});
    const ModelResult result = run(*k, {4, 1, 1}, {256, 1, 1});
    CHECK(half_bits(result.arrays[3], 0) == 0x3d03);
    const auto as_long_double = [](uint16_t h) { return (long double)__threadmap_half_to_float(h); };
    for (size_t i = 0; i < a.size(); ++i) {
        const long double exact = as_long_double(a[i]) * as_long_double(b[i]) + as_long_double(c[i]);
        const _Float16 want = static_cast<_Float16>(exact);
        uint16_t bits;
        std::memcpy(&bits, &want, 2);
        if ((bits & 0x7fff) > 0x7c00) bits = 0x7fff;  // NaN never comes from finite halves
        if (half_bits(result.arrays[3], i) != bits) FAIL("__hfma of " << a[i] << ", " << b[i] << ", " << c[i]);
    }
}

TEST_CASE("__half arrays are 2-byte elements: a warp's loads fill 2 sectors, a __half2 load is one vector access") {
    auto s = compiled(
        "#include <cuda_fp16.h>\n"
        "__global__ void pairs(const __half* in, __half* out, __half* sums) {\n"
        "    int i = threadIdx.x;\n"
        "    out[i] = in[i];\n"
        "    __half2 v = reinterpret_cast<const __half2*>(in)[i];\n"
        "    sums[i] = __hadd(__low2half(v), __high2half(v));\n"
        "}\n");
    auto k = bound(s, {"in=half[64]:index", "out=half[32]", "sums=half[32]"});
    ModelLaunch model_launch{&k->spec, {}, {{1, 1, 1}, {32, 1, 1}}};
    model_launch.record_requests = true;
    const auto r = run_model(model_launch);
    REQUIRE_MESSAGE(r.value, r.error);
    for (uint32_t i = 0; i < 32; ++i) {
        CHECK(half_bits(r.value->arrays[1], i) == gcc_half(float(i)));
        CHECK(half_bits(r.value->arrays[2], i) == gcc_half(float(4 * i + 1)));  // in[2i] + in[2i + 1]
    }
    CHECK(r.value->findings.empty());
    // Line 4 loads in[i]: 32 lanes of 2 bytes, 64 bytes in 2 sectors; line 5 loads a __half2:
    // 32 lanes of 4 bytes, 128 bytes in 4 sectors.
    const MemorySite& plain = site(*r.value->memory, 4, AccessOp::Load);
    CHECK(k->spec.arrays[plain.array].name == "in");
    CHECK(plain.access_bytes == 2);
    CHECK(plain.sectors == 2);
    const MemorySite& vector = site(*r.value->memory, 5, AccessOp::Load);
    CHECK(k->spec.arrays[vector.array].name == "in");
    CHECK(vector.access_bytes == 4);
    CHECK(vector.sectors == 4);
}

TEST_CASE("a __constant__ table of __half holds its initializer, rounded to half as nvcc rounds it") {
    auto s = compiled(
        "#include <cuda_fp16.h>\n"
        "__constant__ __half w[3] = {0.1, 1.5f, 65519};\n"
        "__global__ void k(float* out) { out[threadIdx.x] = __half2float(w[threadIdx.x]); }\n");
    auto k = bound(s, {"out=float[3]"});
    const ModelResult result = run(*k, {1, 1, 1}, {3, 1, 1});
    const ArrayResult& out = result.arrays[k->spec.array_index("out")];
    CHECK(std::bit_cast<float>(out.bits[0]) == 0.0999755859375f);  // 0x2e66
    CHECK(std::bit_cast<float>(out.bits[1]) == 1.5f);
    CHECK(std::bit_cast<float>(out.bits[2]) == 65504.0f);  // below 65520: the largest half
}

TEST_CASE("atomicAdd on a __half rounds each sum to half: 3000 ones add up to 2048") {
    auto s = compiled(
        "#include <cuda_fp16.h>\n"
        "__global__ void count(__half* total, int n) {\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i < n) atomicAdd(total, __float2half(1.0f));\n"
        "}\n");
    for (const auto& [n, want] : {std::pair{1000, 1000.0f}, {3000, 2048.0f}}) {
        CAPTURE(n);
        auto k = bound(s, {"total=half[1]", "n=" + std::to_string(n)});
        const ModelResult result = run(*k, {uint32_t(n + 255) / 256, 1, 1}, {256, 1, 1});
        // Every integer up to 2048 is a half; 2048 + 1 lies halfway to 2050 and rounds to even.
        CHECK(__threadmap_half_to_float(half_bits(result.arrays[0], 0)) == want);
        CHECK(result.findings.empty());  // atomics do not race
    }
}

TEST_CASE("atomicAdd on a __half2 adds to each half atomically, and returns the pair it found") {
    auto s = compiled(
        "#include <cuda_fp16.h>\n"
        "__global__ void count(__half* pair, __half* seen) {\n"
        "    __half2 old = atomicAdd(reinterpret_cast<__half2*>(pair), __floats2half2_rn(1.0f, 0.5f));\n"
        "    if (threadIdx.x == 0) { seen[0] = old.x; seen[1] = old.y; }\n"
        "}\n");
    auto k = bound(s, {"pair=half[2]:ones", "seen=half[2]"});
    const ModelResult result = run(*k, {1, 1, 1}, {64, 1, 1});
    CHECK(__threadmap_half_to_float(half_bits(result.arrays[0], 0)) == 65.0f);
    CHECK(__threadmap_half_to_float(half_bits(result.arrays[0], 1)) == 33.0f);
    CHECK(__threadmap_half_to_float(half_bits(result.arrays[1], 0)) == 1.0f);  // thread 0 ran first
    CHECK(__threadmap_half_to_float(half_bits(result.arrays[1], 1)) == 1.0f);
    CHECK(result.findings.empty());
    // A pair that is not 4-byte aligned: CUDA's misaligned address, at the learner's line.
    auto odd = compiled(
        "#include <cuda_fp16.h>\n"
        "__global__ void count(__half* pair) {\n"
        "    atomicAdd(reinterpret_cast<__half2*>(pair + 1), __floats2half2_rn(1.0f, 0.5f));\n"
        "}\n");
    auto ko = bound(odd, {"pair=half[4]"});
    const auto stopped = run_model({&ko->spec, {}, {{1, 1, 1}, {32, 1, 1}}});
    CHECK_FALSE(stopped.value);
    CHECK(stopped.error.find("line 3: a 4-byte access at byte offset 2") != std::string::npos);
    CHECK(stopped.error.find("misaligned address") != std::string::npos);
}

TEST_CASE("a half binding out of a half's range, and h + 1.0f, are refused with CUDA's reasons") {
    auto s = compiled(
        "#include <cuda_fp16.h>\n"
        "__global__ void k(__half* a, __half h) { a[threadIdx.x] = h; }\n");
    const auto big = parse_binding("h=70000");
    REQUIRE(big.value);
    const auto k = bind_kernel(s, s->kernels.at(0), {*parse_binding("a=half[4]").value, *big.value});
    REQUIRE_FALSE(k.value);
    CHECK(k.error.find("65504") != std::string::npos);
    // As nvcc: __half converts to float and float to __half, so the operator is ambiguous.
    const SourceCompile c = compile_source(
        "#include <cuda_fp16.h>\n"
        "__global__ void k(__half* a) { a[0] = a[0] + 1.0f; }\n",
        "kernel.cu");
    CHECK_FALSE(c.source);
    CHECK(c.text.find("kernel.cu:2:") != std::string::npos);
    CHECK(c.text.find("ambiguous") != std::string::npos);
}
