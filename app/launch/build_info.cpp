// Version and backend description; see build_info.hpp.
#include "app/launch/build_info.hpp"

#include "kernels/cuda/cuda_backend.hpp"

namespace threadmap {

namespace {

std::string version_string(int v) { return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10); }

}  // namespace

std::string version_text() {
    std::string s = "threadmap " THREADMAP_VERSION "\n";
    const CudaDevices cuda = list_cuda_devices();
    if (!cuda.compiled_in)
        return s + "CUDA: not compiled in (built without nvcc); the CPU emulator is the only backend\n";
    s += "CUDA: compiled in (runtime " + version_string(cuda.runtime_version) + ", architectures " THREADMAP_CUDA_ARCHS;
    s += cuda.driver_version ? ", driver supports " + version_string(cuda.driver_version) + ")\n" : ", no driver)\n";
    if (cuda.devices.empty()) return s + "devices: none usable (" + cuda.reason + "); the CPU emulator is used\n";
    for (const auto& d : cuda.devices)
        s += "device " + std::to_string(d.index) + ": " + d.name + " (cc " + std::to_string(d.cc_major) + "." +
             std::to_string(d.cc_minor) + ")\n";
    return s;
}

}  // namespace threadmap
