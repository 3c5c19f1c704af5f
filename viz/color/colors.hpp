// Colours: RGBA8, the categorical palettes and the sequential ramp. TM_HD so that a CUDA
// colorizer (a later issue) computes the very same bytes as the CPU.
#pragma once

#include <cstdint>

#include "kernels/core/host_device.hpp"

namespace threadmap {

struct Rgba8 {  // trivial, so big buffers of it need no constructor pass
    uint8_t r, g, b, a;
    TM_HD bool operator==(const Rgba8& o) const { return r == o.r && g == o.g && b == o.b && a == o.a; }
};

TM_HD inline Rgba8 from_hex(uint32_t rgb, uint8_t alpha = 255) {
    return {uint8_t(rgb >> 16), uint8_t(rgb >> 8), uint8_t(rgb), alpha};
}

// Relative luminance (0 black … 1 white) by Rec. 709's weights, of components in 0…1: what
// decides whether text over a colour is drawn light or dark.
TM_HD inline double luminance(double r, double g, double b) { return 0.2126 * r + 0.7152 * g + 0.0722 * b; }
TM_HD inline double luminance(const Rgba8& c) { return luminance(c.r / 255.0, c.g / 255.0, c.b / 255.0); }

enum class Palette {
    Standard,        // Tableau 10: strong, distinct hues
    ColorBlindSafe,  // Okabe & Ito (2008), black replaced by grey: safe for the common deficiencies
};

TM_HD inline int palette_size(Palette p) { return p == Palette::Standard ? 10 : 8; }

// The index-th colour of a categorical palette (wraps around). Switches rather than arrays:
// they compile to tables on the CPU and need no device memory under nvcc.
TM_HD inline uint32_t standard_hex(int i) {
    switch (i) {
        case 0:
            return 0x4E79A7;
        case 1:
            return 0xF28E2B;
        case 2:
            return 0xE15759;
        case 3:
            return 0x76B7B2;
        case 4:
            return 0x59A14F;
        case 5:
            return 0xEDC948;
        case 6:
            return 0xB07AA1;
        case 7:
            return 0xFF9DA7;
        case 8:
            return 0x9C755F;
        default:
            return 0xBAB0AC;
    }
}
TM_HD inline uint32_t colorblind_hex(int i) {
    switch (i) {
        case 0:
            return 0xE69F00;
        case 1:
            return 0x56B4E9;
        case 2:
            return 0x009E73;
        case 3:
            return 0xF0E442;
        case 4:
            return 0x0072B2;
        case 5:
            return 0xD55E00;
        case 6:
            return 0xCC79A7;
        default:
            return 0x999999;
    }
}
TM_HD inline Rgba8 categorical(uint64_t index, Palette p) {
    // Constant divisors: the modulo becomes a multiply.
    return from_hex(p == Palette::Standard ? standard_hex(int(index % 10)) : colorblind_hex(int(index % 8)));
}

// a·b rounded to float before anything is added to it. nvcc contracts `x + a*b` into one
// fused multiply-add (one rounding instead of two), which moves a colour channel by 1 in
// about 1 of 20,000 values; __fmul_rn is never contracted. On the host -ffp-contract=off
// (CMakeLists.txt) keeps g++ from contracting where the CPU has FMA (aarch64).
TM_HD inline float product_rounded(float a, float b) {
#if defined(__CUDA_ARCH__)
    return __fmul_rn(a, b);
#else
    return a * b;
#endif
}

// Sequential ramp for t in [0, 1]: viridis' five anchor colours, linearly interpolated
// (perceptually ordered and readable with colour-vision deficiencies).
TM_HD inline Rgba8 ramp(float t) {
    const uint32_t anchor[5] = {0x440154, 0x3B528B, 0x21918C, 0x5EC962, 0xFDE725};
    t = t < 0 ? 0 : (t > 1 ? 1 : t);
    const float pos = t * 4;
    const int i = pos >= 4 ? 3 : int(pos);
    const float f = pos - float(i);
    const Rgba8 a = from_hex(anchor[i]), b = from_hex(anchor[i + 1]);
    const auto mix = [f](uint8_t x, uint8_t y) {
        return uint8_t(float(x) + product_rounded(float(y) - float(x), f) + 0.5f);
    };
    return {mix(a.r, b.r), mix(a.g, b.g), mix(a.b, b.b), 255};
}

}  // namespace threadmap
