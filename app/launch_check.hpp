// The checks every command runs before emulating: usage, the device's launch limits, then
// the emulator's caps. Each failure is one line for stderr and exit code 2.
#pragma once

#include <optional>
#include <string>

#include "launch_options.hpp"

namespace threadmap {

struct CheckedLaunch {
    std::optional<ResolvedLaunch> value;
    std::string error;  // one line, when value is empty
};

CheckedLaunch check_launch(const LaunchOptions& options);
// The same checks for a launch built some other way (the window's controls).
CheckedLaunch check_resolved(const ResolvedLaunch& launch);

}  // namespace threadmap
