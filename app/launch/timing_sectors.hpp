// The timing model's figures for a launch (kernels/timing/timing_model.hpp): what one call moves and
// computes, its waves on the profile's GPU, and its global load and store sectors, counted by
// the kernel model's memory view as Nsight Compute counts them, for the element size of the
// timed program. Any kernel: the tutorial's four by their workload, the rest by their spec.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

#include "kernels/core/launch_config.hpp"
#include "app/launch/launch_options.hpp"
#include "kernels/model/model_emulator.hpp"
#include "kernels/timing/timing_model.hpp"
#include "kernels/core/workload.hpp"
#include "kernels/core/outcome.hpp"

namespace threadmap {

// The loads and stores a launch may make for its sectors to be counted (about half a second
// of the model at most, off the window's UI thread); a larger launch's kernel time rests on its
// bytes and flops, and the report says so.
inline constexpr uint64_t kMaxSectorCountAccesses = uint64_t(1) << 26;

// Sets cost.global_sectors (left 0 when the launch makes more than kMaxSectorCountAccesses
// loads and stores, the model cannot run it, or it was cancelled); returns what was counted,
// or why not, as a clause for a report's model sentence. `launch`: the kernel model's launch
// of the timed kernel (its global element size set for the program).
std::string add_sectors(WorkloadCost& cost, ModelLaunch launch, const DeviceProfile& profile,
                        const std::atomic<bool>* cancel = nullptr);
// The same for a tutorial kernel's workload.
std::string add_sectors(WorkloadCost& cost, const Workload& workload, const LaunchConfig& launch,
                        const DeviceProfile& profile, ElementType element, const std::atomic<bool>* cancel = nullptr);

struct LaunchCost {
    WorkloadCost cost;
    std::string sectors;  // the add_sectors clause; empty when they were not asked for
};
// The cost of one call of the launch's program on the profile's GPU, with its waves, and its
// sectors when `count_sectors`. Fails for what the timing model cannot price (a float64 program
// of a kernel whose arrays are declared float32).
Outcome<LaunchCost> launch_cost(const ResolvedLaunch& launch, const TimedProgram& program, const DeviceProfile& profile,
                                bool count_sectors, const std::atomic<bool>* cancel = nullptr);

}  // namespace threadmap
