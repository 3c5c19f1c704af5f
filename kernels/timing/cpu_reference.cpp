// CPU reference computation; see cpu_reference.hpp.
#include "kernels/timing/cpu_reference.hpp"

#include <dlfcn.h>

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

// OpenBLAS, opened the first time a matmul's CPU reference runs: linked into the program, it
// started its threads in every process, and they spun on a core for about a tenth of a second
// waiting for work (a third of the samples of a short `check`). Null where libopenblas.so.0 is
// not installed (libopenblas0): the blocked loop below stands in, and says so.
struct Blas {
    // CBLAS's own numbering (cblas.h): row-major 101, no transpose 111.
    static constexpr int kRowMajor = 101, kNoTrans = 111;
    using Sgemm = void (*)(int, int, int, int, int, int, float, const float*, int, const float*, int, float, float*,
                           int);
    using Dgemm = void (*)(int, int, int, int, int, int, double, const double*, int, const double*, int, double,
                           double*, int);
    Sgemm sgemm = nullptr;
    Dgemm dgemm = nullptr;
    int (*threads)() = nullptr;
};

const Blas* open_blas() {
    static const Blas blas = [] {
        void* library = dlopen("libopenblas.so.0", RTLD_NOW | RTLD_LOCAL);
        if (library == nullptr) return Blas{};
        Blas b;
        b.sgemm = reinterpret_cast<Blas::Sgemm>(dlsym(library, "cblas_sgemm"));
        b.dgemm = reinterpret_cast<Blas::Dgemm>(dlsym(library, "cblas_dgemm"));
        b.threads = reinterpret_cast<int (*)()>(dlsym(library, "openblas_get_num_threads"));
        return b.sgemm && b.dgemm && b.threads ? b : Blas{};
    }();
    return blas.sgemm ? &blas : nullptr;
}

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

// C (rows×cols) = A[:rows, :] · B[:, :cols]; lda and ldb are A's and B's row lengths.
template <class T>
void multiply(const Workload& workload, const T* A, const T* B, T* C) {
    const Blas* blas = open_blas();
    if (blas == nullptr) return blocked_matmul(workload, A, B, C);
    const int m = int(workload.rows), n = int(workload.cols), k = int(workload.inner);
    if constexpr (std::is_same_v<T, double>)
        blas->dgemm(Blas::kRowMajor, Blas::kNoTrans, Blas::kNoTrans, m, n, k, 1.0, A, k, B, int(workload.b_cols), 0.0,
                    C, n);
    else
        blas->sgemm(Blas::kRowMajor, Blas::kNoTrans, Blas::kNoTrans, m, n, k, 1.0f, A, k, B, int(workload.b_cols), 0.0f,
                    C, n);
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
    const auto matmul = [&] {
        const Blas* blas = open_blas();
        return blas ? std::string("OpenBLAS ") + (fp64 ? "dgemm" : "sgemm") + " (" + std::to_string(blas->threads()) +
                          " threads)"
                    : std::string("blocked loop, ") + element_name(element) + " (no libopenblas.so.0, 1 thread)";
    };
    t.implementation = is_matrix(workload.kernel)
                           ? matmul()
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
