// Launchers for the real CUDA kernels: ordinary C++ functions over our own types, so no
// caller needs CUDA headers and `<<<…>>>` stays in cuda_kernels.cu.
#pragma once

#include "kernels/core/launch_config.hpp"
#include "kernels/core/workload.hpp"

struct CUstream_st;  // cudaStream_t is CUstream_st*: the launchers take one without CUDA's headers

namespace threadmap {

// Device pointers for one mapped launch. first_toucher must start at 0xFFFFFFFF and touches
// and threads_active at 0: the kernels keep the minimum id with atomicMin and count with
// atomicAdd.
struct DeviceMapBuffers {
    float* out = nullptr;
    const float* a = nullptr;  // matmul only
    const float* b = nullptr;  // matmul only
    uint32_t* first_toucher = nullptr;
    uint32_t* touches = nullptr;
    unsigned long long* threads_active = nullptr;
};

// Launches w's kernel with map recording on the current device and `stream`. Returns the
// launch's cudaError_t as an int (0: cudaSuccess), so callers need no CUDA header.
int launch_mapped_kernel(const Workload& workload, const LaunchConfig& launch, const DeviceMapBuffers& buffers,
                         CUstream_st* stream);

// Counts, over a map's touches, the elements nobody wrote (counts[0]) and those written by
// more than one thread (counts[1]), so the statistics need no copy of the map. counts must
// start at 0.
int launch_count_touches(const uint32_t* touches, uint64_t elements, unsigned long long* counts, CUstream_st* stream);

// cudaFuncGetAttributes' numRegs of the plain kernel of `kernel`'s fast body on `device`, into
// *registers; the cudaError_t as an int.
int plain_kernel_registers(const FastKernel* kernel, int device, int* registers);

// The same kernel without map recording: what a learner's kernel costs (bench timings).
int launch_plain_kernel(const Workload& workload, const LaunchConfig& launch, float* out, const float* a,
                        const float* b, CUstream_st* stream);

}  // namespace threadmap
