// Where a block would run, in one possible order: blocks dealt round-robin to the SMs in
// blockIdx order (x fastest), `slots` (active blocks per SM × SMs) per wave. CUDA does not
// document the real order. Host and device: the colorizer's SM and wave modes use it.
#pragma once

#include <cstdint>

#include "kernels/core/host_device.hpp"

namespace threadmap {

struct BlockPlace {
    uint64_t sm = 0, wave = 0;
};

// slots and sms above 0.
TM_HD inline BlockPlace place_block(uint64_t linear_block, uint64_t slots, uint64_t sms) {
    return {(linear_block % slots) % sms, linear_block / slots};
}

}  // namespace threadmap
