// The memory view of a kernel-model launch: its loads and stores grouped into warp requests
// and counted the way Nsight Compute counts them (ProfilingGuide, "Memory Tables").
//
// - A request is one execution of one access site by the active lanes of one warp: the n-th
//   execution of the site by each lane in the same iteration of every loop around it and
//   between the same two barriers (a warp runs a loop's iterations together, so a lane whose
//   guard is false in one iteration is inactive in that iteration's request; ModelThread's
//   loop_context). A site is an instruction: a source line, load or
//   store, and the array (a line that loads two arrays has two sites; one that loads an array
//   twice has one site executed twice per thread). Lanes are a block's threads in linear order
//   (x fastest), 32 to a warp. A vector access (a float2 or float4 read or written through a
//   cast) is one access per lane of its width × the element size; the width is part of the
//   site (a line that reads an array both ways has two sites).
// - Global memory: a request's sectors are the distinct 32-byte sectors covering the bytes its
//   active lanes touch; its ideal is ⌈active lanes × element bytes / 32⌉, the sectors its
//   lanes' values fill when contiguous and aligned (the definition; lanes that share
//   an element, as in a broadcast, can take fewer sectors than that). Arrays start 256-byte
//   aligned, as cudaMalloc gives. A vector access lies within one sector (it is aligned to its
//   size, at most 16 bytes).
// - Shared memory: 32 banks of 4-byte words; lanes reading one word share it (broadcast); a
//   request's wavefronts are the most distinct words any one bank serves (n-way conflict = n).
//   A wavefront returns 128 bytes, so a request of 8-byte accesses (a double, a float2) is
//   served as two half-warps (lanes 0-15, 16-31) and one of 16-byte accesses (a float4) as four
//   quarter-warps, each counted so, and its wavefronts are their sum (2 or 4 when none
//   conflicts). Elements of 1 or 2 bytes share words: lanes on one word are a broadcast.
//   A block's __shared__ arrays lie one after another in declaration order from offset 0,
//   each at a multiple of its element size.
// - Constant memory (a learner's __constant__ array): the constant cache serves one address at
//   a time, so a request costs as many as the distinct addresses its active lanes read (every
//   lane on one address, a broadcast: 1) (Programming Guide, "Constant Memory").
// - Atomics are not counted: Nsight counts them apart (op_atom, op_red), not as loads or
//   stores. Out-of-bounds accesses are skipped (they are findings) and leave their lane
//   inactive in that request.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "kernels/model/kernel_spec.hpp"

namespace threadmap {

enum class AccessOp : uint8_t { Load, Store };
const char* access_op_name(AccessOp op);  // "load", "store"

inline constexpr uint32_t kWarpLanes = 32;
inline constexpr uint32_t kSectorBytes = 32;
inline constexpr uint32_t kSharedBanks = 32;

// Where an array's elements lie: their size, and for a __shared__ array the byte of its
// block's shared memory where it starts (a global array starts at a 256-byte boundary).
struct ArrayPlace {
    uint32_t element_bytes = 4;
    uint64_t base_byte = 0;
    // The bank of element i's (first) word.
    uint32_t bank(uint64_t i) const { return uint32_t((base_byte + i * element_bytes) / 4 % kSharedBanks); }
};

// One access site's requests, summed.
struct MemorySite {
    int line = 0;
    AccessOp op = AccessOp::Load;
    size_t array = 0;           // index into the spec's arrays
    uint32_t access_bytes = 4;  // what one lane's access covers: its element, or a vector of them (≤ 16)
    MemorySpace space = MemorySpace::Global;
    uint64_t requests = 0;
    uint64_t active_lanes = 0;            // Σ over requests
    uint64_t sectors = 0;                 // global
    uint64_t ideal_sectors = 0;           // global
    uint64_t wavefronts = 0;              // shared
    uint64_t ideal_wavefronts = 0;        // shared: with no bank conflict (1 a request; 8-byte accesses: 2; 16: 4)
    uint32_t conflict_ways_max = 0;       // shared: the worst bank conflict of one request (1: none)
    uint64_t constant_addresses = 0;      // constant: Σ distinct addresses (the cache serves them one at a time)
    uint32_t constant_addresses_max = 0;  // constant: the most of one request
};

// What the requests that touched one element cost (0: none touched it this way). Cost: the
// most any request touching it needed, sectors for a global array, bank conflict ways for a
// __shared__ one (wavefronts, for 4-byte elements), distinct addresses for a __constant__ one;
// lanes: the fewest active lanes.
struct ElementCost {
    uint8_t load_cost = 0, store_cost = 0;
    uint8_t load_lanes = 0, store_lanes = 0;
};

// One request, as the warp inspector draws it.
struct WarpRequest {
    uint32_t mask = 0;                // active lanes
    uint32_t index[kWarpLanes] = {};  // each active lane's element (a vector access: its first)
    uint32_t width = 1;               // elements each lane's access covers from its index (up to 16 bytes)
};

// A request kept whole for the warp inspector, with the warp of the launch that made it (its
// block's linear index × the block's warps + its warp in the block), the source line of its
// site and its execution (the n-th request the warp's lanes made at that site, from 0).
struct KeptRequest {
    WarpRequest request;
    uint64_t warp = 0;
    int32_t line = 0;
    uint32_t execution = 0;
};
// Kept requests at most (each 152 bytes: 38 MiB); later ones are counted, not kept.
inline constexpr size_t kMaxKeptRequests = size_t(1) << 18;

struct MemoryView {
    std::vector<MemorySite> sites;  // by line, then load before store, then array
    // Per array; a __shared__ array's are its elements in one block (ModelLaunch::shared_block),
    // all zero when none was chosen; empty for arrays other than ModelLaunch::cost_array.
    std::vector<std::vector<ElementCost>> costs;
    // The loads or stores of one array, when the launch asked to keep them (the warp inspector;
    // a __shared__ array's in the mapped block), each warp's in program order (by execution,
    // then line); per element of the array the first that touched it (kNoRequest: none or not
    // kept); kept_capped: there were more than kMaxKeptRequests.
    static constexpr uint32_t kNoRequest = ~uint32_t(0);
    std::vector<KeptRequest> kept_requests;
    std::vector<uint32_t> kept_request_of;
    bool kept_capped = false;
    std::vector<ArrayPlace> places;  // per array: its element size (a __shared__ one: where it lies)
};

// The figures of one request (for the warp inspector and tests). Global: the distinct 32-byte
// sectors of the elements the active lanes touch, of an array starting at a 256-byte
// boundary, and the ideal; shared: wavefronts, of an array at `place`. Each lane touches
// r.width elements from its index.
struct RequestSectors {
    uint32_t sectors = 0, ideal = 0;
};
RequestSectors request_sectors(const WarpRequest& r, uint32_t element_bytes = 4);
struct RequestWavefronts {
    uint32_t wavefronts = 0;
    uint32_t ideal = 0;  // its warp, half- or quarter-warps with lanes active: wavefronts with no conflict
    uint32_t ways = 0;   // the most distinct words one bank serves in one of them (an n-way conflict)
};
RequestWavefronts request_wavefronts(const WarpRequest& r, const ArrayPlace& place);
// Per bank, the distinct words of the request (the bank strip; its most is the wavefronts of
// 4-byte and narrower accesses; wider ones: the distinct words of all its half- or quarter-warps).
std::array<uint32_t, kSharedBanks> bank_words(const WarpRequest& r, const ArrayPlace& place);
inline uint32_t ideal_sectors(uint32_t active_lanes, uint32_t access_bytes = 4) {
    return (active_lanes * access_bytes + kSectorBytes - 1) / kSectorBytes;
}

// Totals of one kind of access over the sites, as Nsight's .sum metrics.
struct MemoryTotals {
    uint64_t requests = 0, sectors = 0, ideal_sectors = 0, wavefronts = 0, ideal_wavefronts = 0, active_lanes = 0;
    uint32_t conflict_ways_max = 0;
    uint64_t constant_addresses = 0;
    uint32_t constant_addresses_max = 0;
};
// The distinct addresses of a request (a __constant__ array's cost).
uint32_t request_addresses(const WarpRequest& r);
MemoryTotals memory_totals(const std::vector<MemorySite>& sites, MemorySpace space, AccessOp op);

}  // namespace threadmap
