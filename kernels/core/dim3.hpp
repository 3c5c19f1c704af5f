// Dim3: our own (x, y, z) extent, shaped like CUDA's dim3 but usable without CUDA headers.
#pragma once

#include <cstdint>

#include "kernels/core/host_device.hpp"

namespace threadmap {

struct Dim3 {
    uint32_t x = 1;  // CUDA's dim3 components are unsigned int; missing ones default to 1.
    uint32_t y = 1;
    uint32_t z = 1;

    // Number of points in the box; 64-bit because 1024·1024·64 and grid products overflow 32.
    TM_HD uint64_t volume() const { return uint64_t(x) * y * z; }
    TM_HD bool operator==(const Dim3& o) const { return x == o.x && y == o.y && z == o.z; }
    TM_HD bool operator!=(const Dim3& o) const { return !(*this == o); }
};

// Ceiling division: the grid a user should write to cover n items with blocks of b.
TM_HD inline uint64_t div_round_up(uint64_t n, uint64_t b) { return (n + b - 1) / b; }

// The blocks of `block` threads that cover `extent` items on one axis, as a dim3 holds it. A
// zero block counts as one: the covering grid is computed before validation refuses it.
TM_HD inline uint32_t blocks_to_cover(uint64_t extent, uint64_t block) {
    const uint64_t blocks = div_round_up(extent, block == 0 ? 1 : block);
    return blocks > UINT32_MAX ? UINT32_MAX : uint32_t(blocks);
}

}  // namespace threadmap
