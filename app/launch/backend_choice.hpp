// --backend cpu|cuda|auto: which executor runs a launch, and why. auto takes the first
// CUDA device when there is one and says why not when there is none; cuda insists.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "kernels/cuda/cuda_arch.hpp"
#include "kernels/core/device_limits.hpp"
#include "kernels/core/executor.hpp"
#include "app/launch/launch_options.hpp"
#include "kernels/core/outcome.hpp"

namespace threadmap {

struct BackendChoice {
    bool cuda = false;
    int device = 0;
    std::string name;                      // "cpu-emulator" or "cuda:NVIDIA H200"
    std::string reason;                    // for the CPU: why not a GPU ("no CUDA device: …"); empty for cuda
    DeviceLimits limits = cc90_profile();  // the device's own limits replace the profile
    std::shared_ptr<Executor> executor;    // where this backend's launches run
};

// The emulator, chosen without looking for a GPU (tests, and callers with no backend).
BackendChoice cpu_backend(const std::string& reason);

// error: "cuda" asked for and none usable, the reason (exit code 2).
using BackendResult = Outcome<BackendChoice>;

// "cpu", "cuda" or "auto". A device the build has no code for (cuda_arch.hpp) is never chosen.
BackendResult choose_backend(const std::string& requested);

// The architectures this binary carries code for (CMAKE_CUDA_ARCHITECTURES at build time).
const std::vector<CudaArch>& built_architectures();

// What every command does before it runs: choose the backend, then check the launch
// against that backend's limits (a real device's replace the cc 9.0 profile) and the
// emulator's caps. error: one line for stderr, exit code 2.
struct PreparedLaunch {
    BackendChoice backend;
    ResolvedLaunch launch;
};
using PrepareResult = Outcome<PreparedLaunch>;
PrepareResult prepare_launch(const LaunchOptions& options);

}  // namespace threadmap
