// `threadmap devices`; see devices_command.hpp.
#include "app/commands/devices_command.hpp"

#include "app/launch/backend_choice.hpp"

#include <cstdio>

#include "kernels/cuda/cuda_backend.hpp"

namespace threadmap {

int run_devices_command() {
    const CudaDevices cuda = list_cuda_devices();
    if (cuda.devices.empty()) {
        std::printf("no CUDA devices: %s\nthe CPU emulator is used (--backend cpu)\n", cuda.reason.c_str());
        return 0;
    }
    for (const auto& d : cuda.devices) {
        std::printf("%d: %s, compute capability %d.%d, %d SMs, %.1f GiB, max %u threads per block\n", d.index,
                    d.name.c_str(), d.cc_major, d.cc_minor, d.multiprocessors,
                    double(d.memory_bytes) / double(1ull << 30), d.limits.max_threads_per_block);
        if (const Outcome<void> missing = missing_code_for(d.cc_major, d.cc_minor, built_architectures());
            !missing.done())
            std::printf("   not usable: %s\n", missing.error.c_str());
    }
    return 0;
}

}  // namespace threadmap
