// The timing model; see timing_model.hpp.
#include "kernels/timing/timing_model.hpp"

#include "kernels/builtin/compiled_resources.hpp"
#include "kernels/occupancy/occupancy.hpp"

#include <algorithm>

namespace threadmap {

std::optional<HostLanguage> parse_language(const std::string& s) {
    if (s == "cuda") return HostLanguage::CudaCpp;
    if (s == "numba") return HostLanguage::Numba;
    return std::nullopt;
}
std::optional<ElementType> parse_element(const std::string& s) {
    if (s == "float32") return ElementType::Float32;
    if (s == "float64") return ElementType::Float64;
    return std::nullopt;
}
std::optional<Transfers> parse_transfers(const std::string& s) {
    if (s == "explicit") return Transfers::Explicit;
    if (s == "host-arrays") return Transfers::HostArrays;
    return std::nullopt;
}
const char* language_name(HostLanguage l) { return l == HostLanguage::Numba ? "numba" : "cuda"; }
const char* element_name(ElementType e) { return e == ElementType::Float64 ? "float64" : "float32"; }
const char* transfers_name(Transfers t) { return t == Transfers::HostArrays ? "host-arrays" : "explicit"; }

std::string describe(const TimedProgram& p) {
    const std::string language = p.language == HostLanguage::Numba ? "numba" : "CUDA C++";
    const std::string transfers = p.transfers == Transfers::HostArrays
                                      ? "host arrays (every array allocated, copied in and back on every call)"
                                      : "explicit copies (inputs in, the result back)";
    return language + ", " + element_name(p.element) + ", " + transfers;
}

const std::vector<ProfileField>& profile_fields() {
    static const std::vector<ProfileField> fields = {
        {"pinned_gbps", &DeviceProfile::pinned_gbps, true},
        {"pageable_gbps", &DeviceProfile::pageable_gbps, true},
        {"copy_latency_s", &DeviceProfile::copy_latency_s, false},
        {"memory_gbps", &DeviceProfile::memory_gbps, true},
        {"memory_efficiency", &DeviceProfile::memory_efficiency, true},
        {"fp32_gflops", &DeviceProfile::fp32_gflops, true},
        {"fp64_gflops", &DeviceProfile::fp64_gflops, true},
        {"l1_gbps", &DeviceProfile::l1_gbps, true},
        {"launch_latency_s", &DeviceProfile::launch_latency_s, false},
        {"numba_launch_s", &DeviceProfile::numba_launch_s, false},
        {"numba_launch_per_array_s", &DeviceProfile::numba_launch_per_array_s, false},
        {"alloc_s", &DeviceProfile::alloc_s, false},
        {"context_s", &DeviceProfile::context_s, false},
        {"module_s", &DeviceProfile::module_s, false},
        {"numba_compile_s", &DeviceProfile::numba_compile_s, false},
    };
    return fields;
}

DeviceProfile profile_at_bound(const DeviceProfile& p, bool gpu_fast) {
    DeviceProfile b = p;
    for (const ProfileField& f : profile_fields()) {
        const auto r = p.ranges.find(f.key);
        if (r == p.ranges.end()) continue;
        b.*f.value = gpu_fast == f.higher_is_faster ? r->second.second : r->second.first;
    }
    return b;
}

WorkloadCost workload_cost(const Workload& workload, const TimedProgram& program) {
    WorkloadCost c;
    const uint64_t e = program.element == ElementType::Float64 ? 8 : 4;
    const bool host_arrays = program.transfers == Transfers::HostArrays;
    c.fp64 = program.element == ElementType::Float64;
    if (is_matrix(workload.kernel)) {
        const uint64_t a = workload.a_rows * workload.inner * e, b = workload.inner * workload.b_cols * e,
                       out = workload.rows * workload.cols * e;
        c.h2d_bytes = host_arrays ? a + b + out : a + b;
        c.d2h_bytes = host_arrays ? a + b + out : out;
        c.kernel_bytes = a + b + out;
        c.flops = 2.0 * double(workload.rows) * double(workload.cols) * double(workload.inner);
        c.array_arguments = 3;
    } else {
        c.h2d_bytes = c.d2h_bytes = workload.n * e;
        c.kernel_bytes = 2 * workload.n * e;  // read and written
        c.flops = double(workload.n);
        c.array_arguments = 1;
    }
    c.allocations_per_call = host_arrays ? c.array_arguments : 0;
    return c;
}

double modeled_copy_seconds(const DeviceProfile& p, uint64_t bytes, bool pinned) {
    return p.copy_latency_s + double(bytes) / ((pinned ? p.pinned_gbps : p.pageable_gbps) * 1e9);
}

double modeled_launch_seconds(const DeviceProfile& p, const WorkloadCost& c, HostLanguage language) {
    return language == HostLanguage::Numba ? p.numba_launch_s + p.numba_launch_per_array_s * c.array_arguments
                                           : p.launch_latency_s;
}

void add_waves(WorkloadCost& c, const Workload& workload, const LaunchConfig& launch, const DeviceProfile& p) {
    const SmProperties* sm = find_sm_properties(p.cc_major, p.cc_minor);
    const CompiledResources* compiled =
        sm ? find_compiled_resources(std::string(kernel_name(workload.kernel)), sm->sm()) : nullptr;
    if (compiled) add_waves(c, KernelResources{compiled->registers, 0, 1}, launch, p);
}

void add_waves(WorkloadCost& c, const KernelResources& kernel, const LaunchConfig& launch, const DeviceProfile& p) {
    const SmProperties* sm = find_sm_properties(p.cc_major, p.cc_minor);
    if (!sm || p.sms <= 0) return;
    const Occupancy o = compute_occupancy(*sm, kernel, int(launch.threads_per_block()));
    const Waves waves = compute_waves(launch.blocks(), o.active_blocks_per_sm, p.sms);
    c.blocks = waves.blocks;
    c.wave_slots = waves.slots;
}

double wave_factor(const WorkloadCost& c) {
    if (c.blocks == 0 || c.wave_slots == 0) return 1;
    const uint64_t waves = (c.blocks + c.wave_slots - 1) / c.wave_slots;
    return double(waves) * double(c.wave_slots) / double(c.blocks);
}

double modeled_kernel_seconds(const DeviceProfile& p, const WorkloadCost& c) {
    const double peak = c.fp64 ? p.fp64_gflops : p.fp32_gflops;
    const double dram = double(c.kernel_bytes) / (p.memory_gbps * p.memory_efficiency * 1e9);
    const double l1 = p.l1_gbps > 0 ? double(c.global_sectors) * 32 / (p.l1_gbps * 1e9) : 0;
    return std::max({dram, l1, c.flops / (peak * 1e9)}) * wave_factor(c);
}

ModeledTimes model_times(const DeviceProfile& p, const WorkloadCost& c, const TimedProgram& program, bool pinned,
                         bool resident, int repeats) {
    ModeledTimes t;
    t.alloc = c.allocations_per_call * p.alloc_s;
    t.h2d = modeled_copy_seconds(p, c.h2d_bytes, pinned);
    t.d2h = modeled_copy_seconds(p, c.d2h_bytes, pinned);
    const double launch = modeled_launch_seconds(p, c, program.language);
    const double run = modeled_kernel_seconds(p, c);
    t.kernel = resident && repeats > 1 ? std::max(launch, run) : launch + run;
    t.context = p.context_s;
    t.module = p.module_s;
    t.compile = program.language == HostLanguage::Numba ? p.numba_compile_s : 0;
    t.first_launch = t.context + t.module + t.compile + launch + run;
    return t;
}

}  // namespace threadmap
