// Backend choice; see backend_choice.hpp.
#include "backend_choice.hpp"

#include "cuda_backend.hpp"
#include "launch_check.hpp"

namespace threadmap {

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
    if (cuda.devices.empty()) {
        if (requested == "cuda") {
            r.error = "--backend cuda: no usable CUDA device (" + cuda.reason + ")";
            return r;
        }
        r.value = cpu_backend("no CUDA device: " + cuda.reason);
        return r;
    }
    BackendChoice gpu;
    gpu.cuda = true;
    gpu.device = cuda.devices.front().index;
    gpu.name = "cuda:" + cuda.devices.front().name;
    gpu.limits = cuda.devices.front().limits;
    gpu.executor = make_cuda_executor(gpu.device, gpu.name);
    r.value = gpu;
    return r;
}

PrepareResult prepare_launch(const LaunchOptions& o) {
    const BackendResult backend = choose_backend(o.backend);
    if (!backend.value) return {std::nullopt, backend.error};
    const CheckedLaunch checked = check_launch(o, backend.value->limits);
    if (!checked.value) return {std::nullopt, checked.error};
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
