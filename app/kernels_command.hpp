// `threadmap kernels`: the registry of built-in kernels — name, what it does, parameters,
// arrays, and whether it uses shared memory, barriers or atomics — as text or JSON.
#pragma once

#include <string>

namespace CLI {
class App;
}

namespace threadmap {

struct KernelsCommandOptions {
    std::string format = "text";  // text | json
};

void add_kernels_command(CLI::App& app, KernelsCommandOptions& options);
int run_kernels_command(const KernelsCommandOptions& options);

}  // namespace threadmap
