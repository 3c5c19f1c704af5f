// How many blocks of a kernel an SM holds at once, computed by the rules of CUDA's occupancy
// calculator (cuda_occupancy.h, cudaOccMaxActiveBlocksPerMultiprocessor, CUDA 13.0): the
// block limits from warps, registers, shared memory, the SM's block slots and barriers, and
// the smallest of them. Then the waves a grid takes: one possible order, blocks dealt to the
// SMs in blockIdx order (CUDA does not document the real one).
#pragma once

#include <cstdint>
#include <string>

#include "kernels/occupancy/block_place.hpp"
#include "kernels/occupancy/sm_properties.hpp"

namespace threadmap {

// What one block of the kernel asks of an SM.
struct KernelResources {
    int registers_per_thread = 0;
    uint64_t shared_bytes_per_block = 0;  // static + dynamic __shared__, without the driver's reserve
    // The runtime's calculator counts one block barrier per kernel (cudaOccFuncAttributes made
    // from cudaFuncAttributes); it limits blocks from compute capability 9.0 on.
    int barriers = 1;
};

enum OccupancyLimiter : unsigned {  // cudaOccLimitingFactor's bits
    kLimitWarps = 0x01,
    kLimitRegisters = 0x02,
    kLimitSharedMemory = 0x04,
    kLimitBlocks = 0x08,
    kLimitBarriers = 0x10,
};

struct Occupancy {
    int active_blocks_per_sm = 0;  // 0: a block does not fit on an SM at all
    // The limit each resource sets on its own (INT_MAX when the resource is not used).
    int limit_warps = 0, limit_registers = 0, limit_shared = 0, limit_blocks = 0, limit_barriers = 0;
    unsigned limiters = 0;  // OccupancyLimiter bits of every limit equal to the result
    int warps_per_block = 0;
    int active_warps_per_sm = 0;
    int max_warps_per_sm = 0;
    double occupancy = 0;                     // active warps / max warps, 0..1
    int registers_per_block = 0;              // allocated: per warp rounded to 256, times warps
    uint64_t allocated_shared_per_block = 0;  // with the reserve, rounded to the granularity
    uint64_t shared_per_sm_config = 0;        // the carveout the driver picks for this kernel
    std::string cannot_launch;                // why not, when active_blocks_per_sm is 0
};

Occupancy compute_occupancy(const SmProperties& sm, const KernelResources& kernel, int block_size);

// The first limiter in cudaOccLimitingFactor's order, by name: "warps", "registers",
// "shared_memory", "blocks", "barriers".
const char* main_limiter_name(unsigned limiters);
// The limiter in words for a learner, e.g. "an SM holds at most 32 blocks; with 1 warp per
// block 32 of its 64 warp slots stay empty".
std::string limiter_sentence(const SmProperties& sm, const Occupancy& o, int block_size);

struct Waves {
    uint64_t blocks = 0;
    uint64_t slots = 0;         // active blocks per SM × SMs
    uint64_t waves = 0;         // ⌈blocks / slots⌉
    double last_wave_fill = 0;  // the last wave's blocks / slots, (0, 1]
};

Waves compute_waves(uint64_t blocks, int active_blocks_per_sm, int sms);

}  // namespace threadmap
