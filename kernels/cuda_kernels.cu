// The real kernels: the bodies of kernel_bodies.hpp wrapped in __global__ functions, with a
// map-recording memory access, and thin launchers. No logic lives here that the emulator
// does not share.
#include <cuda_runtime.h>

#include "array_views.hpp"
#include "cuda_kernels.hpp"
#include "kernel_bodies.hpp"

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

struct GpuReadAccess {
    template <class T>
    __device__ T load(const T* base, uint64_t i) const {
        return base[i];
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

template <KernelKind kKind>
__global__ void mapped_kernel(Workload w, DeviceMapBuffers m) {
    const ThreadContext c = this_thread();
    GpuRecordingAccess out(m.first_toucher, m.touches, uint32_t(global_linear(c)));
    if constexpr (kKind == KernelKind::Increment || kKind == KernelKind::IncrementStride) {
        const ArrayView<float, GpuRecordingAccess> a(m.out, w.n, &out);
        if constexpr (kKind == KernelKind::Increment)
            increment_by_one(c, a);
        else
            increment_stride(c, a);
    } else {
        GpuReadAccess in;
        const MatrixView<const float, GpuReadAccess> A(m.a, w.a_rows, w.inner, &in);
        const MatrixView<const float, GpuReadAccess> B(m.b, w.inner, w.b_cols, &in);
        const MatrixView<float, GpuRecordingAccess> C(m.out, w.rows, w.cols, &out);
        if constexpr (kKind == KernelKind::Matmul)
            matmul_x_row(c, A, B, C);
        else
            matmul_x_col(c, A, B, C);
    }
    if (out.touched()) atomicAdd(m.threads_active, 1ull);
}

dim3 to_cuda(const Dim3& d) { return dim3(d.x, d.y, d.z); }

}  // namespace

int launch_mapped_kernel(const Workload& w, const LaunchConfig& l, const DeviceMapBuffers& m) {
    const dim3 grid = to_cuda(l.grid), block = to_cuda(l.block);
    switch (w.kernel) {
        case KernelKind::Increment:
            mapped_kernel<KernelKind::Increment><<<grid, block>>>(w, m);
            break;
        case KernelKind::IncrementStride:
            mapped_kernel<KernelKind::IncrementStride><<<grid, block>>>(w, m);
            break;
        case KernelKind::Matmul:
            mapped_kernel<KernelKind::Matmul><<<grid, block>>>(w, m);
            break;
        case KernelKind::MatmulXCol:
            mapped_kernel<KernelKind::MatmulXCol><<<grid, block>>>(w, m);
            break;
    }
    return int(cudaGetLastError());
}

CudaStatus query_cuda_status() {
    CudaStatus s;
    cudaRuntimeGetVersion(&s.runtime_version);
    int count = 0;  // left unwritten by cudaGetDeviceCount when there is no driver
    const cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess) {
        s.reason = std::string("cudaGetDeviceCount failed with error ") + std::to_string(int(err)) +
                   " (" + cudaGetErrorName(err) + ": " + cudaGetErrorString(err) + ")";
        cudaGetLastError();  // clear it: the emulator takes over
        return s;
    }
    s.device_count = count;
    if (count == 0) s.reason = "the CUDA driver reports no devices";
    return s;
}

}  // namespace threadmap
