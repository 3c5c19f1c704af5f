// CPU reference computation; see cpu_reference.hpp.
#include "cpu_reference.hpp"

#include <cblas.h>

#include <chrono>
#include <cstring>

#include "kernel_data.hpp"

extern "C" int openblas_get_num_threads(void);

namespace threadmap {

namespace {

void compute(const Workload& w, KernelData& d) {
    if (is_matrix(w.kernel)) {
        // C (rows×cols) = A[:rows, :] · B[:, :cols]; lda and ldb are A's and B's row lengths.
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, int(w.rows), int(w.cols), int(w.inner), 1.0f,
                    d.a.data(), int(w.inner), d.b.data(), int(w.b_cols), 0.0f, d.out.data(), int(w.cols));
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
    t.implementation = matrix ? "OpenBLAS sgemm (" + std::to_string(openblas_get_num_threads()) + " threads)"
                              : std::string("loop a[i] += 1 (g++ -O2, 1 thread)");
    t.bytes = matrix ? (w.rows * w.inner + w.inner * w.cols + w.rows * w.cols) * sizeof(float) : 2 * w.n * sizeof(float);
    t.flops = matrix ? 2.0 * double(w.rows) * double(w.cols) * double(w.inner) : double(w.n);
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
