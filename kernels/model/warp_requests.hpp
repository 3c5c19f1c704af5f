// Groups a kernel-model launch's accesses into warp requests as the threads run (see
// memory_view.hpp for the rules) and sums them per site. The emulator hands it every load and
// store with the thread's index in its block; it closes a warp's requests once all the warp's
// lanes have run (each thread to completion), or at the end of the block (kernels with
// barriers, whose threads interleave), so it holds one warp's or one block's requests at a time.
// Lanes that run in turn are logged and counted when their warp closes: where every lane made
// the first of lane 0's accesses, the same sites in the same contexts (a guard may end a lane
// early), the k-th entry of each lane's log is one request, counted straight from the log;
// elsewhere the log is replayed access by access, as it came.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "kernels/model/memory_view.hpp"

namespace threadmap {

class WarpRequests {
  public:
    // `array_sizes`: elements per array (a shared array: per block); `keep`: an array whose
    // requests of `keep_op` are kept whole (SIZE_MAX: none; a shared array: the mapped block's);
    // `global_element_bytes`: the size global arrays' sectors are counted for (0: their own);
    // `cost_array`: the array whose per-element costs are kept (SIZE_MAX: every array's);
    // `lanes_in_turn`: each thread's accesses all come before the next thread's, a warp's lanes in
    // order, and close_warp follows its last lane (else the block's threads interleave, and
    // close_block ends it).
    WarpRequests(const KernelSpec& spec, const std::vector<uint64_t>& array_sizes, uint32_t threads_per_block,
                 size_t keep = SIZE_MAX, AccessOp keep_op = AccessOp::Store, uint32_t global_element_bytes = 0,
                 size_t cost_array = SIZE_MAX, bool lanes_in_turn = false);

    // One lane's access of `width` elements from `index` (a vector access: 2 to 16, ≤ 16 bytes).
    // `context`: where the lane is in its loops and barriers (ModelThread::loop_context and the
    // block's phase): a warp's request is the lanes' accesses of one site in one context, the
    // n-th of each lane there in the n-th request.
    [[gnu::always_inline]] void record(uint32_t thread_in_block, uint64_t context, size_t array, uint64_t index,
                                       int line, AccessOp op, uint32_t width, bool in_bounds) {
        const uint32_t site = site_of(array, line, op, width);
        if (logging_) {
            log_.push_back({context, uint32_t(index), site | (in_bounds ? kInBounds : 0)});
            ++lane_entries_[thread_in_block % kWarpLanes];
            if (log_.size() == kMaxLogged) replay_log(thread_in_block / kWarpLanes);  // the rest of the warp: joined
            return;
        }
        join(thread_in_block, context, site, index, width, in_bounds);
    }
    // A block starts (its linear index); `mapped`: its shared requests' costs are kept per
    // element, and its requests of a kept shared array kept whole.
    void begin_block(uint64_t block, bool mapped) {
        block_ = block;
        keep_shared_costs_ = mapped;
        clear_log();
    }
    // All of warp `warp`'s lanes have run: count its requests.
    void close_warp(uint32_t warp);
    // The block is done: count what is still open and start the next block.
    void close_block();
    MemoryView finish();

  private:
    // The access joins its request: the lane's next one at the site, made if need be.
    [[gnu::noinline]] void join(uint32_t thread_in_block, uint64_t context, uint32_t site, uint64_t index,
                                uint32_t width, bool in_bounds) {
        uint32_t& next = next_[size_t(thread_in_block) * site_capacity_ + site];
        SiteRequests& s = requests_[size_t(thread_in_block / kWarpLanes) * site_capacity_ + site];
        const uint32_t lane = thread_in_block % kWarpLanes;
        // Mostly the lane's next request is the one after its last: the lanes ran the same iterations.
        uint32_t at = next;
        if (at >= s.requests.size() || s.contexts[at] != context || (s.visited[at] >> lane & 1))
            at = s.find(context, lane, at);
        next = at + 1;
        s.visited[at] |= 1u << lane;
        if (!in_bounds) return;
        WarpRequest& r = s.requests[at];
        r.index[lane] = uint32_t(index);
        r.mask |= 1u << lane;
        r.width = width;
    }
    // Joins what the log holds in the order it came; the rest of the warp joins directly.
    void replay_log(uint32_t warp);
    // Counts (and keeps) warp `warp`'s requests straight from its log when every lane's accesses
    // are the first of lane 0's, the same sites in the same contexts; false, changing nothing,
    // when not.
    bool count_logged(uint32_t warp);
    void clear_log() {
        log_.clear();
        lane_entries_.fill(0);
        logging_ = lanes_in_turn_;
    }
    uint32_t site_of(size_t array, int line, AccessOp op, uint32_t width) {
        // width 1, 2, 4, 8 or 16: 0 to 4 as std::bit_width(width) - 1
        const size_t key = ((size_t(line) * arrays_ + array) * 2 + size_t(op)) * 5 + size_t(std::bit_width(width) - 1);
        if (key < site_table_.size() && site_table_[key] >= 0) return uint32_t(site_table_[key]);
        return add_site(key, array, line, op, width);
    }
    uint32_t add_site(size_t key, size_t array, int line, AccessOp op, uint32_t width);
    void count(MemorySite& site, const WarpRequest& r);
    bool kept(const MemorySite& site) const;
    void keep(std::vector<KeptRequest>& warp_requests);

    size_t arrays_;
    uint32_t threads_per_block_, warps_;
    std::vector<MemorySpace> spaces_;
    std::vector<ArrayPlace> places_;   // per array: its element size, and where a shared array starts
    std::vector<int32_t> site_table_;  // (line, array, op, width) → site, -1 when none yet
    std::vector<MemorySite> sites_;
    std::vector<uint32_t> site_width_;  // per site: the elements one lane's access covers
    size_t site_capacity_ = 8;
    // The running warp's accesses, lane after lane, while its lanes run in turn.
    struct LoggedAccess {
        uint64_t context;
        uint32_t index;
        uint32_t site;  // | kInBounds
    };
    static constexpr uint32_t kInBounds = 1u << 31;
    // A warp's log at most (16 MiB): a longer one (a grid-stride loop over millions of
    // elements) is joined as it stands and the rest of the warp recorded access by access.
    static constexpr size_t kMaxLogged = size_t(1) << 20;
    bool lanes_in_turn_ = false;
    bool logging_ = false;  // lanes_in_turn_, until the warp's log was replayed
    std::vector<LoggedAccess> log_;
    std::array<uint32_t, kWarpLanes> lane_entries_{};
    std::vector<uint32_t> executions_;       // count_logged's: per site, the requests so far
    std::vector<uint32_t> warp_kept_sites_;  // count_logged's: the site of each of warp_kept_
    // One warp's requests of one site, in the order they were first made.
    struct SiteRequests {
        std::vector<WarpRequest> requests;
        std::vector<uint64_t> contexts;  // each request's
        std::vector<uint32_t> visited;   // the lanes that made it (out of bounds too)
        // Once lanes took the site in different contexts or orders: the first request of each
        // context, and after each the next of its context.
        bool indexed = false;
        std::unordered_map<uint64_t, uint32_t> first_of;
        std::vector<uint32_t> next_of;
        // The request `lane` makes in `context`, its first there that the lane has not made yet,
        // looked for from `at` on (the request after its last) and made if there is none.
        uint32_t find(uint64_t context, uint32_t lane, uint32_t at);
        void clear();
    };
    std::vector<uint32_t> next_;                   // [thread in block][site]: the request after its last
    std::vector<SiteRequests> requests_;           // [warp][site]
    std::vector<std::vector<ElementCost>> costs_;  // per element (a shared array: of one block); empty: not kept
    bool keep_shared_costs_ = false;
    uint64_t block_ = 0;
    size_t keep_;  // the array whose requests of keep_op_ are kept
    AccessOp keep_op_;
    std::vector<KeptRequest> kept_;
    std::vector<KeptRequest> warp_kept_;  // the closing warp's, before they are ordered
    std::vector<uint32_t> kept_of_;
    bool kept_capped_ = false;
};

}  // namespace threadmap
