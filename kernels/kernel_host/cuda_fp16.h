// cuda_fp16.h as a learner's kernel sees it when threadmap compiles it on the CPU: __half and
// __half2 with the functions and operators a course uses. As in CUDA, __half is a class of
// two bytes (an array of them is an array of halves: threadmap's element type `half`), each
// operation rounds its result to half precision (computed in float, which gives the correctly
// rounded half for + - * / and sqrt: float has 2 × 11 + 2 bits), and `h + 1.0f` is ambiguous, as nvcc
// says, because __half converts to float and float to __half. Its conversions are constexpr,
// so a `__constant__ __half w[] = {0.25f, …}` holds its values (no code runs before a kernel).
#pragma once
#include "/threadmap/kernels/model/half_bits.hpp"
#include "/threadmap/two_byte_float.h"

struct __half {
    unsigned short __x;
    __half() = default;
    constexpr __half(float f) : __x(__threadmap_half_from_float(f)) {}
    constexpr __half(double d) : __x(__threadmap_half_from_double(d)) {}
    constexpr __half(int i) : __x(__threadmap_half_from_float(float(i))) {}
    constexpr __half(unsigned int i) : __x(__threadmap_half_from_float(float(i))) {}
    constexpr __half(short i) : __x(__threadmap_half_from_float(float(i))) {}
    constexpr __half(unsigned short i) : __x(__threadmap_half_from_float(float(i))) {}
    constexpr __half(long long i) : __x(__threadmap_half_from_float(float(i))) {}
    constexpr __half(unsigned long long i) : __x(__threadmap_half_from_float(float(i))) {}
    constexpr operator float() const { return __threadmap_half_to_float(__x); }
    __half& operator=(float f) { return *this = __half(f); }
    __half& operator+=(__half o);
    __half& operator-=(__half o);
    __half& operator*=(__half o);
    __half& operator/=(__half o);
};
typedef __half half;

struct __attribute__((aligned(4))) __half2 {
    __half x, y;
};
typedef __half2 half2;

constexpr __half __ushort_as_half(unsigned short bits) {
    __half h{};
    h.__x = bits;
    return h;
}
inline unsigned short __half_as_ushort(__half h) { return h.__x; }
inline __half __short_as_half(short bits) { return __ushort_as_half((unsigned short)bits); }
inline short __half_as_short(__half h) { return (short)h.__x; }

inline float __half2float(__half h) { return float(h); }
inline __half __float2half(float f) { return __half(f); }
inline __half __float2half_rn(float f) { return __half(f); }
inline __half __double2half(double d) { return __half(d); }
inline __half __int2half_rn(int i) { return __half(float(i)); }
inline __half __uint2half_rn(unsigned int i) { return __half(float(i)); }
inline int __half2int_rz(__half h) { return int(float(h)); }
inline unsigned int __half2uint_rz(__half h) { return (unsigned int)(float(h)); }
inline int __half2int_rn(__half h) { return int(rintf(float(h))); }

#define __THREADMAP_HALF_OP(NAME, OP) \
    inline __half NAME(__half a, __half b) { return __half(float(a) OP float(b)); }
__THREADMAP_HALF_OP(__hadd, +)
__THREADMAP_HALF_OP(__hsub, -)
__THREADMAP_HALF_OP(__hmul, *)
__THREADMAP_HALF_OP(__hdiv, /)
#undef __THREADMAP_HALF_OP
// One rounding, as the GPU's fused multiply-add: a * b + c is exact in double for any halves
// whose result is finite (in float, a tiny c is lost and a product on a midpoint then rounds to
// even: 0x3c02 * 0x3d00 + 0x0001 gave 0x3d02, not 0x3d03); __half(double) rounds once.
inline __half __hfma(__half a, __half b, __half c) { return __half(fma(double(a), double(b), double(c))); }

inline __half2 make_half2(__half x, __half y) { return {x, y}; }
inline __half2 __halves2half2(__half x, __half y) { return {x, y}; }
inline __half2 __half2half2(__half a) { return {a, a}; }
inline __half2 __float2half2_rn(float f) { return {__half(f), __half(f)}; }
inline __half2 __floats2half2_rn(float x, float y) { return {__half(x), __half(y)}; }
inline __half __low2half(__half2 a) { return a.x; }
inline __half __high2half(__half2 a) { return a.y; }
inline __half2 __lows2half2(__half2 a, __half2 b) { return {a.x, b.x}; }
inline __half2 __highs2half2(__half2 a, __half2 b) { return {a.y, b.y}; }
inline float2 __half22float2(__half2 a) { return make_float2(float(a.x), float(a.y)); }
inline __half2 __float22half2_rn(float2 f) { return {__half(f.x), __half(f.y)}; }

// atomicAdd on a __half (sm_70 and up), rounded to half as the GPU's: 2048 + 1 is 2048.
inline __half __threadmap_atomicAdd(int line, __half* address, __half value) {
    return __ushort_as_half((unsigned short)__threadmap_atomic(address, 0, 1, 2, value.__x, 0ull, line));
}

// The sign and NaN functions, __hmax/__hmin, hsqrt and the rounding functions, the comparisons,
// the operators, __half2's arithmetic and atomicAdd on a __half2 (sm_60 and up): two_byte_float.h.
__THREADMAP_TWO_BYTE_FLOAT(__half, __half2, 0x7c00u)

#define CUDART_INF_FP16 __ushort_as_half((unsigned short)0x7C00U)
#define CUDART_NAN_FP16 __ushort_as_half((unsigned short)0x7FFFU)
#define CUDART_MAX_NORMAL_FP16 __ushort_as_half((unsigned short)0x7BFFU)
#define CUDART_ONE_FP16 __ushort_as_half((unsigned short)0x3C00U)
#define CUDART_ZERO_FP16 __ushort_as_half((unsigned short)0x0000U)
