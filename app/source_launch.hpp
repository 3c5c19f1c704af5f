// `--source FILE [--entry NAME] --bind … [--time-limit S]`: a learner's kernel, compiled by the
// embedded Clang (kernels/source), chosen and bound, as a spec the kernel model runs in a
// locked-down child process. Built without Clang 15, it says so.
#pragma once

#include <memory>

#include "launch_options.hpp"

namespace threadmap {

struct LoadedSource {
    const KernelSpec* spec = nullptr;
    std::shared_ptr<const void> owner;  // keeps `spec` and the compiled code alive
};

// Error: Clang's messages (file:line:column, with the caret lines), or what is missing.
Outcome<LoadedSource> load_source_kernel(const LaunchOptions& options);

// Whether this threadmap can compile learners' kernels (built with Clang 15).
bool source_kernels_available();

}  // namespace threadmap
