// A launch as the open kernel model runs it: a kernel of the registry (the tutorial's four
// included) with its parameters, from the launch options (`--preset`, `--kernel`, the shape,
// the registry's own parameters, `--block`, `--grid`).
#pragma once

#include <optional>
#include <string>

#include "app/launch/launch_options.hpp"
#include "kernels/model/model_emulator.hpp"
#include "kernels/core/outcome.hpp"

namespace threadmap {

// The registry's kernel and parameters for a resolved launch (a lesson's matmul-store-in-loop
// included), keeping the records of its mapped array only.
ModelLaunch model_launch_for(const ResolvedLaunch& launch);

Outcome<ModelLaunch> resolve_model_launch(const LaunchOptions& options);

// The exit status of a command whose run of a checked launch failed: 3 when a learner's kernel
// crashed, ran past its time limit or was stopped (the kernel's doing), 2 otherwise.
inline int failed_run_exit(const ModelLaunch& launch) { return launch.spec->run_apart ? 3 : 2; }

// Why `--phase` draws nothing because the launch has no such phase (its blocks passed fewer
// barriers: `phases` is ModelResult::phases), or nothing: map and render say so instead of
// drawing an empty map (the window's slider stays within the phases).
Outcome<void> missing_phase(uint32_t phase, uint32_t phases);

// Why a command that reports the whole launch (check, memory: `what` it reports) refuses the
// options' `--phase`, or nothing: silently ignored, it would look applied.
Outcome<void> phase_not_applicable(const LaunchOptions& options, const char* command, const char* what);

}  // namespace threadmap
