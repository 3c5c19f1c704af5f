// The CUDA backend in a build without nvcc: no devices, and every call says why.
#include "kernels/cuda/cuda_backend.hpp"
#include "kernels/core/executor.hpp"

namespace threadmap {

namespace {
constexpr const char* kWhy = "this threadmap was built without CUDA (no nvcc at build time)";
}

std::optional<int> cuda_kernel_registers(const FastKernel*, int) { return std::nullopt; }

CudaDevices list_cuda_devices() {
    CudaDevices d;
    d.reason = kWhy;
    return d;
}

namespace {

class NoCudaExecutor final : public Executor {
  public:
    std::string name() const override { return "cuda (not built)"; }
    Outcome<LaunchResult> run(const Workload&, const LaunchConfig&, LaunchResult*, const std::atomic<bool>*) override {
        return failed(kWhy, Failure::Unsupported);
    }
    Outcome<void> fetch_map(LaunchResult&) const override { return done(); }
};

}  // namespace

std::unique_ptr<Executor> make_cuda_executor(int, const std::string&) { return std::make_unique<NoCudaExecutor>(); }

DeviceMapView view_of(const DeviceMap&) { return {}; }  // no DeviceMap is ever made here

Outcome<GpuBenchResult> bench_on_gpu(const Workload&, const LaunchConfig&, const GpuBenchOptions&, int) {
    return failed(kWhy, Failure::Unsupported);
}

}  // namespace threadmap
