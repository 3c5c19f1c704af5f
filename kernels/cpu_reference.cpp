// CPU reference computation; see cpu_reference.hpp.
#include "cpu_reference.hpp"

#if THREADMAP_HAS_BLAS
#include <cblas.h>
extern "C" int openblas_get_num_threads(void);
#endif

#include <algorithm>
#include <chrono>
#include <cstring>

#include "kernel_data.hpp"
#include "timing_model.hpp"

namespace threadmap {

namespace {

#if !THREADMAP_HAS_BLAS
// Without OpenBLAS: i-k-j order in 64-wide column panels, so the inner loop runs along rows
// of B and C (unit stride, vectorised) and a panel of B stays in cache.
void blocked_matmul(const Workload& w, const float* A, const float* B, float* C) {
    constexpr uint64_t kPanel = 64;
    std::fill(C, C + w.rows * w.cols, 0.0f);
    for (uint64_t j0 = 0; j0 < w.cols; j0 += kPanel) {
        const uint64_t j1 = std::min(w.cols, j0 + kPanel);
        for (uint64_t i = 0; i < w.rows; ++i)
            for (uint64_t k = 0; k < w.inner; ++k) {
                const float a = A[i * w.inner + k];
                for (uint64_t j = j0; j < j1; ++j) C[i * w.cols + j] += a * B[k * w.b_cols + j];
            }
    }
}
#endif

void compute(const Workload& w, KernelData& d) {
    if (is_matrix(w.kernel)) {
#if THREADMAP_HAS_BLAS
        // C (rows×cols) = A[:rows, :] · B[:, :cols]; lda and ldb are A's and B's row lengths.
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, int(w.rows), int(w.cols), int(w.inner), 1.0f, d.a.data(),
                    int(w.inner), d.b.data(), int(w.b_cols), 0.0f, d.out.data(), int(w.cols));
#else
        blocked_matmul(w, d.a.data(), d.b.data(), d.out.data());
#endif
        return;
    }
    float* a = d.out.data();
    for (uint64_t i = 0; i < w.n; ++i) a[i] += 1.0f;
}

}  // namespace

CpuReferenceTiming time_cpu_reference(const Workload& w, int repeats) {
    CpuReferenceTiming t;
    KernelData d = make_kernel_data(w);
    const bool matrix = is_matrix(w.kernel);
#if THREADMAP_HAS_BLAS
    const std::string matmul = "OpenBLAS sgemm (" + std::to_string(openblas_get_num_threads()) + " threads)";
#else
    const std::string matmul = "blocked loop (no OpenBLAS at build time, 1 thread)";
#endif
    t.implementation = matrix ? matmul : std::string("loop a[i] += 1 (g++ -O2, 1 thread)");
    const WorkloadCost cost = workload_cost(w);
    t.bytes = cost.kernel_bytes;
    t.flops = cost.flops;
    compute(w, d);  // warm caches and OpenBLAS's threads before timing
    for (int r = 0; r < repeats; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        compute(w, d);
        t.seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    return t;
}

std::vector<float> cpu_reference_result(const Workload& w) {
    KernelData d = make_kernel_data(w);
    compute(w, d);
    return {d.out.begin(), d.out.end()};
}

}  // namespace threadmap
