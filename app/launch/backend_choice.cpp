// Backend choice; see backend_choice.hpp.
#include "app/launch/backend_choice.hpp"

#include "kernels/cuda/cuda_arch.hpp"
#include "kernels/cuda/cuda_backend.hpp"
#include "app/launch/launch_check.hpp"

namespace threadmap {

const std::vector<CudaArch>& built_architectures() {
    static const std::vector<CudaArch> archs = parse_cuda_architectures(THREADMAP_CUDA_ARCHS);
    return archs;
}

BackendResult choose_backend(const std::string& requested) {
    BackendResult r;
    if (requested == "model") {
        r.error = "--backend model gives timings (threadmap bench); maps run on cpu or cuda";
        return r;
    }
    if (requested != "cpu" && requested != "cuda" && requested != "auto") {
        r.error = "--backend must be cpu, cuda or auto, got '" + requested + "'";
        return r;
    }
    if (requested == "cpu") {
        r.value = cpu_backend("asked for with --backend cpu");
        return r;
    }
    const CudaDevices cuda = list_cuda_devices();
    // The first device this build has code for; one without would fail every launch.
    const CudaDevice* usable = nullptr;
    std::string why_not = cuda.reason;
    for (const CudaDevice& d : cuda.devices) {
        const Outcome<void> missing = missing_code_for(d.cc_major, d.cc_minor, built_architectures());
        if (missing.done()) {
            usable = &d;
            break;
        }
        why_not = d.name + ": " + missing.error;
    }
    if (!usable) {
        if (requested == "cuda") {
            r.error = "--backend cuda: no usable CUDA device (" + why_not + ")";
            r.kind = Failure::Unsupported;
            return r;
        }
        r.value = cpu_backend("no CUDA device: " + why_not);
        return r;
    }
    BackendChoice gpu;
    gpu.cuda = true;
    gpu.device = usable->index;
    gpu.name = "cuda:" + usable->name;
    gpu.limits = usable->limits;
    gpu.executor = make_cuda_executor(gpu.device, gpu.name);
    r.value = gpu;
    return r;
}

PrepareResult prepare_launch(const LaunchOptions& o) {
    const BackendResult backend = choose_backend(o.backend);
    if (!backend.value) return failure_of(backend);
    const CheckedLaunch checked = check_launch(o, backend.value->limits);
    if (!checked.value) return failure_of(checked);
    return {PreparedLaunch{*backend.value, *checked.value}, {}};
}

BackendChoice cpu_backend(const std::string& reason) {
    BackendChoice cpu;
    cpu.name = "cpu-emulator";
    cpu.reason = reason;
    cpu.executor = make_cpu_executor();
    return cpu;
}

}  // namespace threadmap
