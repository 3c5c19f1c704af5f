#pragma once
// The headers a CUDA file includes as a matter of course (<cstdio>, <cfloat>, <cuda_runtime.h>,
// …), as a learner's kernel sees them: what a kernel uses of most of them (printf, assert, the
// math functions, the fixed-width integer types) is in the prelude, so they hold only what the
// prelude does not: the limits of <cfloat>, <climits> and <cstdint>, CUDA's math_constants.h.
// Anything else of the host stays out (-nostdsysteminc).
#include <span>

namespace threadmap {

struct StandardHeader {
    const char* name;                // as included: "cfloat", "cooperative_groups/reduce.h"
    const char* text;                // its text, or
    const char* embedded = nullptr;  // the embedded file it is (kernels/kernel_host/CMakeLists.txt): "cuda_fp16.h"
};

std::span<const StandardHeader> standard_headers();

}  // namespace threadmap
