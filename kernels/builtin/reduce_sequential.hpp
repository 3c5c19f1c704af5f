// Reduction with sequential addressing: the active threads are the first s, contiguous, so
// whole warps retire together.
#pragma once

#include "kernels/builtin/reduce_common.hpp"

namespace threadmap::builtin {

inline const KernelSpec& reduce_sequential() {
    static const KernelSpec spec = [] {
        KernelSpec spec = reduce_spec_base();
        spec.name = "reduce-sequential";
        spec.summary = "per-block sum in shared memory, s = blockDim.x/2 down to 1: thread tid adds sdata[tid + s]";
        spec.body = [](ModelThread& t) {
            reduce_body(t, [](ModelThread& t, const ModelThread::SharedArray<float>& sdata, uint32_t tid) {
                for (uint32_t spec = t.blockDim.x / 2; spec > 0; spec >>= 1) {
                    if (tid < spec) sdata.store(tid, sdata.load(tid, 9) + sdata.load(tid + spec, 9), 9);
                    t.syncthreads(10);
                }
            });
        };
        spec.cuda_source = reduce_source("reduce_sequential",
                                         "    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {\n"
                                         "        if (tid < s)\n"
                                         "            sdata[tid] += sdata[tid + s];\n"
                                         "        __syncthreads();\n"
                                         "    }\n");
        return spec;
    }();
    return spec;
}

}  // namespace threadmap::builtin
