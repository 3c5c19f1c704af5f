// The timing model, for machines without a GPU: a device profile's figures (each cited in
// assets/devices/*.json, or labelled "assumed" with the reason) turned into seconds for the
// program the learner is shown (the Code tab prints the same program). Stated as used:
//   allocation = allocations per call × one cudaMalloc/cudaFree (numba given host arrays
//                allocates every array on every call; explicit programs allocate once, untimed)
//   copy       = copy latency + bytes ÷ host-link bandwidth (pinned or pageable)
//   kernel     = launch cost + max(bytes ÷ (memory bandwidth × achievable fraction),
//                                  sectors × 32 B ÷ L1 bandwidth,
//                                  flops ÷ FP32 or FP64 peak) × waves ÷ (blocks ÷ slots):
//                bytes: each array once (what DRAM moves when the caches keep the reuse);
//                sectors: the 32-byte sectors the warps' global loads and stores request, as
//                Nsight Compute counts them (the memory view), each passing through the SM's
//                L1 at its bandwidth — so an uncoalesced kernel takes longer than its
//                coalesced twin although both move the same bytes from DRAM;
//                every wave costs what a full one does, so 1.01 waves cost two (slots =
//                active blocks per SM × SMs, by CUDA's occupancy calculator)
//                launch cost: CUDA C++'s, or numba's base + per array argument
//   resident   : R launches back to back on device data cost max(launch, kernel) each —
//                launches are asynchronous — instead of launch + kernel
//   first call = context creation + module load (+ numba's compile) + one launch and kernel
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "kernels/core/launch_config.hpp"
#include "kernels/core/workload.hpp"

namespace threadmap {

struct KernelResources;  // occupancy/occupancy.hpp

// What the timed program does, which decides what crosses the host link and how fast the
// arithmetic runs.
enum class HostLanguage { CudaCpp, Numba };
enum class ElementType { Float32, Float64 };
// HostArrays: numpy arrays passed straight to a numba kernel: numba allocates every array on
// the device, copies it in and copies it back on every call (it cannot know which ones the
// kernel wrote). Explicit: inputs copied in (cudaMemcpy, cuda.to_device), the output back.
enum class Transfers { Explicit, HostArrays };

struct TimedProgram {
    HostLanguage language = HostLanguage::CudaCpp;
    ElementType element = ElementType::Float32;
    Transfers transfers = Transfers::Explicit;
    bool operator==(const TimedProgram& o) const {  // spelled out: nvcc compiles this header as C++17
        return language == o.language && element == o.element && transfers == o.transfers;
    }
};
// "cuda" | "numba", "float32" | "float64", "explicit" | "host-arrays"; nullopt: unknown.
std::optional<HostLanguage> parse_language(const std::string& s);
std::optional<ElementType> parse_element(const std::string& s);
std::optional<Transfers> parse_transfers(const std::string& s);
const char* language_name(HostLanguage l);
const char* element_name(ElementType e);
const char* transfers_name(Transfers t);
std::string describe(const TimedProgram& p);  // "numba, float64, host arrays (copied in and back every call)"

struct DeviceProfile {
    std::string name;   // the file's base name, what --device-profile takes
    std::string title;  // "NVIDIA H200 (data centre, PCIe Gen5 x16 host link)"
    double pinned_gbps = 0, pageable_gbps = 0, copy_latency_s = 0;
    double memory_gbps = 0, memory_efficiency = 1, fp32_gflops = 0, fp64_gflops = 0;
    double l1_gbps = 0;  // what the SMs' L1 caches return, all SMs together
    double launch_latency_s = 0, numba_launch_s = 0, numba_launch_per_array_s = 0, alloc_s = 0;
    double context_s = 0, module_s = 0, numba_compile_s = 0;
    // The GPU for occupancy and waves: its compute capability ("9.0") and SM count, with source.
    int cc_major = 0, cc_minor = 0, sms = 0;
    std::string gpu_source;
    std::map<std::string, std::string> sources;               // field → where its number comes from
    std::map<std::string, std::pair<double, double>> ranges;  // field → (low, high), where a profile gives one
};

// Every number of a profile: its JSON key, the member, and whether a higher value makes the
// GPU faster (bandwidths, peaks) or slower (latencies, costs). Parser and bounds share it.
struct ProfileField {
    const char* key;
    double DeviceProfile::*value;
    bool higher_is_faster;
};
const std::vector<ProfileField>& profile_fields();

// The profile with every ranged figure at the end that favours the GPU (fast) or the CPU.
DeviceProfile profile_at_bound(const DeviceProfile& p, bool gpu_fast);

// What one call of the program moves and computes.
struct WorkloadCost {
    uint64_t h2d_bytes = 0;
    uint64_t d2h_bytes = 0;
    uint64_t kernel_bytes = 0;  // read and written by the kernel, each array once
    // The launch's global load and store sectors (add_sectors); 0: not counted, and the
    // kernel's time rests on its bytes and flops.
    uint64_t global_sectors = 0;
    double flops = 0;                     // matmul: 2·rows·cols·inner; increment: n
    bool fp64 = false;                    // the arithmetic runs at FP64 peak
    unsigned allocations_per_call = 0;    // numba host arrays: one per array
    unsigned array_arguments = 0;         // what numba's launch cost grows with
    uint64_t blocks = 0, wave_slots = 0;  // the launch's waves (0: not accounted)
};
WorkloadCost workload_cost(const Workload& workload, const TimedProgram& program = {});
// The launch's blocks and the profile GPU's block slots for this kernel (registers as nvcc
// allocated them for its compute capability); left at 0 when the profile names no GPU.
void add_waves(WorkloadCost& cost, const Workload& workload, const LaunchConfig& launch, const DeviceProfile& p);
// The same for any kernel, from what a block of it asks of an SM (launch_resources.hpp).
void add_waves(WorkloadCost& cost, const KernelResources& kernel, const LaunchConfig& launch, const DeviceProfile& p);
// waves × slots ÷ blocks (≥ 1): what the kernel's time is multiplied by; 1 when not accounted.
double wave_factor(const WorkloadCost& cost);

struct ModeledTimes {
    double alloc = 0, h2d = 0, kernel = 0, d2h = 0;  // seconds per call (kernel: per launch)
    double context = 0, module = 0, compile = 0;     // the first call's one-off parts
    double first_launch = 0;                         // their sum + one launch and kernel
};
double modeled_copy_seconds(const DeviceProfile& p, uint64_t bytes, bool pinned);
double modeled_launch_seconds(const DeviceProfile& p, const WorkloadCost& c, HostLanguage language);
double modeled_kernel_seconds(const DeviceProfile& p, const WorkloadCost& c);  // execution, no launch
// resident with repeats > 1: launches back to back (max of launch and kernel per launch).
ModeledTimes model_times(const DeviceProfile& p, const WorkloadCost& c, const TimedProgram& program, bool pinned,
                         bool resident = false, int repeats = 1);

}  // namespace threadmap
