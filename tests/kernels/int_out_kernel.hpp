// A small test kernel for the kernel model's tests: one parameter, n, and one global int array,
// `out`, of n elements, which the body writes (array 0); `uses_barriers` where it calls
// __syncthreads().
#pragma once

#include <functional>
#include <string>
#include <utility>

#include "kernels/model/kernel_spec.hpp"

namespace threadmap {

inline KernelSpec int_out_kernel(std::string name, uint64_t n, bool uses_barriers,
                                 std::function<void(ModelThread&)> body) {
    KernelSpec spec;
    spec.name = std::move(name);
    spec.params = {{"n", "", n}};
    spec.arrays = {{"out", MemorySpace::Global, ValueType::Int32, ArrayRole::Output,
                    [](const Params& p, const LaunchConfig&) { return std::vector<uint64_t>{p[0]}; }}};
    spec.uses_barriers = uses_barriers;
    spec.body = std::move(body);
    return spec;
}

}  // namespace threadmap
