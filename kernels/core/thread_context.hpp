// ThreadContext: what a CUDA thread can ask about itself (threadIdx, blockIdx, blockDim,
// gridDim), and the linear numbering CUDA defines over it. Shared by emulator and GPU.
#pragma once

#include "kernels/core/dim3.hpp"

namespace threadmap {

struct ThreadContext {
    Dim3 threadIdx;
    Dim3 blockIdx;
    Dim3 blockDim;
    Dim3 gridDim;
};

// Thread ID inside a block: x + y·Dx + z·Dx·Dy (Programming Guide, "Thread Hierarchy").
// Warps are cut from consecutive values of it, 32 at a time.
TM_HD inline uint64_t thread_linear(const Dim3& t, const Dim3& block) {
    return t.x + uint64_t(t.y) * block.x + uint64_t(t.z) * block.x * block.y;
}

// Block number in the grid, same x-fastest order.
TM_HD inline uint64_t block_linear(const Dim3& b, const Dim3& grid) {
    return b.x + uint64_t(b.y) * grid.x + uint64_t(b.z) * grid.x * grid.y;
}

// Global linear thread id = blockLinear·threadsPerBlock + threadLinear. When several threads
// touch one element, the map keeps the smallest of these.
TM_HD inline uint64_t global_linear(const ThreadContext& c) {
    return block_linear(c.blockIdx, c.gridDim) * c.blockDim.volume() + thread_linear(c.threadIdx, c.blockDim);
}

// The inverse of thread_linear / block_linear: a linear number back to (x, y, z).
TM_HD inline Dim3 unlinearize(uint64_t linear, const Dim3& extent) {
    Dim3 d;
    d.x = uint32_t(linear % extent.x);
    linear /= extent.x;
    d.y = uint32_t(linear % extent.y);
    d.z = uint32_t(linear / extent.y);
    return d;
}

// A global linear id back to the blockIdx and threadIdx it names.
struct ThreadCoords {
    Dim3 block;
    Dim3 thread;
};
TM_HD inline ThreadCoords decode_global_id(uint64_t id, const Dim3& grid, const Dim3& block) {
    const uint64_t tpb = block.volume();
    return {unlinearize(id / tpb, grid), unlinearize(id % tpb, block)};
}

}  // namespace threadmap
