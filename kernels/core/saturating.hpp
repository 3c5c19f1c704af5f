// Sums and products of sizes that stop at UINT64_MAX instead of wrapping: a size a learner typed
// (--dynamic-shared 18446744073709551600) must fail a limit, never wrap under it.
#pragma once

#include <cstdint>

namespace threadmap {

inline uint64_t saturating_add(uint64_t a, uint64_t b) {
    uint64_t sum = 0;
    return __builtin_add_overflow(a, b, &sum) ? UINT64_MAX : sum;
}

inline uint64_t saturating_mul(uint64_t a, uint64_t b) {
    uint64_t product = 0;
    return __builtin_mul_overflow(a, b, &product) ? UINT64_MAX : product;
}

}  // namespace threadmap
