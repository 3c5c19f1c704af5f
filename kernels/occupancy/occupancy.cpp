// The occupancy calculation; see occupancy.hpp. Each function below is one of
// cuda_occupancy.h's, for the compute capabilities of sm_properties.cpp, with the partitioned
// global caching of cc 5.x/6.x left out (no such capability is a build target).
#include "kernels/occupancy/occupancy.hpp"

#include <algorithm>
#include <climits>
#include <span>

namespace threadmap {

namespace {

int divide_round_up(int x, int y) { return (x + y - 1) / y; }
int round_up(int x, int y) { return y * divide_round_up(x, y); }

// cudaOccMaxBlocksPerMultiprocessor. The tuning guide says 32 for cc 12.0; the header says 24
// and the runtime's calculator follows the header.
int max_blocks_per_sm(const SmProperties& sm) {
    switch (sm.major) {
        case 7:
            return sm.minor == 5 ? 16 : 32;
        case 8:
            return sm.minor == 0 ? 32 : sm.minor == 9 ? 24 : 16;
        case 9:
            return 32;
        case 10:
            return sm.minor == 1 ? 24 : 32;
        case 11:
            return sm.minor == 0 ? 24 : 32;
        default:  // 12
            return 24;
    }
}

// cudaOccSMemAllocationGranularity, cudaOccRegAllocationGranularity,
// cudaOccRegAllocationMaxPerThread, cudaOccSubPartitionsPerMultiprocessor for cc 7.0 and up.
int shared_granularity(const SmProperties& sm) { return sm.major >= 8 ? 128 : 256; }
constexpr int kRegisterGranularity = 256;
constexpr int kMaxRegistersPerThread = 256;
constexpr int kSubPartitions = 4;

// cudaOccAlignUpShmemSizeVoltaPlus: the shared memory carveouts an SM can be set to; 0 when
// `bytes` is over the largest.
uint64_t align_up_to_carveout(const SmProperties& sm, uint64_t bytes) {
    static constexpr uint64_t kTuring[] = {32, 64};
    static constexpr uint64_t kVolta[] = {0, 8, 16, 32, 64, 96};
    static constexpr uint64_t kA100[] = {0, 8, 16, 32, 64, 100, 132, 164};
    static constexpr uint64_t kHopper[] = {0, 8, 16, 32, 64, 100, 132, 164, 196, 228};  // and 10.x, 11.x
    static constexpr uint64_t kSmall[] = {0, 8, 16, 32, 64, 100};                       // 8.6, 8.9, 12.x
    std::span<const uint64_t> kb = kSmall;
    if (sm.major == 7)
        kb = sm.minor == 5 ? std::span<const uint64_t>(kTuring) : std::span<const uint64_t>(kVolta);
    else if (sm.major == 8 && (sm.minor == 0 || sm.minor == 7))
        kb = kA100;
    else if (sm.major >= 9 && sm.major <= 11)
        kb = kHopper;
    for (uint64_t k : kb)
        if (bytes <= k * 1024) return k * 1024;
    return 0;
}

// cudaOccMaxBlocksPerSMBlockBarrierLimit (applied from cc 9.0 on).
int barrier_limit(const SmProperties& sm, int block_limit, int barriers) {
    const bool one_per_block = (sm.major == 8 && sm.minor != 0) || (sm.major == 10 && sm.minor == 1) ||
                               (sm.major == 11 && sm.minor == 0) || sm.major == 12;
    const int available = one_per_block ? block_limit : block_limit * 2;
    return barriers > 0 ? available / barriers : INT_MAX;
}

// cudaOccMaxBlocksPerSMRegsLimit: the registers a block takes and the blocks they allow.
// Returns the registers the hardware check asks for (the warps rounded to sub-partitions).
int apply_register_limit(Occupancy& o, const SmProperties& sm, const KernelResources& k) {
    const int regs_per_warp = round_up(k.registers_per_thread * sm.warp_size, kRegisterGranularity);
    o.registers_per_block = regs_per_warp * o.warps_per_block;
    const int regs_hardware_check = regs_per_warp * round_up(o.warps_per_block, kSubPartitions);
    if (sm.regs_per_block < regs_hardware_check || sm.regs_per_block < o.registers_per_block ||
        k.registers_per_thread > kMaxRegistersPerThread)
        o.limit_registers = 0;
    else if (regs_per_warp > 0)
        o.limit_registers = (sm.regs_per_sm / kSubPartitions / regs_per_warp) * kSubPartitions / o.warps_per_block;
    else
        o.limit_registers = INT_MAX;
    return regs_hardware_check;
}

// cudaOccMaxBlocksPerSMSmemLimit, with the attributes the runtime makes from
// cudaFuncAttributes (shmemLimitConfig OPTIN) and a kernel that opted in to as much dynamic
// shared memory as it uses: only the total per block matters then. Returns a block's limit.
uint64_t apply_shared_limit(Occupancy& o, const SmProperties& sm, const KernelResources& k) {
    const uint64_t total = k.shared_bytes_per_block + sm.reserved_shared_per_block;
    const int granularity = shared_granularity(sm);
    o.allocated_shared_per_block = (total + granularity - 1) / granularity * granularity;
    // cudaOccSMemPerBlock: past 48 KB a block needs the opt-in limit (the runtime's default
    // dynamic limit, 48 KB less the static bytes, already asks for it wherever there is a reserve).
    const uint64_t max_usage =
        std::max<uint64_t>(k.shared_bytes_per_block, sm.shared_per_block) + sm.reserved_shared_per_block;
    const uint64_t limit_per_block =
        (max_usage > sm.shared_per_block ? sm.shared_per_block_optin : sm.shared_per_block) +
        sm.reserved_shared_per_block;
    if (o.allocated_shared_per_block > limit_per_block) {
        o.limit_shared = 0;
        return limit_per_block;
    }
    const uint64_t preference = align_up_to_carveout(sm, sm.shared_per_sm);  // the default carveout
    o.shared_per_sm_config = preference >= o.allocated_shared_per_block
                                 ? preference
                                 : align_up_to_carveout(sm, o.allocated_shared_per_block);
    o.limit_shared =
        o.allocated_shared_per_block > 0 ? int(o.shared_per_sm_config / o.allocated_shared_per_block) : INT_MAX;
    return limit_per_block;
}

// Why not one block of this size fits on an SM, in the figures that refuse it.
std::string why_not_launchable(const Occupancy& o, const SmProperties& sm, const KernelResources& k, int block_size,
                               int regs_hardware_check, uint64_t shared_limit_per_block) {
    if (o.limit_warps == 0)
        return std::to_string(block_size) + " threads per block: at most " + std::to_string(sm.max_threads_per_block);
    if (o.limit_registers == 0)
        return std::to_string(k.registers_per_thread) + " registers per thread × " + std::to_string(block_size) +
               " threads need " + std::to_string(std::max(regs_hardware_check, o.registers_per_block)) +
               " registers per block; a block may have " + std::to_string(sm.regs_per_block) +
               (k.registers_per_thread > kMaxRegistersPerThread ? " (and a thread at most 255)" : "");
    return std::to_string(o.allocated_shared_per_block) +
           " bytes of shared memory per block (with the driver's reserve and rounding); a block may have " +
           std::to_string(shared_limit_per_block) + " on compute capability " + sm.name();
}

}  // namespace

Occupancy compute_occupancy(const SmProperties& sm, const KernelResources& k, int block_size) {
    Occupancy o;
    o.max_warps_per_sm = sm.max_threads_per_sm / sm.warp_size;
    o.warps_per_block = divide_round_up(block_size, sm.warp_size);
    const int regs_hardware_check = apply_register_limit(o, sm, k);
    // cudaOccMaxBlocksPerSMWarpsLimit
    o.limit_warps = block_size > sm.max_threads_per_block ? 0 : o.max_warps_per_sm / o.warps_per_block;
    o.limit_blocks = max_blocks_per_sm(sm);
    const uint64_t shared_limit_per_block = apply_shared_limit(o, sm, k);

    int limit = std::min({o.limit_registers, o.limit_shared, o.limit_warps, o.limit_blocks});
    if (limit == o.limit_warps) o.limiters |= kLimitWarps;
    if (limit == o.limit_registers) o.limiters |= kLimitRegisters;
    if (limit == o.limit_shared) o.limiters |= kLimitSharedMemory;
    if (limit == o.limit_blocks) o.limiters |= kLimitBlocks;
    o.limit_barriers = INT_MAX;
    if (sm.major >= 9 && k.barriers > 0) {
        o.limit_barriers = barrier_limit(sm, o.limit_blocks, k.barriers);
        limit = std::min(limit, o.limit_barriers);
        if (limit == o.limit_barriers) o.limiters |= kLimitBarriers;
    }
    o.active_blocks_per_sm = limit;
    o.active_warps_per_sm = limit * o.warps_per_block;
    o.occupancy = o.max_warps_per_sm > 0 ? double(o.active_warps_per_sm) / o.max_warps_per_sm : 0;
    if (limit == 0)
        o.cannot_launch = why_not_launchable(o, sm, k, block_size, regs_hardware_check, shared_limit_per_block);
    return o;
}

const char* main_limiter_name(unsigned limiters) {
    if (limiters & kLimitWarps) return "warps";
    if (limiters & kLimitRegisters) return "registers";
    if (limiters & kLimitSharedMemory) return "shared_memory";
    if (limiters & kLimitBlocks) return "blocks";
    if (limiters & kLimitBarriers) return "barriers";
    return "none";
}

std::string limiter_sentence(const SmProperties& sm, const Occupancy& o, int block_size) {
    if (o.active_blocks_per_sm == 0) return "the block does not fit on an SM: " + o.cannot_launch;
    const std::string blocks =
        std::to_string(o.active_blocks_per_sm) + (o.active_blocks_per_sm == 1 ? " block" : " blocks");
    const std::string empty = o.active_warps_per_sm < o.max_warps_per_sm
                                  ? "; " + std::to_string(o.max_warps_per_sm - o.active_warps_per_sm) + " of its " +
                                        std::to_string(o.max_warps_per_sm) + " warp slots stay empty"
                                  : "; all " + std::to_string(o.max_warps_per_sm) + " warp slots are used";
    const std::string per_block = std::to_string(block_size) + " threads per block (" +
                                  std::to_string(o.warps_per_block) + (o.warps_per_block == 1 ? " warp)" : " warps)");
    const unsigned first = o.limiters & (~o.limiters + 1);  // the lowest bit: cudaOccLimitingFactor's order
    switch (first) {
        case kLimitWarps:
            return per_block + ": an SM's " + std::to_string(o.max_warps_per_sm) + " warp slots hold " + blocks + empty;
        case kLimitRegisters:
            return std::to_string(o.registers_per_block) + " registers per block (" +
                   std::to_string(o.registers_per_block / std::max(1, o.warps_per_block)) +
                   " per warp, allocated in 256s): an SM's " + std::to_string(sm.regs_per_sm) + " registers hold " +
                   blocks + empty;
        case kLimitSharedMemory:
            return std::to_string(o.allocated_shared_per_block) +
                   " bytes of shared memory per block (with the driver's reserve, rounded): an SM's " +
                   std::to_string(o.shared_per_sm_config) + " hold " + blocks + empty;
        case kLimitBlocks:
            return per_block + ": an SM holds at most " + blocks + " on compute capability " + sm.name() + empty;
        default:
            return per_block + ": an SM's barriers allow " + blocks + empty;
    }
}

Waves compute_waves(uint64_t blocks, int active_blocks_per_sm, int sms) {
    Waves w;
    w.blocks = blocks;
    w.slots = uint64_t(std::max(0, active_blocks_per_sm)) * uint64_t(std::max(0, sms));
    if (w.slots == 0 || blocks == 0) return w;
    w.waves = (blocks + w.slots - 1) / w.slots;
    w.last_wave_fill = double(blocks - (w.waves - 1) * w.slots) / double(w.slots);
    return w;
}

}  // namespace threadmap
