// CUDA's warp-level functions (__shfl_sync and its kin, the votes, __reduce_*_sync,
// __match_*_sync, __syncwarp) as the kernel model runs them. A lane that calls one waits (its
// fiber yields) until every non-exited lane its mask names waits at one of the same kind with
// the same mask, as PTX's .sync instructions say; then the collective completes at once for
// all of them. What a lane gets is PTX's rule (shfl.sync's source lane, clamped to its
// segment). This file holds the rules; the emulator (model_emulator.cpp) holds the waiting.
#pragma once

#include <cstdint>
#include <vector>

#include "kernels/model/memory_view.hpp"  // kWarpLanes

namespace threadmap {

// The numbers prelude.cuh passes for learners' kernels.
enum class WarpOp : uint8_t {
    Sync = 0,  // __syncwarp: orders the members' memory accesses
    ShflIdx = 1,
    ShflUp = 2,
    ShflDown = 3,
    ShflXor = 4,
    Ballot = 5,
    Any = 6,
    All = 7,
    Uni = 8,
    ReduceAdd = 9,
    ReduceMin = 10,  // int
    ReduceMax = 11,
    ReduceMinUnsigned = 12,
    ReduceMaxUnsigned = 13,
    ReduceAnd = 14,
    ReduceOr = 15,
    ReduceXor = 16,
    MatchAny = 17,
    MatchAll = 18,
};

const char* warp_op_name(WarpOp op);  // "__shfl_down_sync"

// One lane's call, kept while it waits for the others.
struct WarpCall {
    WarpOp op = WarpOp::Sync;
    uint32_t mask = 0;
    uint64_t value = 0;   // the value's bits (shuffles, matches), the predicate (votes), the operand (reductions)
    uint32_t arg = 0;     // shuffles: the source lane, the delta or the lane mask
    uint32_t width = 32;  // shuffles
    int line = 0;
    uint64_t result = 0;  // set when the collective completes
};

// The lane a shuffle by `lane` reads from, by PTX's shfl.sync rule: the 5 low bits of `arg`,
// a segment of `width` lanes; out of the segment (the last lanes of a __shfl_down_sync), the
// lane itself.
uint32_t shuffle_source(WarpOp op, uint32_t lane, uint32_t arg, uint32_t width);

// A member whose shuffle reads a lane that does not take part: its value is undefined on a
// GPU (the model gives it its own value).
struct UndefinedSource {
    uint32_t lane = kWarpLanes;  // kWarpLanes: none
    uint32_t source = 0;
    uint32_t lanes = 0;  // every such member, a bit per lane
};

// Completes a collective of the warp whose lanes' calls are `calls[0..32)` (lanes past the
// block's last thread have none): `members` (a bit per lane) are the lanes taking part, every
// one waiting at a call of the same kind with the same mask. Sets each member's result; returns
// the first member whose shuffle source is not a member, and all of them.
UndefinedSource complete_warp_call(WarpCall* calls, uint32_t members);

// Which of a block's accesses __syncwarp() orders: a vector clock per thread over its warp's
// lanes, so that an order through a third lane counts too. Stamps are the emulator's sync
// epochs (a new one after each barrier and each __syncwarp).
class WarpOrder {
  public:
    void reset(uint32_t threads);  // a new block: nothing ordered
    // A __syncwarp completes, its new epoch `epoch`, for `members` of the warp whose first thread
    // (in the block) is `first`.
    void sync(uint32_t first, uint32_t members, uint32_t epoch);
    // Whether an access thread `earlier` made at `stamp` is ordered before where thread `now`
    // is (threads' indices in the block) by __syncwarp()s.
    bool ordered(uint32_t earlier, uint32_t now, uint32_t stamp) const {
        return !clock_.empty() && earlier / kWarpLanes == now / kWarpLanes &&
               clock_[size_t(now) * kWarpLanes + earlier % kWarpLanes] > stamp;
    }

  private:
    std::vector<uint32_t> clock_;  // [thread · 32 + lane]: the last epoch of lane's known to thread
};

}  // namespace threadmap
