// The CPU emulator as an Executor; see executor.hpp.
#include "kernels/emulator/cpu_emulator.hpp"
#include "kernels/core/executor.hpp"

namespace threadmap {

namespace {

class CpuExecutor final : public Executor {
  public:
    std::string name() const override { return "cpu-emulator"; }
    Outcome<LaunchResult> run(const Workload& workload, const LaunchConfig& launch, LaunchResult* previous,
                              const std::atomic<bool>* cancel) override {
        LaunchResult result = previous ? std::move(*previous) : LaunchResult{};  // its buffers, refilled
        if (!emulate_into(workload, launch, result, 0, cancel)) return cancellation();
        return {std::move(result), {}};
    }
    Outcome<void> fetch_map(LaunchResult&) const override { return done(); }  // the emulator's map is on the host
};

}  // namespace

std::unique_ptr<Executor> make_cpu_executor() { return std::make_unique<CpuExecutor>(); }

}  // namespace threadmap
