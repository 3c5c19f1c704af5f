// The built-in kernels of the open kernel model, one file each in kernels/builtin/. Adding a
// kernel: its file (spec, body, CUDA text, reference), one line in registry.cpp, a lesson; a
// kernel with a fast body (the writers-only emulator, a GPU twin) adds it to FastBodies too.
#pragma once

#include <string>
#include <vector>

#include "kernels/model/kernel_spec.hpp"

namespace threadmap {

const std::vector<const KernelSpec*>& builtin_kernels();
const KernelSpec* find_builtin_kernel(const std::string& name);  // nullptr when there is none

// The kernels with a fast body (KernelSpec::fast), in the registry's order, and one by name.
const std::vector<const FastKernel*>& all_kernels();
const FastKernel* parse_kernel(std::string_view name);  // nullptr when none has that name
// The spec that carries a fast body (every FastKernel of FastBodies is named by one).
const KernelSpec& spec_of(const FastKernel& kernel);
// The block a user gets without --block: its spec's.
Dim3 default_block(const FastKernel* kernel);

}  // namespace threadmap
