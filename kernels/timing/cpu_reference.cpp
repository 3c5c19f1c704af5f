// CPU reference computation; see cpu_reference.hpp.
#include "kernels/timing/cpu_reference.hpp"

#if THREADMAP_HAS_BLAS
#include <cblas.h>
extern "C" int openblas_get_num_threads(void);
#endif

#include <algorithm>
#include <chrono>
#include <cstring>
#include <type_traits>

#include "kernels/core/kernel_data.hpp"
#include "kernels/timing/timing_model.hpp"

namespace threadmap {

namespace {

// The arrays in the program's element type: numpy's float64 (its default) or float32.
template <class T>
struct Arrays {
    std::vector<T> a, b, out;
    explicit Arrays(const KernelData& d)
        : a(d.a.begin(), d.a.end()), b(d.b.begin(), d.b.end()), out(d.out.begin(), d.out.end()) {}
};

#if !THREADMAP_HAS_BLAS
// Without OpenBLAS: i-k-j order in 64-wide column panels, so the inner loop runs along rows
// of B and C (unit stride, vectorised) and a panel of B stays in cache.
template <class T>
void blocked_matmul(const Workload& workload, const T* A, const T* B, T* C) {
    constexpr uint64_t kPanel = 64;
    std::fill(C, C + workload.rows * workload.cols, T(0));
    for (uint64_t j0 = 0; j0 < workload.cols; j0 += kPanel) {
        const uint64_t j1 = std::min(workload.cols, j0 + kPanel);
        for (uint64_t i = 0; i < workload.rows; ++i)
            for (uint64_t k = 0; k < workload.inner; ++k) {
                const T a = A[i * workload.inner + k];
                for (uint64_t j = j0; j < j1; ++j) C[i * workload.cols + j] += a * B[k * workload.b_cols + j];
            }
    }
}
#endif

// C (rows×cols) = A[:rows, :] · B[:, :cols]; lda and ldb are A's and B's row lengths.
template <class T>
void multiply(const Workload& workload, const T* A, const T* B, T* C) {
#if THREADMAP_HAS_BLAS
    if constexpr (std::is_same_v<T, double>)
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, int(workload.rows), int(workload.cols),
                    int(workload.inner), 1.0, A, int(workload.inner), B, int(workload.b_cols), 0.0, C,
                    int(workload.cols));
    else
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, int(workload.rows), int(workload.cols),
                    int(workload.inner), 1.0f, A, int(workload.inner), B, int(workload.b_cols), 0.0f, C,
                    int(workload.cols));
#else
    blocked_matmul(workload, A, B, C);
#endif
}

template <class T>
void compute(const Workload& workload, const T* a, const T* b, T* out) {
    if (is_matrix(workload.kernel)) {
        multiply(workload, a, b, out);
        return;
    }
    for (uint64_t i = 0; i < workload.n; ++i) out[i] += T(1);
}

template <class T>
std::vector<double> timed_runs(const Workload& workload, const KernelData& d, int repeats) {
    Arrays<T> x(d);
    compute(workload, x.a.data(), x.b.data(), x.out.data());  // warm caches and OpenBLAS's threads before timing
    std::vector<double> seconds;
    for (int r = 0; r < repeats; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        compute(workload, x.a.data(), x.b.data(), x.out.data());
        seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    return seconds;
}

}  // namespace

CpuReferenceTiming time_cpu_reference(const Workload& workload, int repeats, ElementType element) {
    CpuReferenceTiming t;
    const KernelData d = make_kernel_data(workload);
    const bool fp64 = element == ElementType::Float64;
#if THREADMAP_HAS_BLAS
    const std::string matmul = std::string("OpenBLAS ") + (fp64 ? "dgemm" : "sgemm") + " (" +
                               std::to_string(openblas_get_num_threads()) + " threads)";
#else
    const std::string matmul =
        std::string("blocked loop, ") + element_name(element) + " (no OpenBLAS at build time, 1 thread)";
#endif
    t.implementation = is_matrix(workload.kernel)
                           ? matmul
                           : std::string("loop a[i] += 1, ") + element_name(element) + " (g++ -O2, 1 thread)";
    TimedProgram program;
    program.element = element;
    const WorkloadCost cost = workload_cost(workload, program);
    t.bytes = cost.kernel_bytes;
    t.flops = cost.flops;
    t.seconds = fp64 ? timed_runs<double>(workload, d, repeats) : timed_runs<float>(workload, d, repeats);
    return t;
}

std::vector<float> cpu_reference_result(const Workload& workload) {
    KernelData d = make_kernel_data(workload);
    compute(workload, d.a.data(), d.b.data(), d.out.data());
    return {d.out.begin(), d.out.end()};
}

}  // namespace threadmap
