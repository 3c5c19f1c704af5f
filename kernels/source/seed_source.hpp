// The seed tutorial's increment_by_one as a learner types it in CUDA C++: the editor's first
// kernel, and the text the tests and source-bench compile (its store is on line 4).
#pragma once

namespace threadmap {

inline constexpr const char* kSeedIncrementSource =
    "__global__ void increment_by_one(float* a, int n) {\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i < n)\n"
    "        a[i] = a[i] + 1;\n"
    "}\n";

}  // namespace threadmap
