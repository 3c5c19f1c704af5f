// CUDA's warp-level functions in the kernel model; see warp_collective.hpp.
#include "kernels/model/warp_collective.hpp"

#include <algorithm>
#include <bit>

namespace threadmap {

const char* warp_op_name(WarpOp op) {
    switch (op) {
        case WarpOp::Sync:
            return "__syncwarp";
        case WarpOp::ShflIdx:
            return "__shfl_sync";
        case WarpOp::ShflUp:
            return "__shfl_up_sync";
        case WarpOp::ShflDown:
            return "__shfl_down_sync";
        case WarpOp::ShflXor:
            return "__shfl_xor_sync";
        case WarpOp::Ballot:
            return "__ballot_sync";
        case WarpOp::Any:
            return "__any_sync";
        case WarpOp::All:
            return "__all_sync";
        case WarpOp::Uni:
            return "__uni_sync";
        case WarpOp::ReduceAdd:
            return "__reduce_add_sync";
        case WarpOp::ReduceMin:
        case WarpOp::ReduceMinUnsigned:
            return "__reduce_min_sync";
        case WarpOp::ReduceMax:
        case WarpOp::ReduceMaxUnsigned:
            return "__reduce_max_sync";
        case WarpOp::ReduceAnd:
            return "__reduce_and_sync";
        case WarpOp::ReduceOr:
            return "__reduce_or_sync";
        case WarpOp::ReduceXor:
            return "__reduce_xor_sync";
        case WarpOp::MatchAny:
            return "__match_any_sync";
        case WarpOp::MatchAll:
            return "__match_all_sync";
    }
    return "?";
}

uint32_t shuffle_source(WarpOp op, uint32_t lane, uint32_t arg, uint32_t width) {
    // CUDA's intrinsics pass c = ((32 - width) << 8) | clamp, the clamp 31 but for up (0):
    // segmask = c[12:8], clamp = c[4:0] (PTX ISA, shfl.sync).
    const int32_t segmask = int32_t((kWarpLanes - width) & 31u);
    const int32_t clamp = op == WarpOp::ShflUp ? 0 : 31;
    const int32_t l = int32_t(lane), b = int32_t(arg & 31u);
    const int32_t max_lane = (l & segmask) | (clamp & ~segmask), min_lane = l & segmask;
    int32_t j = l;
    bool in_range = false;
    switch (op) {
        case WarpOp::ShflUp:
            j = l - b;
            in_range = j >= max_lane;
            break;
        case WarpOp::ShflDown:
            j = l + b;
            in_range = j <= max_lane;
            break;
        case WarpOp::ShflXor:
            j = l ^ b;
            in_range = j <= max_lane;
            break;
        default:  // ShflIdx
            j = min_lane | (b & ~segmask);
            in_range = j <= max_lane;
            break;
    }
    return in_range ? uint32_t(j) : lane;
}

namespace {

// Calls `f` with each member lane's number.
template <class F>
void for_each_member(uint32_t members, F f) {
    for (uint32_t l = 0; l < kWarpLanes; ++l)
        if (members >> l & 1) f(l);
}

// A reduction's value over the members (__reduce_add_sync, _min, _max, _and, _or, _xor), on
// their 32-bit values; 0 for an operation that is not a reduction.
uint64_t reduce_members(WarpOp op, const WarpCall* calls, uint32_t members) {
    uint64_t combined = 0;
    bool first = true;
    for_each_member(members, [&](uint32_t l) {
        const uint32_t v32 = uint32_t(calls[l].value);
        switch (op) {
            case WarpOp::ReduceAdd:
                combined = uint32_t(combined + v32);
                break;
            case WarpOp::ReduceMin:
                combined = first || int32_t(v32) < int32_t(combined) ? v32 : combined;
                break;
            case WarpOp::ReduceMax:
                combined = first || int32_t(v32) > int32_t(combined) ? v32 : combined;
                break;
            case WarpOp::ReduceMinUnsigned:
                combined = first ? v32 : std::min<uint64_t>(combined, v32);
                break;
            case WarpOp::ReduceMaxUnsigned:
                combined = first ? v32 : std::max<uint64_t>(combined, v32);
                break;
            case WarpOp::ReduceAnd:
                combined = first ? v32 : combined & v32;
                break;
            case WarpOp::ReduceOr:
                combined |= v32;
                break;
            case WarpOp::ReduceXor:
                combined ^= v32;
                break;
            default:
                break;
        }
        first = false;
    });
    return combined;
}

}  // namespace

UndefinedSource complete_warp_call(WarpCall* calls, uint32_t members) {
    UndefinedSource undefined;
    const WarpOp op = calls[std::countr_zero(members)].op;
    const uint64_t combined = reduce_members(op, calls, members);  // the members' sum, min, …
    uint32_t ballot = 0;
    for_each_member(members, [&](uint32_t l) { ballot |= (calls[l].value != 0 ? 1u : 0u) << l; });
    const auto equal_to = [&](uint64_t v) {
        uint32_t m = 0;
        for_each_member(members, [&](uint32_t l) { m |= (calls[l].value == v ? 1u : 0u) << l; });
        return m;
    };
    for_each_member(members, [&](uint32_t l) {
        WarpCall& c = calls[l];
        switch (op) {
            case WarpOp::Sync:
                c.result = 0;
                break;
            case WarpOp::ShflIdx:
            case WarpOp::ShflUp:
            case WarpOp::ShflDown:
            case WarpOp::ShflXor: {
                const uint32_t j = shuffle_source(op, l, c.arg, c.width);
                if (!(members >> j & 1)) {
                    if (undefined.lane == kWarpLanes) undefined.lane = l, undefined.source = j;
                    undefined.lanes |= 1u << l;
                    c.result = c.value;
                } else {
                    c.result = calls[j].value;
                }
                break;
            }
            case WarpOp::Ballot:
                c.result = ballot;
                break;
            case WarpOp::Any:
                c.result = ballot != 0;
                break;
            case WarpOp::All:
                c.result = ballot == members;
                break;
            case WarpOp::Uni:
                c.result = ballot == members || ballot == 0;
                break;
            case WarpOp::MatchAny:
                c.result = equal_to(c.value);
                break;
            case WarpOp::MatchAll:
                c.result = equal_to(c.value) == members ? c.mask : 0;  // CUDA: the mask given
                break;
            default:  // the reductions
                c.result = combined;
                break;
        }
    });
    return undefined;
}

void WarpOrder::reset(uint32_t threads) { clock_.assign(size_t(threads) * kWarpLanes, 0); }

void WarpOrder::sync(uint32_t first, uint32_t members, uint32_t epoch) {
    uint32_t merged[kWarpLanes] = {};
    for (uint32_t l = 0; l < kWarpLanes; ++l) {
        if (!(members >> l & 1)) continue;
        const uint32_t* known = &clock_[size_t(first + l) * kWarpLanes];
        for (uint32_t y = 0; y < kWarpLanes; ++y) merged[y] = std::max(merged[y], known[y]);
    }
    for (uint32_t l = 0; l < kWarpLanes; ++l)
        if (members >> l & 1) merged[l] = epoch;
    for (uint32_t l = 0; l < kWarpLanes; ++l)
        if (members >> l & 1) std::copy(merged, merged + kWarpLanes, &clock_[size_t(first + l) * kWarpLanes]);
}

}  // namespace threadmap
