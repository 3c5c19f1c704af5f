// Version and backend description; see build_info.hpp.
#include "build_info.hpp"

#if THREADMAP_HAS_CUDA
#include "cuda_kernels.hpp"
#endif

namespace threadmap {

std::string version_text() {
    std::string s = "threadmap " THREADMAP_VERSION "\n";
#if THREADMAP_HAS_CUDA
    const CudaStatus cuda = query_cuda_status();
    s += "CUDA: compiled in (runtime " + std::to_string(cuda.runtime_version / 1000) + "." +
         std::to_string(cuda.runtime_version % 1000 / 10) + ", architectures " THREADMAP_CUDA_ARCHS ")\n";
    if (cuda.device_count > 0)
        s += "devices: " + std::to_string(cuda.device_count) + " CUDA device(s) found\n";
    else
        s += "devices: none usable (" + cuda.reason + "); the CPU emulator is used\n";
#else
    s += "CUDA: not compiled in (built without nvcc); the CPU emulator is the only backend\n";
#endif
    return s;
}

std::string backend_status_line() {
#if THREADMAP_HAS_CUDA
    const CudaStatus cuda = query_cuda_status();
    if (cuda.device_count > 0)
        return "Backend: CPU emulator (" + std::to_string(cuda.device_count) +
               " CUDA device(s) found; GPU launches come with the CUDA executor)";
    return "Backend: CPU emulator (no CUDA device: " + cuda.reason + ")";
#else
    return "Backend: CPU emulator (built without CUDA)";
#endif
}

}  // namespace threadmap
