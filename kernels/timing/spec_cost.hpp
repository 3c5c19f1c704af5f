// The timing model's view of any kernel of the registry (or a learner's): what one call moves
// across the host link and through DRAM, from the spec's global arrays at this launch, and the
// arithmetic its spec declares. The tutorial's four kernels have workload_cost (timing_model.hpp),
// which also prices float64 programs; a spec's arrays have the types its CUDA text declares.
#pragma once

#include <string>

#include "kernels/timing/cpu_reference.hpp"
#include "kernels/model/kernel_spec.hpp"
#include "kernels/core/outcome.hpp"
#include "kernels/timing/timing_model.hpp"

namespace threadmap {

// Inputs are copied in and outputs back (in-out arrays both ways; numba's host arrays: every
// array both ways, allocated every call); the kernel reads each input once, writes each output
// once and does both to an in-out array, as workload_cost counts increment's a. A program in
// float64 is refused: the spec's arrays are what its text declares.
Outcome<WorkloadCost> spec_cost(const KernelSpec& spec, const Params& params, const LaunchConfig& launch,
                                const TimedProgram& program);

// The launch's waves on the profile's GPU (add_waves), from what a block of the spec asks of
// an SM: registers as nvcc allocated them, its shared arrays at this block. Left uncounted when
// the build has no figures for the profile's architecture.
void add_spec_waves(WorkloadCost& cost, const KernelSpec& spec, const Params& params, const LaunchConfig& launch,
                    const DeviceProfile& profile);

// The spec's C++ reference (what its outputs must equal), timed on this CPU on its own inputs,
// once to warm up and then `repeats` times, fewer when each run is long (about `budget`
// seconds in all). Refused for a spec with no reference (a learner's kernel).
Outcome<CpuReferenceTiming> time_spec_reference(const KernelSpec& spec, const Params& params,
                                                const LaunchConfig& launch, int repeats, double budget = 0.2);

}  // namespace threadmap
