// The real kernels: the fast bodies of kernel_bodies.hpp (FastBodies) wrapped in __global__ functions, with a
// map-recording memory access, and thin launchers. No logic lives here that the emulator
// does not share.
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <algorithm>

#include "kernels/core/array_views.hpp"
#include "kernels/cuda/cuda_kernels.hpp"
#include "kernels/builtin/kernel_bodies.hpp"

namespace threadmap {

namespace {

// Records each thread's first store to an element: smallest global id with atomicMin,
// number of threads with atomicAdd. Mirrors the emulator's RecordingAccess.
class GpuRecordingAccess {
  public:
    __device__ GpuRecordingAccess(uint32_t* first, uint32_t* touches, uint32_t gid)
        : first_(first), touches_(touches), gid_(gid) {}

    template <class T>
    __device__ T load(T* base, uint64_t i) const {
        return base[i];
    }
    template <class T>
    __device__ void store(T* base, uint64_t i, T value) {
        if (i != last_) {
            last_ = i;
            atomicMin(first_ + i, gid_);
            atomicAdd(touches_ + i, 1u);
        }
        base[i] = value;
    }
    __device__ bool touched() const { return last_ != kNone; }

  private:
    static constexpr uint64_t kNone = ~uint64_t(0);
    uint32_t* first_;
    uint32_t* touches_;
    uint32_t gid_;
    uint64_t last_ = kNone;
};

// Plain memory: reads (and, for the plain kernels, writes) with nothing recorded.
struct GpuPlainAccess {
    template <class T>
    __device__ T load(const T* base, uint64_t i) const {
        return base[i];
    }
    template <class T>
    __device__ void store(T* base, uint64_t i, T value) const {
        base[i] = value;
    }
};

__device__ ThreadContext this_thread() {
    ThreadContext c;
    c.threadIdx = {threadIdx.x, threadIdx.y, threadIdx.z};
    c.blockIdx = {blockIdx.x, blockIdx.y, blockIdx.z};
    c.blockDim = {blockDim.x, blockDim.y, blockDim.z};
    c.gridDim = {gridDim.x, gridDim.y, gridDim.z};
    return c;
}

// Runs one fast body for this thread with views of out, A and B through `Access`s.
template <class Body, class OutAccess>
__device__ void run_body(const ThreadContext& c, const Workload& workload, float* out, const float* a, const float* b,
                         OutAccess* out_access) {
    if constexpr (Body::kernel.family == FastFamily::Array) {
        Body{}(c, ArrayView<float, OutAccess>(out, workload.n, out_access));
    } else {
        GpuPlainAccess in;
        const MatrixView<const float, GpuPlainAccess> A(a, workload.a_rows, workload.inner, &in);
        const MatrixView<const float, GpuPlainAccess> B(b, workload.inner, workload.b_cols, &in);
        Body{}(c, A, B, MatrixView<float, OutAccess>(out, workload.rows, workload.cols, out_access));
    }
}

template <class Body>
__global__ void plain_kernel(Workload workload, float* out, const float* a, const float* b) {
    GpuPlainAccess access;
    run_body<Body>(this_thread(), workload, out, a, b, &access);
}

template <class Body>
__global__ void mapped_kernel(Workload workload, DeviceMapBuffers m) {
    const ThreadContext c = this_thread();
    GpuRecordingAccess out(m.first_toucher, m.touches, uint32_t(global_linear(c)));
    run_body<Body>(c, workload, m.out, m.a, m.b, &out);
    if (out.touched()) {  // one atomic per group of converged lanes, not per thread (2^30 at the cap)
        const cooperative_groups::coalesced_group writers = cooperative_groups::coalesced_threads();
        if (writers.thread_rank() == 0) atomicAdd(m.threads_active, (unsigned long long)writers.size());
    }
}

dim3 to_cuda(const Dim3& d) { return dim3(d.x, d.y, d.z); }

// Grid-stride over the map; each warp sums its lanes with shuffles and adds once.
__global__ void count_touches(const uint32_t* touches, uint64_t n, unsigned long long* counts) {
    unsigned long long untouched = 0, multi = 0;
    const uint64_t stride = uint64_t(blockDim.x) * gridDim.x;
    for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n; i += stride) {
        untouched += touches[i] == 0;
        multi += touches[i] > 1;
    }
    for (int offset = 16; offset > 0; offset /= 2) {  // every lane is here: blocks are whole warps
        untouched += __shfl_down_sync(0xffffffffu, untouched, offset);
        multi += __shfl_down_sync(0xffffffffu, multi, offset);
    }
    if (threadIdx.x % 32 == 0) {
        atomicAdd(counts, untouched);
        atomicAdd(counts + 1, multi);
    }
}

}  // namespace

int launch_count_touches(const uint32_t* touches, uint64_t n, unsigned long long* counts, cudaStream_t stream) {
    const unsigned blocks = unsigned(std::min<uint64_t>((n + 255) / 256, 1024));
    count_touches<<<std::max(blocks, 1u), 256, 0, stream>>>(touches, n, counts);
    return int(cudaGetLastError());
}

// Each launcher returns cudaErrorInvalidDeviceFunction for a kernel with no GPU twin (no body of
// FastBodies): the executor's caller says the device cannot run it.
int launch_mapped_kernel(const Workload& workload, const LaunchConfig& launch, const DeviceMapBuffers& m,
                         cudaStream_t stream) {
    const bool twin = visit_fast_body(workload.kernel, [&](auto body) {
        mapped_kernel<decltype(body)><<<to_cuda(launch.grid), to_cuda(launch.block), 0, stream>>>(workload, m);
    });
    return twin ? int(cudaGetLastError()) : int(cudaErrorInvalidDeviceFunction);
}

int plain_kernel_registers(const FastKernel* kernel, int device, int* registers) {
    cudaError_t rc = cudaSetDevice(device);
    if (rc != cudaSuccess) return int(rc);
    cudaFuncAttributes a{};
    rc = cudaErrorInvalidDeviceFunction;
    visit_fast_body(kernel, [&](auto body) { rc = cudaFuncGetAttributes(&a, plain_kernel<decltype(body)>); });
    if (rc == cudaSuccess) *registers = a.numRegs;
    return int(rc);
}

int launch_plain_kernel(const Workload& workload, const LaunchConfig& launch, float* out, const float* a,
                        const float* b, cudaStream_t stream) {
    const bool twin = visit_fast_body(workload.kernel, [&](auto body) {
        plain_kernel<decltype(body)><<<to_cuda(launch.grid), to_cuda(launch.block), 0, stream>>>(workload, out, a, b);
    });
    return twin ? int(cudaGetLastError()) : int(cudaErrorInvalidDeviceFunction);
}

}  // namespace threadmap
