// Launch validation: rejects exactly the launches a real device rejects with
// cudaErrorInvalidConfiguration, and explains each in CUDA's own terms.
#pragma once

#include <optional>
#include <string>

#include "kernels/core/device_limits.hpp"
#include "kernels/core/launch_config.hpp"

namespace threadmap {

struct LaunchError {
    std::string message;     // every broken limit, with the numbers, joined by "; "
    std::string cuda_error;  // the error a real launch returns, e.g. cudaErrorInvalidConfiguration
};

// Empty when a real device with these limits would accept the launch.
std::optional<LaunchError> validate_launch(const LaunchConfig& launch, const DeviceLimits& limits);

// One line for stderr or the UI: "invalid launch: … (a real launch fails with …)".
std::string describe(const LaunchError& error);

}  // namespace threadmap
