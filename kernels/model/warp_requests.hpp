// Groups a kernel-model launch's accesses into warp requests as the threads run (see
// memory_view.hpp for the rules) and sums them per site. The emulator hands it every load and
// store with the thread's index in its block; it closes a warp's requests once all the warp's
// lanes have run (each thread to completion), or at the end of the block (kernels with
// barriers, whose threads interleave), so it holds one warp's or one block's requests at a time.
#pragma once

#include <bit>
#include <cstdint>
#include <vector>

#include "memory_view.hpp"

namespace threadmap {

class WarpRequests {
  public:
    // `array_sizes`: elements per array (a shared array: per block); `keep`: an array whose
    // requests of `keep_op` are kept whole (SIZE_MAX: none; a shared array: the mapped block's);
    // `global_element_bytes`: the size global arrays' sectors are counted for (0: their own).
    WarpRequests(const KernelSpec& spec, const std::vector<uint64_t>& array_sizes, uint32_t threads_per_block,
                 size_t keep = SIZE_MAX, AccessOp keep_op = AccessOp::Store, uint32_t global_element_bytes = 0);

    // One lane's access of `width` elements from `index` (a vector access: 2 to 16, ≤ 16 bytes).
    void record(uint32_t thread_in_block, size_t array, uint64_t index, int line, AccessOp op, uint32_t width,
                bool in_bounds) {
        const uint32_t site = site_of(array, line, op, width);
        const uint32_t n = executions_[size_t(thread_in_block) * site_capacity_ + site]++;
        if (!in_bounds) return;
        std::vector<WarpRequest>& requests = requests_[size_t(thread_in_block / kWarpLanes) * site_capacity_ + site];
        if (n >= requests.size()) requests.resize(n + 1);
        WarpRequest& r = requests[n];
        const uint32_t lane = thread_in_block % kWarpLanes;
        r.index[lane] = uint32_t(index);
        r.mask |= 1u << lane;
        r.width = width;
    }
    // A block starts (its linear index); `mapped`: its shared requests' costs are kept per
    // element, and its requests of a kept shared array kept whole.
    void begin_block(uint64_t block, bool mapped) {
        block_ = block;
        keep_shared_costs_ = mapped;
    }
    // All of warp `warp`'s lanes have run: count its requests.
    void close_warp(uint32_t warp);
    // The block is done: count what is still open and start the next block.
    void close_block();
    MemoryView finish();

  private:
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
    size_t site_capacity_ = 8;
    std::vector<uint32_t> executions_;                // [thread in block][site]: times run
    std::vector<std::vector<WarpRequest>> requests_;  // [warp][site]: by execution
    std::vector<std::vector<ElementCost>> costs_;     // per element (a shared array: of one block)
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
