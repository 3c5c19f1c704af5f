// The launch options (`--preset`, `--kernel`, the shape, `--block`, `--grid`) as a launch of
// the open kernel model: the tutorial's kernels through the same rules as `map`, the
// registry's other kernels (kernels/builtin) with their own parameters (`--n`, `--bins`, …).
#pragma once

#include "launch_options.hpp"
#include "model/model_emulator.hpp"

namespace CLI {
class App;
}

namespace threadmap {

// The registry's kernel and parameters for a launch of the tutorial's kernels (a lesson's
// matmul-store-in-loop included).
ModelLaunch model_launch_for(const ResolvedLaunch& launch);

// The launch options with the registry's kernels and their parameters (not only the
// tutorial's four), and --bins into `bins`: `check`, `occupancy`.
void add_model_launch_options(CLI::App& command, LaunchOptions& options, std::string& bins);

// bins: the text of --bins (the histograms' parameter), empty when not given.
Outcome<ModelLaunch> resolve_model_launch(const LaunchOptions& options, const std::string& bins);

}  // namespace threadmap
