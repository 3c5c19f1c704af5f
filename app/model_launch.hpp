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

}  // namespace threadmap
