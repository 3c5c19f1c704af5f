// The checks every command runs before emulating: usage, the device's launch limits, then
// the emulator's caps. Each failure is one line for stderr and exit code 2.
#pragma once

#include <optional>
#include <string>

#include "kernels/core/device_limits.hpp"
#include "app/launch/launch_options.hpp"
#include "kernels/core/outcome.hpp"

namespace threadmap {

using CheckedLaunch = Outcome<ResolvedLaunch>;

// limits: the device's (a real device's replace the default cc 9.0 profile). The emulator's
// caps apply on every backend: a GPU-made map is still read, coloured and exported on the
// host, and its thread ids are 32 bits (the CUDA executor refuses 2^32 threads or more).
CheckedLaunch check_launch(const LaunchOptions& options, const DeviceLimits& limits = cc90_profile());
// The same checks for a launch built some other way (the window's controls).
CheckedLaunch check_resolved(const ResolvedLaunch& launch, const DeviceLimits& limits = cc90_profile());

}  // namespace threadmap
