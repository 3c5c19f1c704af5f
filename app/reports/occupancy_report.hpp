// Occupancy and waves of one launch on one GPU, for `threadmap occupancy`, `render --color
// sm|wave` and the window's Occupancy tab: the GPU (a device profile, a compute capability and
// SM count, or the real device), the kernel's resources with their origins, the calculator's
// result, and the same as JSON (a contract for scripts) or text.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <utility>
#include <vector>
#include <string>

#include "kernels/occupancy/launch_resources.hpp"
#include "app/launch/launch_options.hpp"
#include "kernels/occupancy/occupancy.hpp"
#include "kernels/timing/timing_model.hpp"

namespace threadmap {

struct OccupancyGpu {
    SmProperties sm;
    int sms = 0;
    std::string name;           // "h200", "sm_86" (--cc 8.6), or the real device's name
    std::string source;         // where the SM count (and the compute capability) come from
    std::optional<int> device;  // this machine's CUDA device, when it is the GPU
};

// profile: --device-profile; cc and sms: --cc and --sms as text (empty: not given). With none
// of them, the first real CUDA device, if there is one, with its own properties. `takes_cc`:
// the command has --cc and --sms, which the message without a device then names (render has not).
Outcome<OccupancyGpu> resolve_occupancy_gpu(const std::string& profile, const std::string& cc, const std::string& sms,
                                            bool takes_cc = true);

struct OccupancyReport {
    ModelLaunch launch;
    OccupancyGpu gpu;
    LaunchResources resources;
    int block_size = 0;
    Occupancy occupancy;
    Waves waves;
};

OccupancyReport occupancy_report(const ModelLaunch& launch, const OccupancyGpu& gpu, const LaunchResources& resources);

// The block-size sweep the Occupancy tab draws: the same launch with 32, 64, …, 1024 threads
// per block ((32, n/32) for 2D blocks) and the grid that covers the data, on the same GPU.
struct OccupancySweepPoint {
    int block_size = 0;
    Dim3 block;
    Occupancy occupancy;
    Waves waves;
    std::optional<double> kernel_seconds;  // modeled on the profile: launch + roofline × the waves' factor
};
// profile: for the modeled kernel times (none: no times).
std::vector<OccupancySweepPoint> occupancy_sweep(const ResolvedLaunch& launch, const OccupancyGpu& gpu,
                                                 const DeviceProfile* profile, const TimedProgram& program);
nlohmann::json occupancy_sweep_json(const std::vector<OccupancySweepPoint>& sweep);
// The modeled kernel's fastest and slowest time over a sweep (0 when none has one).
std::pair<double, double> sweep_time_range(const std::vector<OccupancySweepPoint>& sweep);
// The sweep's fastest time and its block size, the time at `block_size` (threads per block; one
// the sweep does not try, as 16 is not a whole number of warps, is said to be none of its sizes)
// and the slowest: "" where the sweep has no times.
std::string sweep_time_sentence(const std::vector<OccupancySweepPoint>& sweep, int block_size);
// `s` seconds in microseconds, 3 significant digits ("5.26 us").
std::string micro_seconds(double s);

nlohmann::json occupancy_json(const OccupancyReport& r);
// 0.5 → "50%", 0.003788 → "0.3788%": four significant digits, as the text and the tab print.
std::string percent_text(double fraction);
std::string occupancy_text(const OccupancyReport& r);

// Said wherever blocks are placed on SMs.
inline constexpr const char* kBlockOrderNote =
    "one possible order: blocks dealt to the SMs in blockIdx order, wave after wave; CUDA does not document the "
    "real order";

}  // namespace threadmap
