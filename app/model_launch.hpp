// A launch as the open kernel model runs it: a kernel of the registry (the tutorial's four
// included) with its parameters, from the launch options (`--preset`, `--kernel`, the shape,
// the registry's own parameters, `--block`, `--grid`).
#pragma once

#include "launch_options.hpp"
#include "model/model_emulator.hpp"

namespace threadmap {

// The registry's kernel and parameters for a resolved launch (a lesson's matmul-store-in-loop
// included).
ModelLaunch model_launch_for(const ResolvedLaunch& launch);

Outcome<ModelLaunch> resolve_model_launch(const LaunchOptions& options);

// The exit status of a command whose run of a checked launch failed: 3 when a learner's kernel
// crashed, ran past its time limit or was stopped (the kernel's doing), 2 otherwise.
inline int failed_run_exit(const ModelLaunch& launch) { return launch.spec->run_apart ? 3 : 2; }

}  // namespace threadmap
