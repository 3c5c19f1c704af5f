// The fibers' stacks of a kernel with barriers: one mapping for a block's threads, each stack with
// a guard page below it, and the mappings that finished runs give back, kept for the next ones.
#pragma once

#include <boost/context/stack_context.hpp>
#include <cstddef>
#include <memory>

namespace threadmap {

class StackArena {
  public:
    static constexpr size_t kStackBytes = 64 * 1024;
    explicit StackArena(size_t count);
    ~StackArena();
    StackArena(const StackArena&) = delete;
    StackArena& operator=(const StackArena&) = delete;
    size_t count() const { return count_; }
    // Thread i's stack.
    boost::context::stack_context stack(size_t i) const;
    // With AddressSanitizer: forgets the poisoning that abandoned threads' frames left behind
    // (they are abandoned, not unwound: ModelEmulator::abandon_fibers).
    void unpoison() const;

  private:
    size_t page_, count_, bytes_ = 0;
    char* base_ = nullptr;
};

// A run's arena: taken from those kept when one has enough stacks, and kept again when the run
// ends (KeptArenas in fiber_stacks.cpp). A fresh mapping's stack pages fault in as the run makes
// its fibers: on this project's VM a block of 128 took 2.85 ms on a fresh mapping and 0.013 ms
// on a kept one (tiled-matmul at blockDim 8×16, timed with temporary prints, 2026-12-06), paid
// by each worker of a spread run and each picture the window makes. (In model-bench's one
// process a kept mapping ran matmul-tiled slower; docs/performance.md, 2026-12-06 evening.)
struct ArenaReturn {
    void operator()(StackArena* arena) const;
};
using StackArenaHandle = std::unique_ptr<StackArena, ArenaReturn>;
StackArenaHandle take_stack_arena(size_t count);

}  // namespace threadmap
