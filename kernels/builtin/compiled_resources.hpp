// What the CUDA compiler allocates for each built-in kernel on each architecture the build
// targets: registers per thread, barriers, static __shared__ bytes. Written by
// scripts/kernel-resources.sh from the kernels' CUDA text (compiled_resources.cpp), so that a
// build without nvcc has the compiler's figures too, with the nvcc version they came from.
#pragma once

#include <string>
#include <vector>

namespace threadmap {

struct CompiledResources {
    const char* kernel;  // the registry's name
    int sm;              // 90 for compute capability 9.0
    int registers;       // per thread
    int barriers;        // named barriers ptxas counts (__syncthreads uses barrier 0)
    int static_shared_bytes;
};

extern const char* const kCompiledResourcesNvcc;  // "nvcc 13.0.88"
extern const std::vector<CompiledResources> kCompiledResources;

// nullptr when the kernel was not compiled for that architecture.
inline const CompiledResources* find_compiled_resources(const std::string& kernel, int sm) {
    for (const CompiledResources& r : kCompiledResources)
        if (r.sm == sm && kernel == r.kernel) return &r;
    return nullptr;
}

}  // namespace threadmap
