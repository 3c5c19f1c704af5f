// Reduction with sequential addressing: the active threads are the first s, contiguous, so
// whole warps retire together.
#pragma once

#include "kernels/builtin/reduce_common.hpp"

namespace threadmap::builtin {

inline const KernelSpec& reduce_sequential() {
    static const KernelSpec spec = [] {
        KernelSpec s = reduce_spec_base();
        s.name = "reduce-sequential";
        s.summary = "per-block sum in shared memory, s = blockDim.x/2 down to 1: thread tid adds sdata[tid + s]";
        s.body = [](ModelThread& t) {
            reduce_body(t, [](ModelThread& t, const ModelThread::Array<float>& sdata, uint32_t tid) {
                for (uint32_t s = t.blockDim.x / 2; s > 0; s >>= 1) {
                    if (tid < s) sdata.store(tid, sdata.load(tid, 9) + sdata.load(tid + s, 9), 9);
                    t.syncthreads(10);
                }
            });
        };
        s.cuda_source = reduce_source("reduce_sequential",
                                      "    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {\n"
                                      "        if (tid < s)\n"
                                      "            sdata[tid] += sdata[tid + s];\n"
                                      "        __syncthreads();\n"
                                      "    }\n");
        return s;
    }();
    return spec;
}

}  // namespace threadmap::builtin
