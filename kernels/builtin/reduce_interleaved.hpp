// Reduction with interleaved addressing: `tid % (2*s) == 0` leaves every warp with a few
// active threads (divergent), the classic first version.
#pragma once

#include "kernels/builtin/reduce_common.hpp"

namespace threadmap::builtin {

inline const KernelSpec& reduce_interleaved() {
    static const KernelSpec spec = [] {
        KernelSpec spec = reduce_spec_base();
        spec.name = "reduce-interleaved";
        spec.summary =
            "per-block sum in shared memory, s = 1, 2, 4 …: threads with tid % (2*s) == 0 add sdata[tid + s]";
        spec.body = [](ModelThread& t) {
            reduce_body(t, [](ModelThread& t, const ModelThread::SharedArray<float>& sdata, uint32_t tid) {
                for (uint32_t spec = 1; spec < t.blockDim.x; spec *= 2) {
                    if (tid % (2 * spec) == 0) sdata.store(tid, sdata.load(tid, 9) + sdata.load(tid + spec, 9), 9);
                    t.syncthreads(10);
                }
            });
        };
        spec.cuda_source = reduce_source("reduce_interleaved",
                                         "    for (unsigned s = 1; s < blockDim.x; s *= 2) {\n"
                                         "        if (tid % (2 * s) == 0)\n"
                                         "            sdata[tid] += sdata[tid + s];\n"
                                         "        __syncthreads();\n"
                                         "    }\n");
        return spec;
    }();
    return spec;
}

}  // namespace threadmap::builtin
