// ThreadMap: for each element of the mapped array, the thread that touched it (the smallest
// global linear thread id when several did) and how many threads touched it.
// LaunchStats: the counts a learner reads beside the map.
#pragma once

#include <cassert>
#include <optional>
#include <string>
#include <vector>

#include "kernels/core/launch_config.hpp"
#include "kernels/core/thread_context.hpp"
#include "kernels/core/zeroed_buffer.hpp"
#include "kernels/core/outcome.hpp"

namespace threadmap {

struct Toucher {
    uint64_t global_id = 0;
    Dim3 block;   // blockIdx
    Dim3 thread;  // threadIdx
};

// A map numbers threads in 32 bits, so it can hold launches of at most 2^32 threads. The
// emulator's caps (2^30) keep every launch the app makes below it; the CUDA executor checks
// it itself, since nothing else stops a caller from handing a GPU a bigger launch.
inline constexpr uint64_t kMaxMappedThreads = uint64_t(1) << 32;
inline Outcome<void> check_mapped_threads(const LaunchConfig& launch) {
    const unsigned __int128 threads = (unsigned __int128)launch.blocks() * launch.threads_per_block();
    if (threads <= kMaxMappedThreads) return done();
    return failed("the map numbers threads in 32 bits: at most 4294967296 threads per launch (this one has " +
                  std::to_string(launch.blocks()) + " blocks of " + std::to_string(launch.threads_per_block()) + ")");
}

struct ThreadMap {
    LaunchConfig launch;
    // 32-bit ids: see kMaxMappedThreads.
    ZeroedBuffer<uint32_t> first_toucher;  // global linear id; meaningful where touches > 0
    ZeroedBuffer<uint32_t> touches;        // threads that wrote the element
    // A kernel-model map: the out-of-bounds accesses just past the mapped array's end, [k] at
    // index size() + k (kernels/model PastRecord): the smallest id and the accesses (not
    // threads) there; empty when none.
    std::vector<uint32_t> past_first_toucher, past_touches;

    ThreadMap() = default;
    ThreadMap(const LaunchConfig& l, uint64_t elements) : launch(l), first_toucher(elements), touches(elements) {}

    uint64_t size() const { return touches.size(); }

    std::optional<Toucher> toucher(uint64_t element) const {
        if (touches[element] == 0) return std::nullopt;
        return decode_global_id(first_toucher[element], launch);
    }

    static Toucher decode_global_id(uint64_t id, const LaunchConfig& launch) {
        const ThreadCoords c = threadmap::decode_global_id(id, launch.grid, launch.block);
        return {id, c.block, c.thread};
    }
};

// Fast global id → (blockIdx, threadIdx) for colouring millions of cells: the division by
// threads-per-block is a multiply by a precomputed reciprocal (exact for 32-bit ids: the
// rounding error n·(m − 2^64/d) stays below 2^64/d), threadIdx comes from a table (at most
// 1024 entries), blockIdx from a table when the grid is small enough. Gives exactly
// ThreadMap::decode_global_id; ids are < 2^30 (the emulator's thread cap).
// tabulate_blocks: false for a decoder that decodes a few ids (its table would cost more
// than they: a grid of 2^20 blocks is 12 MB and a millisecond).
class ToucherDecoder {
  public:
    explicit ToucherDecoder(const LaunchConfig& launch, bool tabulate_blocks = true)
        : launch_(launch),
          tpb_(uint32_t(launch.threads_per_block())),
          reciprocal_(tpb_ > 1 ? ~uint64_t(0) / tpb_ + 1 : 0) {
        assert(launch.blocks() * launch.threads_per_block() <= (uint64_t(1) << 32) && "ids must fit in 32 bits");
        threads_.resize(tpb_);
        for (uint32_t t = 0; t < tpb_; ++t) threads_[t] = unlinearize(t, launch.block);
        if (tabulate_blocks && launch.blocks() <= kMaxTabulatedBlocks) {
            blocks_.resize(size_t(launch.blocks()));
            for (uint64_t b = 0; b < launch.blocks(); ++b) blocks_[b] = unlinearize(b, launch.grid);
        }
    }
    Toucher decode(uint32_t id) const {
        const uint32_t b = block_index(id);
        const uint32_t t = id - b * tpb_;
        return {id, b < blocks_.size() ? blocks_[b] : unlinearize(b, launch_.grid), threads_[t]};
    }
    // The block's linear index alone (id / threads per block).
    uint32_t block_index(uint32_t id) const {
        return tpb_ > 1 ? uint32_t((unsigned __int128)id * reciprocal_ >> 64) : id;
    }
    uint32_t threads_per_block() const { return tpb_; }

  private:
    static constexpr uint64_t kMaxTabulatedBlocks = uint64_t(1) << 20;  // 12 MB of Dim3 at most
    LaunchConfig launch_;
    uint32_t tpb_;
    uint64_t reciprocal_;  // ⌈2^64 / tpb⌉
    std::vector<Dim3> threads_;
    std::vector<Dim3> blocks_;
};

struct LaunchStats {
    uint64_t blocks = 0;
    uint64_t threads_launched = 0;
    uint64_t threads_active = 0;  // wrote at least one element
    uint64_t threads_idle = 0;    // launched, wrote nothing (fell off the end, or guarded out)
    uint64_t elements = 0;
    uint64_t elements_untouched = 0;
    uint64_t elements_multi = 0;  // written by more than one thread
    uint64_t warps = 0;           // ⌈threadsPerBlock / 32⌉ per block
    uint64_t partial_warps = 0;   // one per block whose size is not a multiple of 32
};

// The counts that follow from the launch shape alone (blocks, threads, warps).
inline LaunchStats shape_stats(const LaunchConfig& launch, uint32_t warp_size = 32) {
    LaunchStats s;
    s.blocks = launch.blocks();
    s.threads_launched = s.blocks * launch.threads_per_block();
    s.warps = s.blocks * div_round_up(launch.threads_per_block(), warp_size);
    s.partial_warps = launch.threads_per_block() % warp_size ? s.blocks : 0;
    return s;
}

}  // namespace threadmap
