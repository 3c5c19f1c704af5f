// `threadmap kernels`: the registry of built-in kernels — name, what it does, parameters,
// arrays, and whether it uses shared memory, barriers or atomics — as text or JSON.
#pragma once

#include <string>

namespace threadmap {

struct KernelsCommandOptions {
    std::string format = "text";  // text | json
};

int run_kernels_command(const KernelsCommandOptions& options);

}  // namespace threadmap
