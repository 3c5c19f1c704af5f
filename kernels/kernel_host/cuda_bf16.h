// cuda_bf16.h as a learner's kernel sees it when threadmap compiles it on the CPU:
// __nv_bfloat16 and __nv_bfloat162 with the functions and operators a course uses, beside
// cuda_fp16.h's __half. As in CUDA, __nv_bfloat16 is a class of two bytes (an array of them is
// threadmap's element type `bfloat16`) and every operation rounds its result once to
// bfloat16, to nearest even: + - * / computed in double, which holds a product of two
// bfloat16s exactly and, with 53 ≥ 2 × 8 + 2 bits, gives the correctly rounded bfloat16 of a
// sum, difference or quotient (hsqrt and the rest: two_byte_float.h; CUDA's __hdiv and hsqrt go
// through approximate float instructions NVIDIA's header calls good enough for that). `b + 1.0f` is ambiguous, as nvcc
// says, because __nv_bfloat16 converts to float and float to __nv_bfloat16.
#pragma once
#include "/threadmap/kernels/model/bfloat16_bits.hpp"
#include "/threadmap/two_byte_float.h"

// A 64-bit integer to bfloat16 in one rounding (a double could round it first): the top eight
// significant bits kept, the rest to nearest even.
constexpr unsigned short __threadmap_bf16_from_integer(unsigned long long magnitude, bool negative) {
    if (magnitude < (1ull << 24)) return __threadmap_bf16_from_float(negative ? -float(magnitude) : float(magnitude));
    int shift = 0;
    while ((magnitude >> shift) >= (1ull << 24)) ++shift;
    // Down to 24 bits rounded to odd, which a float holds exactly; then to nearest even.
    unsigned long long kept = magnitude >> shift;
    if (magnitude & ((1ull << shift) - 1)) kept |= 1;
    float f = float(kept);
    for (int i = 0; i < shift; ++i) f *= 2.0f;
    return __threadmap_bf16_from_float(negative ? -f : f);
}

struct __nv_bfloat16 {
    unsigned short __x;
    __nv_bfloat16() = default;
    constexpr __nv_bfloat16(float f) : __x(__threadmap_bf16_from_float(f)) {}
    constexpr __nv_bfloat16(double d) : __x(__threadmap_bf16_from_double(d)) {}
    constexpr __nv_bfloat16(int i) : __x(__threadmap_bf16_from_double(double(i))) {}
    constexpr __nv_bfloat16(unsigned int i) : __x(__threadmap_bf16_from_double(double(i))) {}
    constexpr __nv_bfloat16(short i) : __x(__threadmap_bf16_from_float(float(i))) {}
    constexpr __nv_bfloat16(unsigned short i) : __x(__threadmap_bf16_from_float(float(i))) {}
    constexpr __nv_bfloat16(long long i)
        : __x(__threadmap_bf16_from_integer(i < 0 ? 0ull - (unsigned long long)i : (unsigned long long)i, i < 0)) {}
    constexpr __nv_bfloat16(unsigned long long i) : __x(__threadmap_bf16_from_integer(i, false)) {}
    constexpr operator float() const { return __threadmap_bf16_to_float(__x); }
    __nv_bfloat16& operator=(float f) { return *this = __nv_bfloat16(f); }
    __nv_bfloat16& operator+=(__nv_bfloat16 o);
    __nv_bfloat16& operator-=(__nv_bfloat16 o);
    __nv_bfloat16& operator*=(__nv_bfloat16 o);
    __nv_bfloat16& operator/=(__nv_bfloat16 o);
};
typedef __nv_bfloat16 nv_bfloat16;

struct __attribute__((aligned(4))) __nv_bfloat162 {
    __nv_bfloat16 x, y;
};
typedef __nv_bfloat162 nv_bfloat162;

constexpr __nv_bfloat16 __ushort_as_bfloat16(unsigned short bits) {
    __nv_bfloat16 b{};
    b.__x = bits;
    return b;
}
inline unsigned short __bfloat16_as_ushort(__nv_bfloat16 b) { return b.__x; }
inline __nv_bfloat16 __short_as_bfloat16(short bits) { return __ushort_as_bfloat16((unsigned short)bits); }
inline short __bfloat16_as_short(__nv_bfloat16 b) { return (short)b.__x; }

inline float __bfloat162float(__nv_bfloat16 b) { return float(b); }
inline __nv_bfloat16 __float2bfloat16(float f) { return __nv_bfloat16(f); }
inline __nv_bfloat16 __float2bfloat16_rn(float f) { return __nv_bfloat16(f); }
// Toward zero: the low 16 bits dropped (NaN still the canonical one).
inline __nv_bfloat16 __float2bfloat16_rz(float f) {
    const unsigned bits = __builtin_bit_cast(unsigned, f);
    return __ushort_as_bfloat16((bits & 0x7fffffffu) > 0x7f800000u ? 0x7fff : (unsigned short)(bits >> 16));
}
inline __nv_bfloat16 __double2bfloat16(double d) { return __nv_bfloat16(d); }
inline __nv_bfloat16 __int2bfloat16_rn(int i) { return __nv_bfloat16(i); }
inline __nv_bfloat16 __uint2bfloat16_rn(unsigned int i) { return __nv_bfloat16(i); }
inline __nv_bfloat16 __ll2bfloat16_rn(long long i) { return __nv_bfloat16(i); }
inline __nv_bfloat16 __ull2bfloat16_rn(unsigned long long i) { return __nv_bfloat16(i); }
inline int __bfloat162int_rz(__nv_bfloat16 b) { return int(float(b)); }
inline unsigned int __bfloat162uint_rz(__nv_bfloat16 b) { return (unsigned int)(float(b)); }
inline int __bfloat162int_rn(__nv_bfloat16 b) { return int(rintf(float(b))); }

#define __THREADMAP_BF16_OP(NAME, OP) \
    inline __nv_bfloat16 NAME(__nv_bfloat16 a, __nv_bfloat16 b) { return __nv_bfloat16(double(a) OP double(b)); }
__THREADMAP_BF16_OP(__hadd, +)
__THREADMAP_BF16_OP(__hsub, -)
__THREADMAP_BF16_OP(__hmul, *)
__THREADMAP_BF16_OP(__hdiv, /)
#undef __THREADMAP_BF16_OP
// One rounding, as the GPU's fused multiply-add: the product is exact in double and the sum's
// rounding error is recovered exactly (Knuth's two-sum), so the double is rounded to odd
// before the one rounding to bfloat16 (a double rounded to nearest could sit on a midpoint the
// exact result is not on).
inline __nv_bfloat16 __hfma(__nv_bfloat16 a, __nv_bfloat16 b, __nv_bfloat16 c) {
    const double p = double(a) * double(b), q = double(c), s = p + q;
    const double qs = s - p, error = (p - (s - qs)) + (q - qs);
    const unsigned long long bits = __builtin_bit_cast(unsigned long long, s);
    if (s == s && error != 0 && (bits & 1) == 0)
        return __nv_bfloat16(__builtin_bit_cast(double, (error > 0) == (s > 0) ? bits + 1 : bits - 1));
    return __nv_bfloat16(s);
}

inline __nv_bfloat162 make_bfloat162(__nv_bfloat16 x, __nv_bfloat16 y) { return {x, y}; }
inline __nv_bfloat162 __halves2bfloat162(__nv_bfloat16 x, __nv_bfloat16 y) { return {x, y}; }
inline __nv_bfloat162 __bfloat162bfloat162(__nv_bfloat16 a) { return {a, a}; }
inline __nv_bfloat162 __float2bfloat162_rn(float f) { return {__nv_bfloat16(f), __nv_bfloat16(f)}; }
inline __nv_bfloat162 __floats2bfloat162_rn(float x, float y) { return {__nv_bfloat16(x), __nv_bfloat16(y)}; }
inline __nv_bfloat16 __low2bfloat16(__nv_bfloat162 a) { return a.x; }
inline __nv_bfloat16 __high2bfloat16(__nv_bfloat162 a) { return a.y; }
inline __nv_bfloat162 __lows2bfloat162(__nv_bfloat162 a, __nv_bfloat162 b) { return {a.x, b.x}; }
inline __nv_bfloat162 __highs2bfloat162(__nv_bfloat162 a, __nv_bfloat162 b) { return {a.y, b.y}; }
inline float2 __bfloat1622float2(__nv_bfloat162 a) { return make_float2(float(a.x), float(a.y)); }
inline __nv_bfloat162 __float22bfloat162_rn(float2 f) { return {__nv_bfloat16(f.x), __nv_bfloat16(f.y)}; }

// atomicAdd on a __nv_bfloat16 (sm_80 and up), rounded to bfloat16 as the GPU's (the kernel
// model's AtomicOp::AddBFloat16: 12).
inline __nv_bfloat16 __threadmap_atomicAdd(int line, __nv_bfloat16* address, __nv_bfloat16 value) {
    return __ushort_as_bfloat16((unsigned short)__threadmap_atomic(address, 12, 1, 2, value.__x, 0ull, line));
}

// The sign and NaN functions, __hmax/__hmin, hsqrt and the rounding functions, the comparisons,
// the operators, __nv_bfloat162's arithmetic and atomicAdd on a __nv_bfloat162: two_byte_float.h.
__THREADMAP_TWO_BYTE_FLOAT(__nv_bfloat16, __nv_bfloat162, 0x7f80u)

#define CUDART_INF_BF16 __ushort_as_bfloat16((unsigned short)0x7F80U)
#define CUDART_NAN_BF16 __ushort_as_bfloat16((unsigned short)0x7FFFU)
#define CUDART_MIN_DENORM_BF16 __ushort_as_bfloat16((unsigned short)0x0001U)
#define CUDART_MAX_NORMAL_BF16 __ushort_as_bfloat16((unsigned short)0x7F7FU)
#define CUDART_NEG_ZERO_BF16 __ushort_as_bfloat16((unsigned short)0x8000U)
#define CUDART_ZERO_BF16 __ushort_as_bfloat16((unsigned short)0x0000U)
#define CUDART_ONE_BF16 __ushort_as_bfloat16((unsigned short)0x3F80U)
