// The sectors of the timing model (kernels/timing_model.hpp): the launch of a tutorial kernel
// run through the kernel model's memory view, its global load and store sectors counted as
// Nsight Compute counts them, for the element size of the timed program.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

#include "launch_config.hpp"
#include "timing_model.hpp"
#include "workload.hpp"

namespace threadmap {

// The loads and stores a launch may make for its sectors to be counted (about half a second
// of the model at most, off the window's UI thread); a larger launch's kernel time rests on its
// bytes and flops, and the report says so.
inline constexpr uint64_t kMaxSectorCountAccesses = uint64_t(1) << 26;

// Sets cost.global_sectors (left 0 when the launch makes more than kMaxSectorCountAccesses
// loads and stores, the model cannot run it, or it was cancelled); returns what was counted,
// or why not, as a clause for a report's model sentence.
std::string add_sectors(WorkloadCost& cost, const Workload& w, const LaunchConfig& launch, const DeviceProfile& profile,
                        ElementType element, const std::atomic<bool>* cancel = nullptr);

}  // namespace threadmap
