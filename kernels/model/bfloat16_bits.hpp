// bfloat16 (CUDA's __nv_bfloat16: a float's sign, its 8 exponent bits and the top 7 of its
// mantissa) to and from float and double, as CUDA converts (cuda_bf16.hpp): round to nearest
// even, NaN to the canonical 0x7fff, subnormals kept, overflow to infinity. Compiled twice, as
// half_bits.hpp is: into the host and into every learner's kernel (the embedded cuda_bf16.h
// includes it), so it includes only half_bits.hpp and uses C++'s own types only.
#pragma once

#include "kernels/model/half_bits.hpp"  // __threadmap_float_rounded_to_odd

constexpr unsigned short __threadmap_bf16_from_float(float value) {
    const unsigned f = __builtin_bit_cast(unsigned, value);
    if ((f & 0x7fffffffu) > 0x7f800000u) return 0x7fff;
    // The 16 bits dropped, against half of the last bit kept; a carry may reach the exponent
    // (the largest finite floats round to infinity, as on the GPU).
    const unsigned kept = f >> 16, dropped = f & 0xffffu;
    return (unsigned short)(kept + (dropped > 0x8000u || (dropped == 0x8000u && (kept & 1))));
}

constexpr float __threadmap_bf16_to_float(unsigned short b) { return __builtin_bit_cast(float, unsigned(b) << 16); }

// A double to its nearest bfloat16 (CUDA's __double2bfloat16), rounded once.
constexpr unsigned short __threadmap_bf16_from_double(double value) {
    return __threadmap_bf16_from_float(__threadmap_float_rounded_to_odd(value));
}
