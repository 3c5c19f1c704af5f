// The timing model's sectors; see timing_sectors.hpp.
#include "timing_sectors.hpp"

#include <cstdio>

#include "launch_options.hpp"
#include "model/model_emulator.hpp"

namespace threadmap {

namespace {

// The most loads and stores the launch can make, whatever its grid (the kernels are guarded):
// a load and a store per element of an increment; per element of C, a row of A, a column of B
// and the store.
uint64_t most_accesses(const Workload& w) {
    return is_matrix(w.kernel) ? w.rows * w.cols * (2 * w.inner + 1) : 2 * w.n;
}

}  // namespace

std::string add_sectors(WorkloadCost& cost, const Workload& w, const LaunchConfig& launch, const DeviceProfile& profile,
                        ElementType element, const std::atomic<bool>* cancel) {
    cost.global_sectors = 0;
    const std::string not_counted = "sectors not counted (";
    const std::string so = "): the kernel time rests on bytes and flops";
    if (most_accesses(w) > kMaxSectorCountAccesses)
        return not_counted + "the launch makes more than " + std::to_string(kMaxSectorCountAccesses) +
               " loads and stores, too many for the memory view here" + so;
    const ModelKernel k = tutorial_model_kernel(w, false);
    ModelLaunch m;
    m.spec = k.spec;
    m.params = k.params;
    m.launch = launch;
    m.record_elements = false;
    m.record_requests = true;
    m.global_element_bytes = element == ElementType::Float64 ? 8 : 4;
    const auto run = run_model(m, cancel);
    if (!run.value || !run.value->memory) return not_counted + run.error + so;
    for (const MemorySite& s : run.value->memory->sites)
        if (s.space == MemorySpace::Global) cost.global_sectors += s.sectors;
    char text[120];
    std::snprintf(text, sizeof text, "%.2f MB through L1 at %.1f TB/s", double(cost.global_sectors) * 32 / 1e6,
                  profile.l1_gbps / 1e3);
    return "sectors: " + std::to_string(cost.global_sectors) +
           " global load and store sectors of 32 B, counted for this launch by the memory view (" + text + ")";
}

}  // namespace threadmap
