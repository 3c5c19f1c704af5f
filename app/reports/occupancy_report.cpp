// Occupancy reports; see occupancy_report.hpp.
#include "app/reports/occupancy_report.hpp"

#include <algorithm>
#include <climits>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "kernels/cuda/cuda_backend.hpp"
#include "app/launch/device_profiles.hpp"
#include "app/launch/launch_options.hpp"
#include "app/launch/model_launch.hpp"
#include "app/launch/timing_sectors.hpp"

namespace threadmap {

std::string percent_text(double fraction) {
    char text[32];
    std::snprintf(text, sizeof text, "%.4g%%", fraction * 100);
    return text;
}

Outcome<OccupancyGpu> resolve_occupancy_gpu(const std::string& profile, const std::string& cc, const std::string& sms,
                                            bool takes_cc) {
    if (!profile.empty() && !cc.empty()) return {std::nullopt, "give --device-profile or --cc, not both"};
    std::optional<uint64_t> sm_count;
    if (!sms.empty()) {
        const auto n = parse_count(sms, "--sms");
        if (!n.value) return failure_of(n);
        if (*n.value < 1 || *n.value > 4096) return {std::nullopt, "--sms must be from 1 to 4096"};
        sm_count = *n.value;
    }
    OccupancyGpu gpu;
    if (!profile.empty()) {
        const DeviceProfile* p = find_device_profile(profile);
        if (!p)
            return {std::nullopt,
                    "unknown device profile '" + profile + "'; the profiles are: " + device_profile_names()};
        gpu.sm = *find_sm_properties(p->cc_major, p->cc_minor);  // the profile parser checked it
        gpu.sms = p->sms;
        gpu.name = p->name;
        gpu.source = p->gpu_source;
    } else if (!cc.empty()) {
        const SmProperties* sm = find_sm_properties(cc);
        if (!sm)
            return {std::nullopt,
                    "--cc " + cc + " is not a compute capability this build knows; choose " + sm_property_names()};
        if (!sm_count) return {std::nullopt, "--cc needs --sms N, the GPU's number of SMs"};
        gpu.sm = *sm;
        gpu.name = "sm_" + std::to_string(sm->major) + std::to_string(sm->minor);  // as nvcc names it
        gpu.source = "given (--cc, --sms)";
    } else {
        const CudaDevices devices = list_cuda_devices();
        if (devices.devices.empty())
            return {std::nullopt, "occupancy needs a GPU to compute for: --device-profile NAME (" +
                                      device_profile_names() + ")" + (takes_cc ? " or --cc X.Y --sms N" : "") +
                                      " (no CUDA device here: " + devices.reason + ")"};
        const CudaDevice& d = devices.devices.front();
        if (d.cc_major < 7 || d.cc_major > 12)  // the calculator's rules cover 7.x to 12.x
            return {std::nullopt, d.name + " has compute capability " + std::to_string(d.cc_major) + "." +
                                      std::to_string(d.cc_minor) +
                                      ", outside the calculator's 7.x to 12.x; give --cc (" + sm_property_names() +
                                      ") and --sms"};
        gpu.sm = d.sm;  // the device's own figures; the rules by its compute capability
        gpu.sms = d.multiprocessors;
        gpu.name = d.name;
        gpu.source = "this machine's device " + std::to_string(d.index) + " (cudaGetDeviceProperties)";
        gpu.device = d.index;
    }
    if (sm_count) gpu.sms = int(*sm_count);
    if (sm_count && cc.empty()) gpu.source += "; SMs given (--sms)";
    return {gpu, ""};
}

OccupancyReport occupancy_report(const ModelLaunch& launch, const OccupancyGpu& gpu, const LaunchResources& resources) {
    OccupancyReport r;
    r.launch = launch;
    r.gpu = gpu;
    r.resources = resources;
    r.block_size = int(launch.launch.threads_per_block());
    r.occupancy = compute_occupancy(gpu.sm, resources.resources, r.block_size);
    r.waves = compute_waves(launch.launch.blocks(), r.occupancy.active_blocks_per_sm, gpu.sms);
    return r;
}

std::vector<OccupancySweepPoint> occupancy_sweep(const ResolvedLaunch& launch, const OccupancyGpu& gpu,
                                                 const DeviceProfile* profile, const TimedProgram& program) {
    std::vector<OccupancySweepPoint> points;
    const bool two_d = launch.launch.block.y > 1 || launch.launch.block.z > 1;
    for (uint32_t size = 32; size <= 1024; size += 32) {
        ResolvedLaunch resolved = launch;
        resolved.launch.block = two_d ? Dim3{32, size / 32, 1} : Dim3{size, 1, 1};
        // A registry kernel covers its own problem (histogram-shared's n values, not its bins).
        if (resolved.model) {
            resolved.launch.grid = resolved.model->spec->covering_grid(resolved.model->params, resolved.launch.block);
            resolved.workload = model_workload(*resolved.model, resolved.launch);
        } else {
            resolved.launch.grid = covering_grid(resolved.workload, resolved.launch.block);
        }
        const ModelLaunch model_launch = model_launch_for(resolved);
        const auto resources = launch_resources(model_launch, gpu.sm, std::nullopt, std::nullopt);
        if (!resources.value) continue;
        OccupancySweepPoint p;
        p.block_size = int(size);
        p.block = resolved.launch.block;
        p.occupancy = compute_occupancy(gpu.sm, resources.value->resources, p.block_size);
        p.waves = compute_waves(resolved.launch.blocks(), p.occupancy.active_blocks_per_sm, gpu.sms);
        if (profile)  // the timing model's kernel time, its sectors not counted (the sweep is 32 launches)
            if (const auto cost = launch_cost(resolved, program, *profile, false); cost.value)
                p.kernel_seconds = model_times(*profile, cost.value->cost, program, false, false, 1).kernel;
        points.push_back(p);
    }
    return points;
}

nlohmann::json occupancy_sweep_json(const std::vector<OccupancySweepPoint>& sweep) {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& p : sweep)
        list.push_back({{"block_size", p.block_size},
                        {"block", {p.block.x, p.block.y, p.block.z}},
                        {"active_blocks_per_sm", p.occupancy.active_blocks_per_sm},
                        {"occupancy", p.occupancy.occupancy},
                        {"limiter", main_limiter_name(p.occupancy.limiters)},
                        {"blocks", p.waves.blocks},
                        {"waves", p.waves.waves},
                        {"last_wave_fill", p.waves.last_wave_fill},
                        {"kernel_seconds", p.kernel_seconds ? nlohmann::json(*p.kernel_seconds) : nlohmann::json()}});
    return list;
}

std::pair<double, double> sweep_time_range(const std::vector<OccupancySweepPoint>& sweep) {
    double fastest = 0, slowest = 0;
    for (const auto& p : sweep)
        if (p.kernel_seconds) {
            fastest = fastest == 0 ? *p.kernel_seconds : std::min(fastest, *p.kernel_seconds);
            slowest = std::max(slowest, *p.kernel_seconds);
        }
    return {fastest, slowest};
}

std::string sweep_time_sentence(const std::vector<OccupancySweepPoint>& sweep, int block_size) {
    const auto [fastest, slowest] = sweep_time_range(sweep);
    if (slowest == 0) return "";
    int best = 0;
    for (const auto& p : sweep)
        if (p.kernel_seconds && *p.kernel_seconds == fastest) best = p.block_size;
    const auto yours = std::find_if(sweep.begin(), sweep.end(),
                                    [&](const OccupancySweepPoint& p) { return p.block_size == block_size; });
    const std::string head = "Modeled kernel: " + micro_seconds(fastest) + " at " + std::to_string(best) +
                             " threads per block (the fastest), ";
    if (yours == sweep.end() || !yours->kernel_seconds)
        return head + micro_seconds(slowest) + " at the slowest; yours, " + std::to_string(block_size) +
               " threads per block, is not among the sizes swept.";
    return head + micro_seconds(*yours->kernel_seconds) + " at yours, " + micro_seconds(slowest) + " at the slowest.";
}

std::string micro_seconds(double s) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3g us", s * 1e6);
    return text;
}

nlohmann::json occupancy_json(const OccupancyReport& r) {
    const Occupancy& o = r.occupancy;
    const auto limit = [](int v) { return v == INT_MAX ? nlohmann::json() : nlohmann::json(v); };
    nlohmann::json limiters = nlohmann::json::array();
    for (unsigned bit = kLimitWarps; bit <= kLimitBarriers; bit <<= 1)
        if (o.limiters & bit) limiters.push_back(main_limiter_name(bit));
    const Dim3 g = r.launch.launch.grid, b = r.launch.launch.block;
    return {{"kernel", r.launch.spec->name},
            {"launch", {{"grid", {g.x, g.y, g.z}}, {"block", {b.x, b.y, b.z}}}},
            {"device", r.gpu.name},
            {"device_source", r.gpu.source},
            {"compute_capability", r.gpu.sm.name()},
            {"sms", r.gpu.sms},
            {"block_size", r.block_size},
            {"registers_per_thread", r.resources.resources.registers_per_thread},
            {"registers_origin", r.resources.registers_origin},
            {"shared_bytes_per_block", r.resources.resources.shared_bytes_per_block},
            {"shared_origin", r.resources.shared_origin},
            {"allocated_registers_per_block", o.registers_per_block},
            {"allocated_shared_bytes_per_block", o.allocated_shared_per_block},
            {"active_blocks_per_sm", o.active_blocks_per_sm},
            {"active_warps_per_sm", o.active_warps_per_sm},
            {"max_warps_per_sm", o.max_warps_per_sm},
            {"occupancy", o.occupancy},
            {"limiter", main_limiter_name(o.limiters)},
            {"limiters", limiters},
            {"block_limits",
             {{"warps", limit(o.limit_warps)},
              {"registers", limit(o.limit_registers)},
              {"shared_memory", limit(o.limit_shared)},
              {"blocks", limit(o.limit_blocks)},
              {"barriers", limit(o.limit_barriers)}}},
            {"explanation", limiter_sentence(r.gpu.sm, o, r.block_size)},
            {"blocks", r.waves.blocks},
            {"slots", r.waves.slots},
            {"waves", r.waves.waves},
            {"last_wave_fill", r.waves.last_wave_fill},
            {"block_order", kBlockOrderNote},
            {"model", "CUDA's occupancy calculator (cuda_occupancy.h, CUDA 13.0) for this compute capability"}};
}

std::string occupancy_text(const OccupancyReport& r) {
    const Occupancy& o = r.occupancy;
    const auto limit = [](int v) { return v == INT_MAX ? std::string("none") : std::to_string(v); };
    std::string t = r.launch.spec->name + " on grid " + to_string(r.launch.launch.grid) + ", block " +
                    to_string(r.launch.launch.block) + " (" + std::to_string(r.block_size) + " threads)\n";
    t += "GPU: " + r.gpu.name + ", compute capability " + r.gpu.sm.name() + ", " + std::to_string(r.gpu.sms) +
         " SMs (" + r.gpu.source + ")\n";
    t += "registers per thread: " + std::to_string(r.resources.resources.registers_per_thread) + " (" +
         r.resources.registers_origin + ")\n";
    t += "shared memory per block: " + std::to_string(r.resources.resources.shared_bytes_per_block) + " bytes (" +
         r.resources.shared_origin + ")\n";
    t += "blocks per SM: " + std::to_string(o.active_blocks_per_sm) + " (limits: warps " + limit(o.limit_warps) +
         ", registers " + limit(o.limit_registers) + ", shared memory " + limit(o.limit_shared) + ", block slots " +
         limit(o.limit_blocks) + ", barriers " + limit(o.limit_barriers) + ")\n";
    t += "active warps per SM: " + std::to_string(o.active_warps_per_sm) + " of " + std::to_string(o.max_warps_per_sm) +
         ": occupancy " + percent_text(o.occupancy) + "\n";
    t += std::string("limiter: ") + main_limiter_name(o.limiters) + ": " + limiter_sentence(r.gpu.sm, o, r.block_size) +
         "\n";
    if (r.waves.slots > 0) {
        t += "waves: " + std::to_string(r.waves.blocks) + " blocks over " + std::to_string(r.waves.slots) + " slots (" +
             std::to_string(o.active_blocks_per_sm) + " per SM x " + std::to_string(r.gpu.sms) +
             " SMs) = " + std::to_string(r.waves.waves) + (r.waves.waves == 1 ? " wave" : " waves") + ", the last " +
             percent_text(r.waves.last_wave_fill) + " full\n";
        t += std::string("(") + kBlockOrderNote + ")\n";
    }
    return t;
}

}  // namespace threadmap
