// The launch options (`--preset`, `--kernel`, the shape, `--block`, `--grid`) as a launch of
// the open kernel model: the tutorial's kernels through the same rules as `map`, the
// registry's other kernels (kernels/builtin) with their own parameters (`--n`, `--bins`, …).
#pragma once

#include <map>

#include "launch_options.hpp"
#include "model/model_emulator.hpp"

namespace CLI {
class App;
}

namespace threadmap {

// The registry's kernel and parameters for a launch of the tutorial's kernels (a lesson's
// matmul-store-in-loop included).
ModelLaunch model_launch_for(const ResolvedLaunch& launch);

// The registry's own parameters (--bins, --offset, …: those not among the launch options'
// --n, --rows, --cols, --inner) as typed, by name; empty when not given.
struct ModelParamTexts {
    std::map<std::string, std::string> texts;
    bool any() const;
};
// A flag for each of them.
void add_model_param_options(CLI::App& command, ModelParamTexts& params);

// The launch options with the registry's kernels and their parameters (not only the
// tutorial's four): `check`, `memory`, `occupancy`.
void add_model_launch_options(CLI::App& command, LaunchOptions& options, ModelParamTexts& params);

Outcome<ModelLaunch> resolve_model_launch(const LaunchOptions& options, const ModelParamTexts& params);

}  // namespace threadmap
