// The built-in kernels of the open kernel model, one file each in kernels/builtin/. Adding a
// kernel: its file (spec, body, CUDA text, reference), one line in registry.cpp, a lesson.
#pragma once

#include <string>
#include <vector>

#include "kernels/model/kernel_spec.hpp"

namespace threadmap {

const std::vector<const KernelSpec*>& builtin_kernels();
const KernelSpec* find_builtin_kernel(const std::string& name);  // nullptr when there is none

}  // namespace threadmap
