// CUDA error tiers (for .cu files only): CUDA_CHECK throws with file:line, the call and
// CUDA's own error name and text; CUDA_LOG only prints (for destructors).
#pragma once

#include <cuda_runtime.h>

#include <cstdio>
#include <stdexcept>
#include <string>

namespace threadmap {

inline std::string cuda_error_text(cudaError_t e) {
    return std::string(cudaGetErrorName(e)) + ": " + cudaGetErrorString(e);
}

}  // namespace threadmap

#define CUDA_CHECK(call)                                                                                     \
    do {                                                                                                     \
        const cudaError_t cuda_check_error = (call);                                                         \
        if (cuda_check_error != cudaSuccess)                                                                 \
            throw std::runtime_error(std::string(__FILE__) + ":" + std::to_string(__LINE__) + ": " + #call + \
                                     " failed with " + ::threadmap::cuda_error_text(cuda_check_error));      \
    } while (0)

#define CUDA_LOG(call)                                                                    \
    do {                                                                                  \
        const cudaError_t cuda_log_error = (call);                                        \
        if (cuda_log_error != cudaSuccess)                                                \
            std::fprintf(stderr, "%s:%d: %s failed with %s\n", __FILE__, __LINE__, #call, \
                         ::threadmap::cuda_error_text(cuda_log_error).c_str());           \
    } while (0)
