// The timing model's figures for a launch; see timing_sectors.hpp.
#include "app/launch/timing_sectors.hpp"

#include <cstdio>

#include "kernels/timing/spec_cost.hpp"
#include "app/launch/model_launch.hpp"

namespace threadmap {

namespace {

// The most loads and stores the launch can make, whatever its grid (the kernels are guarded):
// a load and a store per element of an increment; per element of C, a row of A, a column of B
// and the store.
uint64_t most_accesses(const Workload& workload) {
    return is_matrix(workload.kernel) ? workload.rows * workload.cols * (2 * workload.inner + 1) : 2 * workload.n;
}

const std::string kNotCounted = "sectors not counted (";
const std::string kSoBytes = "): the kernel time rests on bytes and flops";

}  // namespace

std::string add_sectors(WorkloadCost& cost, ModelLaunch model_launch, const DeviceProfile& profile,
                        const std::atomic<bool>* cancel) {
    cost.global_sectors = 0;
    model_launch.record_elements = false;
    model_launch.record_requests = true;
    model_launch.max_accesses = kMaxSectorCountAccesses;
    model_launch.phase = ModelLaunch::kAllPhases;
    model_launch.shared_block = UINT64_MAX;
    const auto run = run_model(model_launch, cancel);
    if (!run.value || !run.value->memory) return kNotCounted + run.error + kSoBytes;
    for (const MemorySite& s : run.value->memory->sites)
        if (s.space == MemorySpace::Global) cost.global_sectors += s.sectors;
    char text[120];
    std::snprintf(text, sizeof text, "%.2f MB through L1 at %.1f TB/s", double(cost.global_sectors) * 32 / 1e6,
                  profile.l1_gbps / 1e3);
    return "sectors: " + std::to_string(cost.global_sectors) +
           " global load and store sectors of 32 B, counted for this launch by the memory view (" + text + ")";
}

std::string add_sectors(WorkloadCost& cost, const Workload& workload, const LaunchConfig& launch,
                        const DeviceProfile& profile, ElementType element, const std::atomic<bool>* cancel) {
    cost.global_sectors = 0;
    if (most_accesses(workload) > kMaxSectorCountAccesses)  // said before running, not after half a second
        return kNotCounted + "the launch makes more than " + std::to_string(kMaxSectorCountAccesses) +
               " loads and stores, too many for the memory view here" + kSoBytes;
    const ModelKernel k = tutorial_model_kernel(workload, false);
    ModelLaunch model_launch;
    model_launch.spec = k.spec;
    model_launch.params = k.params;
    model_launch.launch = launch;
    model_launch.global_element_bytes = element == ElementType::Float64 ? 8 : 4;
    return add_sectors(cost, std::move(model_launch), profile, cancel);
}

Outcome<LaunchCost> launch_cost(const ResolvedLaunch& resolved, const TimedProgram& program,
                                const DeviceProfile& profile, bool count_sectors, const std::atomic<bool>* cancel) {
    LaunchCost c;
    if (!resolved.model) {
        c.cost = workload_cost(resolved.workload, program);
        add_waves(c.cost, resolved.workload, resolved.launch, profile);
        if (count_sectors)
            c.sectors = add_sectors(c.cost, resolved.workload, resolved.launch, profile, program.element, cancel);
        return {c, {}};
    }
    const ModelKernel& k = *resolved.model;
    auto cost = spec_cost(*k.spec, k.params, resolved.launch, program);
    if (!cost.value) return failure_of(cost);
    c.cost = *cost.value;
    add_spec_waves(c.cost, *k.spec, k.params, resolved.launch, profile);
    if (count_sectors) c.sectors = add_sectors(c.cost, model_launch_for(resolved), profile, cancel);
    return {c, {}};
}

}  // namespace threadmap
