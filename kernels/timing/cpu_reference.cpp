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
void blocked_matmul(const Workload& w, const T* A, const T* B, T* C) {
    constexpr uint64_t kPanel = 64;
    std::fill(C, C + w.rows * w.cols, T(0));
    for (uint64_t j0 = 0; j0 < w.cols; j0 += kPanel) {
        const uint64_t j1 = std::min(w.cols, j0 + kPanel);
        for (uint64_t i = 0; i < w.rows; ++i)
            for (uint64_t k = 0; k < w.inner; ++k) {
                const T a = A[i * w.inner + k];
                for (uint64_t j = j0; j < j1; ++j) C[i * w.cols + j] += a * B[k * w.b_cols + j];
            }
    }
}
#endif

// C (rows×cols) = A[:rows, :] · B[:, :cols]; lda and ldb are A's and B's row lengths.
template <class T>
void multiply(const Workload& w, const T* A, const T* B, T* C) {
#if THREADMAP_HAS_BLAS
    if constexpr (std::is_same_v<T, double>)
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, int(w.rows), int(w.cols), int(w.inner), 1.0, A,
                    int(w.inner), B, int(w.b_cols), 0.0, C, int(w.cols));
    else
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, int(w.rows), int(w.cols), int(w.inner), 1.0f, A,
                    int(w.inner), B, int(w.b_cols), 0.0f, C, int(w.cols));
#else
    blocked_matmul(w, A, B, C);
#endif
}

template <class T>
void compute(const Workload& w, const T* a, const T* b, T* out) {
    if (is_matrix(w.kernel)) {
        multiply(w, a, b, out);
        return;
    }
    for (uint64_t i = 0; i < w.n; ++i) out[i] += T(1);
}

template <class T>
std::vector<double> timed_runs(const Workload& w, const KernelData& d, int repeats) {
    Arrays<T> x(d);
    compute(w, x.a.data(), x.b.data(), x.out.data());  // warm caches and OpenBLAS's threads before timing
    std::vector<double> seconds;
    for (int r = 0; r < repeats; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        compute(w, x.a.data(), x.b.data(), x.out.data());
        seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    return seconds;
}

}  // namespace

CpuReferenceTiming time_cpu_reference(const Workload& w, int repeats, ElementType element) {
    CpuReferenceTiming t;
    const KernelData d = make_kernel_data(w);
    const bool fp64 = element == ElementType::Float64;
#if THREADMAP_HAS_BLAS
    const std::string matmul = std::string("OpenBLAS ") + (fp64 ? "dgemm" : "sgemm") + " (" +
                               std::to_string(openblas_get_num_threads()) + " threads)";
#else
    const std::string matmul =
        std::string("blocked loop, ") + element_name(element) + " (no OpenBLAS at build time, 1 thread)";
#endif
    t.implementation =
        is_matrix(w.kernel) ? matmul : std::string("loop a[i] += 1, ") + element_name(element) + " (g++ -O2, 1 thread)";
    TimedProgram program;
    program.element = element;
    const WorkloadCost cost = workload_cost(w, program);
    t.bytes = cost.kernel_bytes;
    t.flops = cost.flops;
    t.seconds = fp64 ? timed_runs<double>(w, d, repeats) : timed_runs<float>(w, d, repeats);
    return t;
}

std::vector<float> cpu_reference_result(const Workload& w) {
    KernelData d = make_kernel_data(w);
    compute(w, d.a.data(), d.b.data(), d.out.data());
    return {d.out.begin(), d.out.end()};
}

}  // namespace threadmap
