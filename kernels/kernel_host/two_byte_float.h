// What cuda_fp16.h's __half and cuda_bf16.h's __nv_bfloat16 share, written once: for a class T
// of two bytes (its bits in `__x`, the sign in the top one, exponent bits `EXPONENT` all set
// for infinity and NaN, 0x7fff the canonical NaN; converting to and from float) with its own
// __hadd, __hsub, __hmul, __hdiv and __hfma, and its pair T2 {x, y}: the sign functions, the
// NaN tests, CUDA's __hmax and __hmin, the rounding functions, the comparisons, the operators,
// the pair's arithmetic and atomicAdd on a pair.
#pragma once

#define __THREADMAP_TWO_BYTE_FLOAT(T, T2, EXPONENT)                                                               \
    constexpr T __threadmap_from_bits_##T(unsigned short bits) {                                                 \
        T r{};                                                                                                   \
        r.__x = bits;                                                                                            \
        return r;                                                                                                \
    }                                                                                                            \
    inline T __hneg(T a) { return __threadmap_from_bits_##T((unsigned short)(a.__x ^ 0x8000u)); }                \
    inline T __habs(T a) { return __threadmap_from_bits_##T((unsigned short)(a.__x & 0x7fffu)); }                \
    inline bool __hisnan(T a) { return (a.__x & 0x7fffu) > (EXPONENT); }                                          \
    inline bool __hisinf(T a) { return (a.__x & 0x7fffu) == (EXPONENT); }                                         \
    /* CUDA's (cuda_fp16.hpp, cuda_bf16.hpp): NaN on one side gives the other, on both the canonical NaN;     */ \
    /* of +0 and -0, __hmax gives +0 and __hmin -0.                                                           */ \
    inline T __hmax(T a, T b) {                                                                                  \
        if (__hisnan(a) && __hisnan(b)) return __threadmap_from_bits_##T(0x7fff);                                \
        if (__hisnan(a) || __hisnan(b)) return __hisnan(a) ? b : a;                                              \
        if (float(a) == float(b)) return a.__x > b.__x ? b : a;                                                  \
        return float(a) > float(b) ? a : b;                                                                      \
    }                                                                                                            \
    inline T __hmin(T a, T b) {                                                                                  \
        if (__hisnan(a) && __hisnan(b)) return __threadmap_from_bits_##T(0x7fff);                                \
        if (__hisnan(a) || __hisnan(b)) return __hisnan(a) ? b : a;                                              \
        if (float(a) == float(b)) return a.__x > b.__x ? a : b;                                                  \
        return float(a) < float(b) ? a : b;                                                                      \
    }                                                                                                            \
    /* In float, rounded once to T: exact for floor and the like; for sqrt, float's 24 bits are at least     */ \
    /* 2p + 2 for T's p (11 or 8), so rounding twice gives the correctly rounded result.                     */ \
    inline T hsqrt(T a) { return T(sqrtf(float(a))); }                                                           \
    inline T hfloor(T a) { return T(floorf(float(a))); }                                                         \
    inline T hceil(T a) { return T(ceilf(float(a))); }                                                           \
    inline T htrunc(T a) { return T(truncf(float(a))); }                                                         \
    inline T hrint(T a) { return T(rintf(float(a))); }                                                           \
    inline bool __heq(T a, T b) { return float(a) == float(b); }                                                 \
    inline bool __hne(T a, T b) { return float(a) != float(b); }                                                 \
    inline bool __hlt(T a, T b) { return float(a) < float(b); }                                                  \
    inline bool __hle(T a, T b) { return float(a) <= float(b); }                                                 \
    inline bool __hgt(T a, T b) { return float(a) > float(b); }                                                  \
    inline bool __hge(T a, T b) { return float(a) >= float(b); }                                                 \
    inline T operator+(T a, T b) { return __hadd(a, b); }                                                        \
    inline T operator-(T a, T b) { return __hsub(a, b); }                                                        \
    inline T operator*(T a, T b) { return __hmul(a, b); }                                                        \
    inline T operator/(T a, T b) { return __hdiv(a, b); }                                                        \
    inline T operator-(T a) { return __hneg(a); }                                                                \
    inline T operator+(T a) { return a; }                                                                        \
    inline T& T::operator+=(T o) { return *this = *this + o; }                                                   \
    inline T& T::operator-=(T o) { return *this = *this - o; }                                                   \
    inline T& T::operator*=(T o) { return *this = *this * o; }                                                   \
    inline T& T::operator/=(T o) { return *this = *this / o; }                                                   \
    inline bool operator==(T a, T b) { return __heq(a, b); }                                                     \
    inline bool operator!=(T a, T b) { return __hne(a, b); }                                                     \
    inline bool operator<(T a, T b) { return __hlt(a, b); }                                                      \
    inline bool operator<=(T a, T b) { return __hle(a, b); }                                                     \
    inline bool operator>(T a, T b) { return __hgt(a, b); }                                                      \
    inline bool operator>=(T a, T b) { return __hge(a, b); }                                                     \
    inline float __low2float(T2 a) { return float(a.x); }                                                        \
    inline float __high2float(T2 a) { return float(a.y); }                                                       \
    inline T2 __lowhigh2highlow(T2 a) { return {a.y, a.x}; }                                                     \
    inline T2 __hadd2(T2 a, T2 b) { return {__hadd(a.x, b.x), __hadd(a.y, b.y)}; }                               \
    inline T2 __hsub2(T2 a, T2 b) { return {__hsub(a.x, b.x), __hsub(a.y, b.y)}; }                               \
    inline T2 __hmul2(T2 a, T2 b) { return {__hmul(a.x, b.x), __hmul(a.y, b.y)}; }                               \
    inline T2 __h2div(T2 a, T2 b) { return {__hdiv(a.x, b.x), __hdiv(a.y, b.y)}; }                               \
    inline T2 __hfma2(T2 a, T2 b, T2 c) { return {__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y)}; }               \
    inline T2 __hneg2(T2 a) { return {__hneg(a.x), __hneg(a.y)}; }                                               \
    inline T2 __habs2(T2 a) { return {__habs(a.x), __habs(a.y)}; }                                               \
    inline T2 __hmax2(T2 a, T2 b) { return {__hmax(a.x, b.x), __hmax(a.y, b.y)}; }                               \
    inline T2 __hmin2(T2 a, T2 b) { return {__hmin(a.x, b.x), __hmin(a.y, b.y)}; }                               \
    inline T2 operator+(T2 a, T2 b) { return __hadd2(a, b); }                                                    \
    inline T2 operator-(T2 a, T2 b) { return __hsub2(a, b); }                                                    \
    inline T2 operator*(T2 a, T2 b) { return __hmul2(a, b); }                                                    \
    inline T2 operator/(T2 a, T2 b) { return __h2div(a, b); }                                                    \
    /* atomicAdd on a pair: each half atomic on its own, not the pair (the Programming Guide, atomicAdd): two */ \
    /* atomics, one on each 2-byte element. Misaligned: one 4-byte atomic, which stops the run with CUDA's    */ \
    /* misaligned address error.                                                                              */ \
    inline T2 __threadmap_atomicAdd(int line, T2* address, T2 value) {                                           \
        if (reinterpret_cast<unsigned long>(address) % 4 != 0) {                                                 \
            __threadmap_atomic(address, 0, 1, 4, 0ull, 0ull, line);                                              \
            return {};                                                                                           \
        }                                                                                                        \
        T* halves = reinterpret_cast<T*>(address);                                                               \
        const T x = __threadmap_atomicAdd(line, halves, value.x);                                                \
        return {x, __threadmap_atomicAdd(line, halves + 1, value.y)};                                            \
    }
