// The CUDA backend in a build without nvcc: no devices, and every call says why.
#include "cuda_runtime.hpp"

namespace threadmap {

namespace {
constexpr const char* kWhy = "this threadmap was built without CUDA (no nvcc at build time)";
}

CudaDevices list_cuda_devices() {
    CudaDevices d;
    d.reason = kWhy;
    return d;
}

GpuMapResult run_mapped_on_gpu(const Workload&, const LaunchConfig&, int) { return {std::nullopt, kWhy}; }

GpuBenchResult bench_on_gpu(const Workload&, const LaunchConfig&, const GpuBenchOptions&, int) {
    GpuBenchResult r;
    r.error = kWhy;
    return r;
}

}  // namespace threadmap
