// Where launches run, behind one interface: the CPU emulator or a CUDA device. The app
// chooses one executor (backend_choice) and never branches on which it holds.
#pragma once

#include <atomic>
#include <memory>
#include <string>

#include "kernels/core/device_limits.hpp"
#include "kernels/core/launch_result.hpp"
#include "kernels/core/outcome.hpp"

namespace threadmap {

class Executor {
  public:
    virtual ~Executor() = default;
    virtual std::string name() const = 0;  // "cpu-emulator", "cuda:NVIDIA H200"
    // Runs a launch that check_shape, validate_launch (against this executor's limits) and
    // the emulator caps accepted. `previous` may lend its buffers (a window re-running one
    // shape). A failure: the device's own words (Failure::Device) when it refuses or fails, or a
    // cancellation when `cancel` was set while it ran (the window started another launch).
    virtual Outcome<LaunchResult> run(const Workload& workload, const LaunchConfig& launch,
                                      LaunchResult* previous = nullptr, const std::atomic<bool>* cancel = nullptr) = 0;
    // Brings a result's map to the host (result.map) if it is not there yet, or says in the
    // device's words why it could not (Failure::Device; result.map is then still empty).
    virtual Outcome<void> fetch_map(LaunchResult& result) const = 0;
    // Why this executor can run nothing more (a GPU whose context an error poisoned), or
    // empty while it works. The window then switches to the emulator and says why.
    virtual std::string lost() const { return {}; }
};

std::unique_ptr<Executor> make_cpu_executor();
// The CUDA device with that index (cuda_executor.cu; without nvcc, an executor whose every
// run says why there is none).
std::unique_ptr<Executor> make_cuda_executor(int device, const std::string& name);

}  // namespace threadmap
