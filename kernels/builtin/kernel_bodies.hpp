// The kernel bodies, written once. nvcc wraps them in __global__ kernels (cuda_kernels.cu);
// the CPU emulator calls them for every (block, thread). Each is the tutorial's kernel as
// written, including its index conventions, so the map shows what that code really does.
#pragma once

#include "kernels/core/thread_context.hpp"
#include "kernels/core/workload.hpp"

namespace threadmap {

// numba's cuda.grid(1) and the x/y parts of cuda.grid(2): threadIdx + blockIdx·blockDim.
TM_HD_INLINE uint64_t grid_x(const ThreadContext& t) { return t.threadIdx.x + uint64_t(t.blockIdx.x) * t.blockDim.x; }
TM_HD_INLINE uint64_t grid_y(const ThreadContext& t) { return t.threadIdx.y + uint64_t(t.blockIdx.y) * t.blockDim.y; }

// increment_by_one: pos uses only the x components, exactly as the tutorial writes it, so a
// launch with y or z > 1 makes several threads increment the same element.
template <class Array>
TM_HD_INLINE void increment_by_one(const ThreadContext& t, Array a) {
    const uint64_t pos = grid_x(t);
    if (pos < a.size()) a.store(pos, a.load(pos) + 1.0f);
}

// Grid-stride loop: any grid covers any n; each thread steps by the whole grid's width.
template <class Array>
TM_HD_INLINE void increment_stride(const ThreadContext& t, Array a) {
    const uint64_t stride = uint64_t(t.blockDim.x) * t.gridDim.x;
    for (uint64_t pos = grid_x(t); pos < a.size(); pos += stride) a.store(pos, a.load(pos) + 1.0f);
}

// The product C[i,j] = Σ_k A[i,k]·B[k,j] for one (i, j). The tutorial stores C[i,j] inside
// the k-loop (same result, inner× the stores); here the store is after the loop.
template <class In, class Out>
TM_HD_INLINE void matmul_element(uint64_t i, uint64_t j, In A, In B, Out C) {
    if (i < C.rows() && j < C.cols()) {
        float tmp = 0.0f;
        for (uint64_t k = 0; k < A.cols(); ++k) tmp += A.load(i, k) * B.load(k, j);
        C.store(i, j, tmp);
    }
}

// The tutorial's matmul: i, j = cuda.grid(2), so x indexes rows — neighbouring threads of a
// warp write different rows (uncoalesced).
template <class In, class Out>
TM_HD_INLINE void matmul_x_row(const ThreadContext& t, In A, In B, Out C) {
    matmul_element(grid_x(t), grid_y(t), A, B, C);
}

// The fix: x indexes columns, so a warp writes consecutive elements of one row.
template <class In, class Out>
TM_HD_INLINE void matmul_x_col(const ThreadContext& t, In A, In B, Out C) {
    matmul_element(grid_y(t), grid_x(t), A, B, C);
}

// ---- the fast bodies: each kernel above as its spec carries it (KernelSpec::fast) -----------
// A body is called per thread with the context and views of its family's data (Array: the array;
// Matrix: A, B, C). The emulator and the GPU instantiate their runs for each body of FastBodies;
// a kernel with a fast body adds its struct here and names `&Body::kernel` in its spec. A body's
// branches and indices must not depend on the values it loads: the emulator's writers level
// runs it with every load reading zero (cpu_emulator.hpp, OutputValues).

struct IncrementBody {
    static constexpr FastKernel kernel{"increment", FastFamily::Array, ThreadPlacement::Linear};
    template <class Array>
    TM_HD_INLINE void operator()(const ThreadContext& t, Array a) const {
        increment_by_one(t, a);
    }
};

struct IncrementStrideBody {
    static constexpr FastKernel kernel{"increment-stride", FastFamily::Array, ThreadPlacement::Linear};
    template <class Array>
    TM_HD_INLINE void operator()(const ThreadContext& t, Array a) const {
        increment_stride(t, a);
    }
};

struct MatmulBody {
    static constexpr FastKernel kernel{"matmul", FastFamily::Matrix, ThreadPlacement::XRow};
    template <class In, class Out>
    TM_HD_INLINE void operator()(const ThreadContext& t, In A, In B, Out C) const {
        matmul_x_row(t, A, B, C);
    }
};

struct MatmulXColBody {
    static constexpr FastKernel kernel{"matmul-xcol", FastFamily::Matrix, ThreadPlacement::XColumn};
    template <class In, class Out>
    TM_HD_INLINE void operator()(const ThreadContext& t, In A, In B, Out C) const {
        matmul_x_col(t, A, B, C);
    }
};

template <class... Bodies>
struct FastBodyList {};
using FastBodies = FastBodyList<IncrementBody, IncrementStrideBody, MatmulBody, MatmulXColBody>;

template <class F, class... Bodies>
bool visit_body_of(const FastKernel* kernel, F& f, FastBodyList<Bodies...>) {
    return ((kernel == &Bodies::kernel ? (f(Bodies{}), true) : false) || ...);
}

// Calls f(Body{}) with the body `kernel` names; false when none of FastBodies does.
template <class F>
bool visit_fast_body(const FastKernel* kernel, F&& f) {
    return visit_body_of(kernel, f, FastBodies{});
}

}  // namespace threadmap
