// The timing model's view of a spec; see spec_cost.hpp.
#include "kernels/timing/spec_cost.hpp"

#include <algorithm>
#include <chrono>

#include "kernels/occupancy/launch_resources.hpp"
#include "kernels/occupancy/sm_properties.hpp"

namespace threadmap {

namespace {

uint64_t elements_at(const ArraySpec& a, const Params& params, const LaunchConfig& launch) {
    uint64_t n = 1;
    for (const uint64_t d : a.shape(params, launch)) n *= d;
    return n;
}

// The inputs the model starts from (model_emulator.cpp fills them the same way), one word per
// element (8-byte values: two).
KernelSpec::Bits spec_inputs(const KernelSpec& spec, const Params& params, const LaunchConfig& launch) {
    KernelSpec::Bits inputs(spec.arrays.size());
    for (size_t a = 0; a < spec.arrays.size(); ++a) {
        const ArraySpec& array = spec.arrays[a];
        if (array.space != MemorySpace::Global || array.role == ArrayRole::Output || array.role == ArrayRole::Scratch)
            continue;
        inputs[a].resize(elements_at(array, params, launch) * value_words(array.type));
        spec.fill_input(params, a, inputs[a]);
    }
    return inputs;
}

}  // namespace

Outcome<WorkloadCost> spec_cost(const KernelSpec& spec, const Params& params, const LaunchConfig& launch,
                                const TimedProgram& program) {
    if (program.element == ElementType::Float64)
        return {std::nullopt, spec.name +
                                  "'s arrays have the types its CUDA text declares; a float64 program "
                                  "(--dtype float64) is timed for the tutorial's kernels only"};
    WorkloadCost c;
    const bool host_arrays = program.transfers == Transfers::HostArrays;
    for (const ArraySpec& a : spec.arrays) {
        if (a.space == MemorySpace::Shared) continue;
        const uint64_t bytes = elements_at(a, params, launch) * value_bytes(a.type);
        const bool in = a.role == ArrayRole::Input || a.role == ArrayRole::InOut;
        const bool out = a.role == ArrayRole::Output || a.role == ArrayRole::InOut;
        if (host_arrays || in) c.h2d_bytes += bytes;
        if (host_arrays || out) c.d2h_bytes += bytes;
        c.kernel_bytes += (in ? bytes : 0) + (out ? bytes : 0);
        ++c.array_arguments;
    }
    c.flops = spec.flops ? spec.flops(params) : 0;
    c.allocations_per_call = host_arrays ? c.array_arguments : 0;
    return {c, {}};
}

void add_spec_waves(WorkloadCost& cost, const KernelSpec& spec, const Params& params, const LaunchConfig& launch,
                    const DeviceProfile& profile) {
    const SmProperties* sm = find_sm_properties(profile.cc_major, profile.cc_minor);
    if (!sm) return;
    ModelLaunch model_launch;
    model_launch.spec = &spec;
    model_launch.params = params;
    model_launch.launch = launch;
    if (const auto r = launch_resources(model_launch, *sm, std::nullopt, std::nullopt); r.value)
        add_waves(cost, r.value->resources, launch, profile);
}

Outcome<CpuReferenceTiming> time_spec_reference(const KernelSpec& spec, const Params& params,
                                                const LaunchConfig& launch, int repeats, double budget) {
    if (!spec.reference)
        return {std::nullopt, spec.name + " has no CPU reference to time next to it (a learner's kernel has none)"};
    const KernelSpec::Bits inputs = spec_inputs(spec, params, launch);
    const auto once = [&] {
        const auto t0 = std::chrono::steady_clock::now();
        const KernelSpec::Bits out = spec.reference(params, launch, inputs);
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    };
    CpuReferenceTiming t;
    t.implementation = "C++ reference, 1 thread (a check of results, not tuned)";
    const double first = once();  // warms the caches, and says how long a run is
    const int runs = std::clamp(int(budget / std::max(first, 1e-9)), 1, std::max(repeats, 1));
    for (int r = 0; r < runs; ++r) t.seconds.push_back(once());
    const auto cost = spec_cost(spec, params, launch, {});
    t.bytes = cost.value->kernel_bytes;
    t.flops = cost.value->flops;
    return {t, {}};
}

}  // namespace threadmap
