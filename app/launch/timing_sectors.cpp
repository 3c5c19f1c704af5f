// The timing model's figures for a launch; see timing_sectors.hpp.
#include "app/launch/timing_sectors.hpp"

#include <cstdio>

#include "kernels/timing/spec_cost.hpp"
#include "app/launch/model_launch.hpp"
#include "kernels/occupancy/launch_resources.hpp"
#include "kernels/occupancy/sm_properties.hpp"

namespace threadmap {

namespace {

// The most loads and stores the launch can make, whatever its grid (the kernels are guarded):
// a load and a store per element of an increment; per element of C, a row of A, a column of B
// and the store.
uint64_t most_accesses(const Workload& w) {
    return is_matrix(w.kernel) ? w.rows * w.cols * (2 * w.inner + 1) : 2 * w.n;
}

const std::string kNotCounted = "sectors not counted (";
const std::string kSoBytes = "): the kernel time rests on bytes and flops";

}  // namespace

std::string add_sectors(WorkloadCost& cost, ModelLaunch m, const DeviceProfile& profile,
                        const std::atomic<bool>* cancel) {
    cost.global_sectors = 0;
    m.record_elements = false;
    m.record_requests = true;
    m.max_accesses = kMaxSectorCountAccesses;
    m.phase = ModelLaunch::kAllPhases;
    m.shared_block = UINT64_MAX;
    const auto run = run_model(m, cancel);
    if (!run.value || !run.value->memory) return kNotCounted + run.error + kSoBytes;
    for (const MemorySite& s : run.value->memory->sites)
        if (s.space == MemorySpace::Global) cost.global_sectors += s.sectors;
    char text[120];
    std::snprintf(text, sizeof text, "%.2f MB through L1 at %.1f TB/s", double(cost.global_sectors) * 32 / 1e6,
                  profile.l1_gbps / 1e3);
    return "sectors: " + std::to_string(cost.global_sectors) +
           " global load and store sectors of 32 B, counted for this launch by the memory view (" + text + ")";
}

std::string add_sectors(WorkloadCost& cost, const Workload& w, const LaunchConfig& launch, const DeviceProfile& profile,
                        ElementType element, const std::atomic<bool>* cancel) {
    cost.global_sectors = 0;
    if (most_accesses(w) > kMaxSectorCountAccesses)  // said before running, not after half a second
        return kNotCounted + "the launch makes more than " + std::to_string(kMaxSectorCountAccesses) +
               " loads and stores, too many for the memory view here" + kSoBytes;
    const ModelKernel k = tutorial_model_kernel(w, false);
    ModelLaunch m;
    m.spec = k.spec;
    m.params = k.params;
    m.launch = launch;
    m.global_element_bytes = element == ElementType::Float64 ? 8 : 4;
    return add_sectors(cost, std::move(m), profile, cancel);
}

Outcome<LaunchCost> launch_cost(const ResolvedLaunch& l, const TimedProgram& program, const DeviceProfile& profile,
                                bool count_sectors, const std::atomic<bool>* cancel) {
    LaunchCost c;
    if (!l.model) {
        c.cost = workload_cost(l.workload, program);
        add_waves(c.cost, l.workload, l.launch, profile);
        if (count_sectors) c.sectors = add_sectors(c.cost, l.workload, l.launch, profile, program.element, cancel);
        return {c, {}};
    }
    const ModelKernel& k = *l.model;
    auto cost = spec_cost(*k.spec, k.params, l.launch, program);
    if (!cost.value) return failure_of(cost);
    c.cost = *cost.value;
    const ModelLaunch m = model_launch_for(l);
    if (const SmProperties* sm = find_sm_properties(profile.cc_major, profile.cc_minor))
        if (const auto r = launch_resources(m, *sm, std::nullopt, std::nullopt); r.value)
            add_waves(c.cost, r.value->resources, l.launch, profile);
    if (count_sectors) c.sectors = add_sectors(c.cost, m, profile, cancel);
    return {c, {}};
}

}  // namespace threadmap
