// The fibers' stacks of a kernel with barriers: one mapping for a block's threads, each stack with
// a guard page below it, and the mappings that finished runs give back, kept for the next ones.
#pragma once

#include <boost/context/stack_context.hpp>
#include <cstddef>
#include <memory>

namespace threadmap {

// Room for a block's largest count of threads (1,024), reserved but not backed until touched:
// any arena serves any block, so a run never maps a fresh one while a finished run's is kept
// (with arenas sized to their first block, a blockDim change from 16×8 to 32×8 mapped a fresh
// one). Guard pages are set as far as the runs have used stacks (`use`).
class StackArena {
  public:
    static constexpr size_t kStackBytes = 64 * 1024;
    static constexpr size_t kMaxStacks = 1024;
    StackArena();
    ~StackArena();
    StackArena(const StackArena&) = delete;
    StackArena& operator=(const StackArena&) = delete;
    // Readies the first `count` stacks (at most kMaxStacks), each with its guard page.
    void use(size_t count);
    size_t used() const { return used_; }
    // Thread i's stack (i below what `use` readied).
    boost::context::stack_context stack(size_t i) const;
    // With AddressSanitizer: forgets the poisoning that abandoned threads' frames left behind
    // (they are abandoned, not unwound: ModelEmulator::abandon_fibers).
    void unpoison() const;

  private:
    size_t page_, used_ = 0, bytes_ = 0;
    char* base_ = nullptr;
};

// A run's arena, its first `count` stacks readied: taken from those kept when there is one, and
// kept again when the run ends (KeptArenas in fiber_stacks.cpp). A fresh mapping's stack pages fault in as the run
// makes its fibers: on this project's VM a block of 128 took 2.85 ms on a fresh mapping and 0.013 ms on a kept one
// (tiled-matmul at blockDim 8×16, timed with temporary prints, 2026-12-06), paid by each worker of a spread run and
// each picture the window makes. (In model-bench's one process a kept mapping ran matmul-tiled slower;
// docs/performance.md, 2026-12-06 evening.)
struct ArenaReturn {
    void operator()(StackArena* arena) const;
};
using StackArenaHandle = std::unique_ptr<StackArena, ArenaReturn>;
StackArenaHandle take_stack_arena(size_t count);

}  // namespace threadmap
