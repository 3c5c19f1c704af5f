// cuda_fp16.h as a learner's kernel sees it when threadmap compiles it on the CPU: __half and
// __half2 with the functions and operators a course uses. As in CUDA, __half is a class of
// two bytes (an array of them is an array of halves: threadmap's element type `half`), each
// operation rounds its result to half precision (computed in float, which gives the correctly
// rounded half for + - * / and sqrt: float has 2 × 11 + 2 bits), and `h + 1.0f` is ambiguous, as nvcc
// says, because __half converts to float and float to __half. Its conversions are constexpr,
// so a `__constant__ __half w[] = {0.25f, …}` holds its values (no code runs before a kernel).
#pragma once
#include "/threadmap/half_bits.hpp"

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
inline __half __hneg(__half a) { return __ushort_as_half((unsigned short)(a.__x ^ 0x8000u)); }
inline __half __habs(__half a) { return __ushort_as_half((unsigned short)(a.__x & 0x7fffu)); }
inline bool __hisnan(__half a) { return (a.__x & 0x7fffu) > 0x7c00u; }
inline bool __hisinf(__half a) { return (a.__x & 0x7fffu) == 0x7c00u; }
// NaN on either side: the other one (IEEE maxNum, as CUDA's __hmax and __hmin).
inline __half __hmax(__half a, __half b) { return __hisnan(a) ? b : __hisnan(b) ? a : float(a) < float(b) ? b : a; }
inline __half __hmin(__half a, __half b) { return __hisnan(a) ? b : __hisnan(b) ? a : float(b) < float(a) ? b : a; }
inline __half hsqrt(__half a) { return __half(sqrtf(float(a))); }
inline __half hfloor(__half a) { return __half(floorf(float(a))); }
inline __half hceil(__half a) { return __half(ceilf(float(a))); }
inline __half htrunc(__half a) { return __half(truncf(float(a))); }
inline __half hrint(__half a) { return __half(rintf(float(a))); }

#define __THREADMAP_HALF_COMPARE(NAME, OP) \
    inline bool NAME(__half a, __half b) { return float(a) OP float(b); }
__THREADMAP_HALF_COMPARE(__heq, ==)
__THREADMAP_HALF_COMPARE(__hne, !=)
__THREADMAP_HALF_COMPARE(__hlt, <)
__THREADMAP_HALF_COMPARE(__hle, <=)
__THREADMAP_HALF_COMPARE(__hgt, >)
__THREADMAP_HALF_COMPARE(__hge, >=)
#undef __THREADMAP_HALF_COMPARE

inline __half operator+(__half a, __half b) { return __hadd(a, b); }
inline __half operator-(__half a, __half b) { return __hsub(a, b); }
inline __half operator*(__half a, __half b) { return __hmul(a, b); }
inline __half operator/(__half a, __half b) { return __hdiv(a, b); }
inline __half operator-(__half a) { return __hneg(a); }
inline __half operator+(__half a) { return a; }
inline __half& __half::operator+=(__half o) { return *this = *this + o; }
inline __half& __half::operator-=(__half o) { return *this = *this - o; }
inline __half& __half::operator*=(__half o) { return *this = *this * o; }
inline __half& __half::operator/=(__half o) { return *this = *this / o; }
inline bool operator==(__half a, __half b) { return __heq(a, b); }
inline bool operator!=(__half a, __half b) { return __hne(a, b); }
inline bool operator<(__half a, __half b) { return __hlt(a, b); }
inline bool operator<=(__half a, __half b) { return __hle(a, b); }
inline bool operator>(__half a, __half b) { return __hgt(a, b); }
inline bool operator>=(__half a, __half b) { return __hge(a, b); }

inline __half2 make_half2(__half x, __half y) { return {x, y}; }
inline __half2 __halves2half2(__half x, __half y) { return {x, y}; }
inline __half2 __half2half2(__half a) { return {a, a}; }
inline __half2 __float2half2_rn(float f) { return {__half(f), __half(f)}; }
inline __half2 __floats2half2_rn(float x, float y) { return {__half(x), __half(y)}; }
inline __half __low2half(__half2 a) { return a.x; }
inline __half __high2half(__half2 a) { return a.y; }
inline float __low2float(__half2 a) { return float(a.x); }
inline float __high2float(__half2 a) { return float(a.y); }
inline __half2 __lows2half2(__half2 a, __half2 b) { return {a.x, b.x}; }
inline __half2 __highs2half2(__half2 a, __half2 b) { return {a.y, b.y}; }
inline __half2 __lowhigh2highlow(__half2 a) { return {a.y, a.x}; }
inline __half2 __hadd2(__half2 a, __half2 b) { return {__hadd(a.x, b.x), __hadd(a.y, b.y)}; }
inline __half2 __hsub2(__half2 a, __half2 b) { return {__hsub(a.x, b.x), __hsub(a.y, b.y)}; }
inline __half2 __hmul2(__half2 a, __half2 b) { return {__hmul(a.x, b.x), __hmul(a.y, b.y)}; }
inline __half2 __h2div(__half2 a, __half2 b) { return {__hdiv(a.x, b.x), __hdiv(a.y, b.y)}; }
inline __half2 __hfma2(__half2 a, __half2 b, __half2 c) { return {__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y)}; }
inline __half2 __hneg2(__half2 a) { return {__hneg(a.x), __hneg(a.y)}; }
inline __half2 __habs2(__half2 a) { return {__habs(a.x), __habs(a.y)}; }
inline __half2 operator+(__half2 a, __half2 b) { return __hadd2(a, b); }
inline __half2 operator-(__half2 a, __half2 b) { return __hsub2(a, b); }
inline __half2 operator*(__half2 a, __half2 b) { return __hmul2(a, b); }
inline __half2 operator/(__half2 a, __half2 b) { return __h2div(a, b); }
inline float2 __half22float2(__half2 a) { return make_float2(float(a.x), float(a.y)); }
inline __half2 __float22half2_rn(float2 f) { return {__half(f.x), __half(f.y)}; }

// atomicAdd on a __half (sm_70 and up), rounded to half as the GPU's: 2048 + 1 is 2048.
inline __half __threadmap_atomicAdd(int line, __half* address, __half value) {
    return __ushort_as_half((unsigned short)__threadmap_atomic(address, 0, 1, 2, value.__x, 0ull, line));
}
// On a __half2 (sm_60 and up) each half is atomic on its own, not the pair (the Programming
// Guide, atomicAdd): two atomics, one on each 2-byte element.
inline __half2 __threadmap_atomicAdd(int line, __half2* address, __half2 value) {
    // Misaligned: one 4-byte atomic, which stops the run with CUDA's misaligned address error.
    if (reinterpret_cast<unsigned long>(address) % 4 != 0) {
        __threadmap_atomic(address, 0, 1, 4, 0ull, 0ull, line);
        return {};
    }
    __half* halves = reinterpret_cast<__half*>(address);
    const __half x = __threadmap_atomicAdd(line, halves, value.x);
    return {x, __threadmap_atomicAdd(line, halves + 1, value.y)};
}

#define CUDART_INF_FP16 __ushort_as_half((unsigned short)0x7C00U)
#define CUDART_NAN_FP16 __ushort_as_half((unsigned short)0x7FFFU)
#define CUDART_MAX_NORMAL_FP16 __ushort_as_half((unsigned short)0x7BFFU)
#define CUDART_ONE_FP16 __ushort_as_half((unsigned short)0x3C00U)
#define CUDART_ZERO_FP16 __ushort_as_half((unsigned short)0x0000U)
