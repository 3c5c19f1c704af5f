// Launch validation against DeviceLimits; see validation.hpp.
#include "kernels/core/validation.hpp"

#include <vector>

namespace threadmap {

namespace {

void check_axes(const char* what, const Dim3& d, const Dim3& max, std::vector<std::string>& out) {
    const char* axis[] = {"x", "y", "z"};
    const uint32_t value[] = {d.x, d.y, d.z};
    const uint32_t limit[] = {max.x, max.y, max.z};
    for (int a = 0; a < 3; ++a) {
        if (value[a] == 0) {
            out.push_back(std::string(what) + "." + axis[a] + " is 0; every dimension must be at least 1");
        } else if (value[a] > limit[a]) {
            out.push_back(std::string(what) + "." + axis[a] + " is " + std::to_string(value[a]) +
                          "; the largest allowed is " + std::to_string(limit[a]));
        }
    }
}

}  // namespace

std::optional<LaunchError> validate_launch(const LaunchConfig& launch, const DeviceLimits& limits) {
    std::vector<std::string> broken;
    check_axes("blockDim", launch.block, limits.max_block, broken);
    const uint64_t threads = launch.block.volume();
    if (threads > limits.max_threads_per_block) {
        broken.push_back("blockDim " + to_string(launch.block) + " has " + std::to_string(threads) +
                         " threads; a block may have at most " + std::to_string(limits.max_threads_per_block));
    }
    check_axes("gridDim", launch.grid, limits.max_grid, broken);
    if (broken.empty()) return std::nullopt;

    LaunchError error{broken.front(), "cudaErrorInvalidConfiguration"};
    for (size_t i = 1; i < broken.size(); ++i) error.message += "; " + broken[i];
    return error;
}

std::string describe(const LaunchError& error) {
    // Each language reports it in its own words: the runtime API's error, or the driver's
    // (numba launches through cuLaunchKernel).
    return "invalid launch: " + error.message + " (a real launch fails: CUDA C++ with " + error.cuda_error +
           ": invalid configuration argument; numba with CUDA_ERROR_INVALID_VALUE from cuLaunchKernel)";
}

}  // namespace threadmap
