// IEEE binary16 (CUDA's __half) to and from float (and from double, through a float rounded to
// odd, which bfloat16_bits.hpp uses too), as CUDA converts: round
// to nearest even, subnormals kept, overflow to infinity. Compiled twice, so it includes nothing and uses C++'s
// own types only: into the host (an array of halves' values, its bindings) and into every
// learner's kernel (the embedded cuda_fp16.h includes it), so the two cannot disagree.
// Integer and float arithmetic only (no _Float16: Clang 15's JIT would need libgcc's helpers).
// After Fabian Giesen's float_to_half_fast3_rtne and half_to_float (public domain).
#pragma once

constexpr unsigned short __threadmap_half_from_float(float value) {
    const unsigned f32_infinity = 255u << 23, f16_max = (127u + 16) << 23;
    // 0.5 ulp of the smallest half subnormal: adding it rounds a small value to the subnormals.
    const unsigned subnormal_magic = ((127u - 15) + (23 - 10) + 1) << 23;
    unsigned f = __builtin_bit_cast(unsigned, value);
    const unsigned sign = f & 0x80000000u;
    f ^= sign;
    unsigned short h;
    if (f > f32_infinity) return 0x7fff;  // NaN: the GPU's canonical one, whatever the sign
    if (f >= f16_max) {                   // 65536 or more (65520 and up round to it below): infinity
        h = 0x7c00;
    } else if (f < (113u << 23)) {  // below 2^-14: a subnormal half or zero, rounded by the add
        const float t = __builtin_bit_cast(float, f) + __builtin_bit_cast(float, subnormal_magic);
        h = (unsigned short)(__builtin_bit_cast(unsigned, t) - subnormal_magic);
    } else {  // a normal half: rebias, round to nearest even (a carry into the exponent gives inf)
        const unsigned odd = (f >> 13) & 1;
        f += ((15u - 127) << 23) + 0xfff + odd;
        h = (unsigned short)(f >> 13);
    }
    return (unsigned short)(h | (sign >> 16));
}

constexpr float __threadmap_half_to_float(unsigned short h) {
    const unsigned exponent_mask = 0x7c00u << 13;
    unsigned o = (h & 0x7fffu) << 13;
    const unsigned exponent = exponent_mask & o;
    o += (127u - 15) << 23;
    if (exponent == exponent_mask) {  // infinity or NaN
        o += (128u - 16) << 23;
    } else if (exponent == 0) {  // zero or subnormal: renormalised by a subtraction
        o += 1u << 23;
        o = __builtin_bit_cast(unsigned, __builtin_bit_cast(float, o) - __builtin_bit_cast(float, 113u << 23));
    }
    return __builtin_bit_cast(float, o | (unsigned(h) & 0x8000u) << 16);
}

// A double as a float rounded to odd (inexact: the neighbour with an odd last bit), which a
// 2-byte float type then rounds to nearest as if from the double: a float rounded to nearest
// could land on a midpoint between two halves (or bfloat16s) that the double is not on.
constexpr float __threadmap_float_rounded_to_odd(double value) {
    const float f = float(value);
    const unsigned bits = __builtin_bit_cast(unsigned, f);
    if (double(f) == value || (bits & 0x7f800000u) == 0x7f800000u || (bits & 1) != 0) return f;
    const bool below = (f < 0 ? -double(f) : double(f)) < (value < 0 ? -value : value);
    return __builtin_bit_cast(float, below ? bits + 1 : bits - 1);
}

// A double to its nearest half (CUDA's __double2half), rounded once.
constexpr unsigned short __threadmap_half_from_double(double value) {
    return __threadmap_half_from_float(__threadmap_float_rounded_to_odd(value));
}
