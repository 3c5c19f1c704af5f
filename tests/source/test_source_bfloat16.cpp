// __nv_bfloat16 in a learner's kernel (cuda_bf16.h): an array of bfloat16 is an array of 2-byte
// elements whose values convert and round as CUDA's do, each operation rounding once. The
// oracle here finds the nearest bfloat16 by searching the bit patterns, written apart from
// bfloat16_bits.hpp's bit arithmetic.
#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "kernels/model/bfloat16_bits.hpp"
#include "kernels/model/model_emulator.hpp"
#include "tests/source/source_test_helpers.hpp"

using namespace threadmap;
using namespace threadmap::test;

namespace {

uint16_t bf16_bits(const ArrayResult& a, size_t i) { return uint16_t(a.bits[i]); }

long double bf16_value(uint16_t b) {
    return b == 0x7f80 ? std::ldexp(1.0L, 128) : (long double)std::bit_cast<float>(uint32_t(b) << 16);
}

// The nearest bfloat16 to x by IEEE's rule (ties to the even pattern; from the largest finite
// one plus half its ulp up: infinity), found by a binary search over the positive patterns.
uint16_t nearest_bf16(long double x) {
    if (x != x) return 0x7fff;
    const uint16_t sign = std::signbit(x) ? 0x8000 : 0;
    const long double m = std::fabs(x);
    uint16_t lo = 0, hi = 0x7f80;  // bf16_value(lo) <= m < bf16_value(hi) once narrowed
    if (m >= bf16_value(0x7f80)) return sign | 0x7f80;
    while (hi - lo > 1) {
        const uint16_t mid = uint16_t((lo + hi) / 2);
        (bf16_value(mid) <= m ? lo : hi) = mid;
    }
    const long double middle = (bf16_value(lo) + bf16_value(hi)) / 2;  // exact: 9 significant bits
    const uint16_t r = m < middle ? lo : m > middle ? hi : (lo % 2 == 0 ? lo : hi);
    return sign | r;
}

// A random finite bfloat16 of either sign with an exponent in [-span, span].
uint16_t random_bf16(std::mt19937& g, int span) {
    const int exponent = int(g() % uint32_t(2 * span + 1)) - span;
    return uint16_t((g() & 0x8000) | uint32_t(127 + exponent) << 7 | (g() & 0x7f));
}

}  // namespace

TEST_CASE("bfloat16_bits converts as CUDA does: every bfloat16 to float and back, floats and doubles rounded once") {
    for (uint32_t b = 0; b < 65536; ++b) {
        const float f = __threadmap_bf16_to_float(uint16_t(b));
        if (f != f) {  // NaN comes back as the canonical one
            CHECK(__threadmap_bf16_from_float(f) == 0x7fff);
            continue;
        }
        REQUIRE(std::bit_cast<uint32_t>(f) == b << 16);
        REQUIRE(__threadmap_bf16_from_float(f) == b);
    }
    // Ties to even, the overflow edge (3.3961e38 rounds to infinity), subnormals.
    for (float f : {1.00390625f, 1.01171875f, 3.3895e38f, 3.3961e38f, 3.4028235e38f, 1e-40f, 9.2e-41f, -0.0f}) {
        CAPTURE(f);
        CHECK(__threadmap_bf16_from_float(f) == nearest_bf16(f));
    }
    std::mt19937 g(5);
    for (int i = 0; i < 1000000; ++i) {
        const float f = std::bit_cast<float>(uint32_t(g()));
        if (f != f) continue;
        if (__threadmap_bf16_from_float(f) != nearest_bf16(f)) FAIL("float bits " << std::bit_cast<uint32_t>(f));
    }
    std::mt19937_64 g64(13);
    for (int i = 0; i < 1000000; ++i) {
        const double d =
            std::ldexp(1.0 + double(g64() >> 11) / 9007199254740992.0, int(g64() % 300) - 150) * (g64() & 1 ? -1 : 1);
        if (__threadmap_bf16_from_double(d) != nearest_bf16(d)) FAIL("double " << d);
    }
    // Just above the midpoint between 1 and 1 + 2^-7 by less than a float tells: up, not down.
    const double above_midpoint = 1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -40);
    CHECK(__threadmap_bf16_from_double(above_midpoint) == 0x3f81);
    CHECK(__threadmap_bf16_from_float(float(above_midpoint)) == 0x3f80);  // rounded twice: down to 1
}

TEST_CASE("a kernel of __nv_bfloat16: values round to bfloat16 after every operation, as on a GPU") {
    auto s = compiled(
        "#include <cuda_bf16.h>\n"
        "__global__ void axpy(__nv_bfloat16* y, const __nv_bfloat16* x, __nv_bfloat16 a, int n) {\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i < n) y[i] = a * x[i] + y[i];\n"
        "}\n"
        "__global__ void from_int(nv_bfloat16* out, float* back) {\n"
        "    int i = threadIdx.x;\n"
        "    __nv_bfloat16 b = __int2bfloat16_rn(257 + 2 * i);\n"
        "    out[i] = b;\n"
        "    back[i] = __bfloat162float(b) + __low2float(__floats2bfloat162_rn(0.1f, 2.0f));\n"
        "}\n");
    REQUIRE(s->kernels.size() == 2);
    CHECK(s->kernels[0].params[0].element == ValueType::BFloat16);
    auto k = bound(s, {"y=bfloat16[300]:index", "x=bfloat16[300]:random:3", "a=0.3", "n=300"});
    const ModelResult result = run(*k, {3, 1, 1}, {128, 1, 1});
    CHECK(result.findings.empty());
    // x as bound (read only, so as the launch left it), y[i] = i; then a * x[i] rounded, then
    // the sum rounded (index values past 256 are bound rounded: 257 is bfloat16 256).
    const uint16_t a = nearest_bf16(0.3L);
    for (uint32_t i = 0; i < 300; ++i) {
        const uint16_t x = bf16_bits(result.arrays[1], i), y = nearest_bf16((long double)i);
        const uint16_t product = nearest_bf16(bf16_value(a) * bf16_value(x));
        CHECK(bf16_bits(result.arrays[0], i) == nearest_bf16(bf16_value(product) + bf16_value(y)));
    }
    // An int rounds once: 257 + 2i lies on a midpoint or beside one, between multiples of 2.
    auto t = bound(s, {"out=bfloat16[8]", "back=float[8]"}, 1);
    const ModelResult rounded = run(*t, {1, 1, 1}, {8, 1, 1});
    for (uint32_t i = 0; i < 8; ++i) {
        const uint16_t want = nearest_bf16(257.0L + 2 * i);
        CHECK(bf16_bits(rounded.arrays[0], i) == want);
        CHECK(std::bit_cast<float>(rounded.arrays[1].bits[i]) ==
              float(bf16_value(want)) + float(bf16_value(nearest_bf16(0.1f))));
    }
}

TEST_CASE("__hfma on __nv_bfloat16 rounds once: a * b + c to the nearest bfloat16, on random values") {
    auto s = compiled(
        "#include <cuda_bf16.h>\n"
        "__global__ void fma3(const unsigned short* a, const unsigned short* b, const unsigned short* c,\n"
        "                     unsigned short* out) {\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    out[i] = __bfloat16_as_ushort(__hfma(__ushort_as_bfloat16(a[i]), __ushort_as_bfloat16(b[i]), "
        "__ushort_as_bfloat16(c[i])));\n"
        "}\n");
    // First 14 * 37 = 518, the midpoint between 516 and 520, minus 2^-100: 516 (a double sum
    // rounds to 518, whose tie would go to 520). Then values whose exact result a long double holds.
    std::vector<uint16_t> a = {nearest_bf16(14)}, b = {nearest_bf16(37)}, c = {uint16_t(0x8000 | (127 - 100) << 7)};
    std::mt19937 g(9);
    while (a.size() < 1024) {
        a.push_back(random_bf16(g, 10));
        b.push_back(random_bf16(g, 10));
        c.push_back(random_bf16(g, 10));
    }
    auto k = bound(s, {ushorts("a", a), ushorts("b", b), ushorts("c", c), "out=ushort[1024]"});
    const ModelResult result = run(*k, {4, 1, 1}, {256, 1, 1});
    CHECK(bf16_bits(result.arrays[3], 0) == nearest_bf16(516));
    for (size_t i = 1; i < a.size(); ++i) {  // the first is past a long double's 64 bits
        const long double exact = bf16_value(a[i]) * bf16_value(b[i]) + bf16_value(c[i]);
        if (bf16_bits(result.arrays[3], i) != nearest_bf16(exact))
            FAIL("__hfma of " << a[i] << ", " << b[i] << ", " << c[i]);
    }
}

TEST_CASE("atomicAdd on __nv_bfloat16 and __nv_bfloat162 rounds each sum: 1000 ones add up to 256, halves to 128") {
    auto s = compiled(
        "#include <cuda_bf16.h>\n"
        "__global__ void count(__nv_bfloat16* total, __nv_bfloat16* pair, int n) {\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i < n) {\n"
        "        atomicAdd(total, __float2bfloat16(1.0f));\n"
        "        atomicAdd(reinterpret_cast<__nv_bfloat162*>(pair), __floats2bfloat162_rn(1.0f, 0.5f));\n"
        "    }\n"
        "}\n");
    auto k = bound(s, {"total=bfloat16[1]", "pair=bfloat16[2]", "n=1000"});
    const ModelResult result = run(*k, {4, 1, 1}, {256, 1, 1});
    // One sum after another, each rounded: every integer up to 256 is a bfloat16, and 256 + 1
    // lies halfway to 258 and rounds to even, so the ones stop at 256; the halves at 128.
    long double ones = 0, halves = 0;
    for (int i = 0; i < 1000; ++i) {
        ones = bf16_value(nearest_bf16(ones + 1));
        halves = bf16_value(nearest_bf16(halves + 0.5L));
    }
    CHECK(ones == 256);
    CHECK(halves == 128);
    CHECK(__threadmap_bf16_to_float(bf16_bits(result.arrays[0], 0)) == 256.0f);
    CHECK(__threadmap_bf16_to_float(bf16_bits(result.arrays[1], 0)) == 256.0f);
    CHECK(__threadmap_bf16_to_float(bf16_bits(result.arrays[1], 1)) == 128.0f);
    CHECK(result.findings.empty());
}

TEST_CASE("a bfloat16 binding: out of range, bound as half, and b + 1.0f are refused with the reasons") {
    auto s = compiled(
        "#include <cuda_bf16.h>\n"
        "__global__ void k(__nv_bfloat16* a, __nv_bfloat16 h) { a[threadIdx.x] = h; }\n");
    const auto k =
        bind_kernel(s, s->kernels.at(0), {*parse_binding("a=bfloat16[4]").value, *parse_binding("h=4e38").value});
    REQUIRE_FALSE(k.value);
    CHECK(k.error.find("3.39e38") != std::string::npos);
    // A half has two bytes too, but other bits: a wrong picture if it were taken.
    const auto as_half =
        bind_kernel(s, s->kernels.at(0), {*parse_binding("a=half[4]").value, *parse_binding("h=1").value});
    REQUIRE_FALSE(as_half.value);
    CHECK(as_half.error.find("not an array of half") != std::string::npos);
    CHECK(parse_binding("a=__nv_bfloat16[4]").value->type == ValueType::BFloat16);
    const SourceCompile c = compile_source(
        "#include <cuda_bf16.h>\n"
        "__global__ void k(__nv_bfloat16* a) { a[0] = a[0] + 1.0f; }\n",
        "kernel.cu");
    CHECK_FALSE(c.source);
    CHECK(c.text.find("kernel.cu:2:") != std::string::npos);
    CHECK(c.text.find("ambiguous") != std::string::npos);
}

TEST_CASE("__hmax and __hmin as CUDA's, for __half and __nv_bfloat16: NaN gives the other, +0 is above -0") {
    auto s = compiled(
        "#include <cuda_fp16.h>\n"
        "#include <cuda_bf16.h>\n"
        "__global__ void extremes(const unsigned short* a, const unsigned short* b, unsigned short* out) {\n"
        "    int i = threadIdx.x;\n"
        "    out[4 * i] = __half_as_ushort(__hmax(__ushort_as_half(a[i]), __ushort_as_half(b[i])));\n"
        "    out[4 * i + 1] = __half_as_ushort(__hmin(__ushort_as_half(a[i]), __ushort_as_half(b[i])));\n"
        "    out[4 * i + 2] = __bfloat16_as_ushort(__hmax(__ushort_as_bfloat16(a[i]), __ushort_as_bfloat16(b[i])));\n"
        "    out[4 * i + 3] = __bfloat16_as_ushort(__hmin(__ushort_as_bfloat16(a[i]), __ushort_as_bfloat16(b[i])));\n"
        "}\n");
    // +0 and -0 either way; a NaN (0x7fc1 is one in both types) beside 0x3c00 (1 as a half,
    // 2^-7 as a bfloat16); two NaNs; an ordinary pair (2 and -2 in both).
    const std::vector<uint16_t> a = {0x0000, 0x8000, 0x7fc1, 0x7fc1, 0x4000};
    const std::vector<uint16_t> b = {0x8000, 0x0000, 0x3c00, 0xffc1, 0xc000};
    auto k = bound(s, {ushorts("a", a), ushorts("b", b), "out=ushort[20]"});
    const ModelResult result = run(*k, {1, 1, 1}, {5, 1, 1});
    const auto out = [&](size_t i) { return bf16_bits(result.arrays[2], i); };
    for (size_t t : {0, 2}) {  // __half's, then __nv_bfloat16's
        CAPTURE(t);
        CHECK(out(0 + t) == 0x0000);  // max(+0, -0) = +0
        CHECK(out(1 + t) == 0x8000);  // min(+0, -0) = -0
        CHECK(out(4 + t) == 0x0000);
        CHECK(out(5 + t) == 0x8000);
        CHECK(out(8 + t) == 0x3c00);  // the NaN gives way to the other value
        CHECK(out(9 + t) == 0x3c00);
        CHECK(out(12 + t) == 0x7fff);  // both NaN: the canonical NaN
        CHECK(out(13 + t) == 0x7fff);
        CHECK(out(16 + t) == 0x4000);
        CHECK(out(17 + t) == 0xc000);
    }
}
