// The timing model, for machines without a GPU: a device profile's bandwidths and
// latencies (each cited in assets/devices/*.json) turned into seconds. Stated as used:
//   copy   = copy latency + bytes ÷ host-link bandwidth (pinned or pageable)
//   kernel = launch latency + max(bytes ÷ memory bandwidth, flops ÷ FP32 peak)
//   first launch = start-up (context, module load) + kernel
#pragma once

#include <map>
#include <string>

#include "workload.hpp"

namespace threadmap {

struct DeviceProfile {
    std::string name;   // the file's base name, what --device-profile takes
    std::string title;  // "NVIDIA H200 (data centre, PCIe Gen5 x16 host link)"
    double pinned_gbps = 0, pageable_gbps = 0, copy_latency_s = 0;
    double memory_gbps = 0, fp32_gflops = 0, launch_latency_s = 0, startup_s = 0;
    std::map<std::string, std::string> sources;  // field → where its number comes from
};

// What a launch of w moves and computes: what a learner copies in (increment's array, or A
// and B) and out (the array, or C), what the kernel reads and writes, and its arithmetic.
struct WorkloadCost {
    uint64_t h2d_bytes = 0;
    uint64_t d2h_bytes = 0;
    uint64_t kernel_bytes = 0;
    double flops = 0;  // matmul: 2·rows·cols·inner; increment: n
};
WorkloadCost workload_cost(const Workload& w);

struct ModeledTimes {
    double h2d = 0, kernel = 0, d2h = 0, first_launch = 0;  // seconds
};
double modeled_copy_seconds(const DeviceProfile& p, uint64_t bytes, bool pinned);
double modeled_kernel_seconds(const DeviceProfile& p, const WorkloadCost& c);
ModeledTimes model_times(const DeviceProfile& p, const WorkloadCost& c, bool pinned);

}  // namespace threadmap
