// Fiber stacks; see fiber_stacks.hpp.
#include "kernels/model/fiber_stacks.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <mutex>
#include <new>
#include <vector>

#include "kernels/core/sanitizer.hpp"
#if THREADMAP_ASAN
#include <sanitizer/asan_interface.h>
#endif

namespace threadmap {

StackArena::StackArena(size_t count) : page_(size_t(sysconf(_SC_PAGESIZE))), count_(count) {
    bytes_ = count_ * (kStackBytes + page_);
    void* p = mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    base_ = static_cast<char*>(p);
    // A guard page below each stack: a body that recurses too deep faults instead of writing
    // into its neighbour's stack.
    for (size_t i = 0; i < count_; ++i) mprotect(base_ + i * (kStackBytes + page_), page_, PROT_NONE);
}

StackArena::~StackArena() {
    unpoison();  // a later mapping at the same address must start clean
    munmap(base_, bytes_);
}

void StackArena::unpoison() const {
#if THREADMAP_ASAN
    __asan_unpoison_memory_region(base_, bytes_);
#endif
}

// Each stack's top a different number of cache lines below its end: stacks a whole number of
// pages apart would put every fiber's saved registers and newest frames in the same few cache
// sets, and each round of switches at a barrier would miss on all of them.
boost::context::stack_context StackArena::stack(size_t i) const {
    const size_t stagger = i * 9 % 64 * 64;  // 64 different lines of a page
    boost::context::stack_context sc;
    sc.size = kStackBytes - stagger;
    sc.sp = base_ + i * (kStackBytes + page_) + page_ + kStackBytes - stagger;  // stacks grow down
    return sc;
}

namespace {

// The arenas finished runs gave back: 8 at most, with at most 8,192 stacks in all (some 8 KB of
// each faulted in: 64 MB at most stays resident). A lesson with a comparison and a memory view
// runs six at once, each of up to 1,024 stacks (the map's and the comparison's runs spread over
// two workers, and the two memory views): with 4,096 kept, two of the six were fresh mappings
// at every change, whose first touch of each stack costs this project's VM some 10 µs a page
// (transpose-bank-conflicts, 15 blockDim changes: 771-796 ms to the screen in all against
// 664-698 with 8,192 kept, the same resident memory at the end; 2026-12-07).
class KeptArenas {
  public:
    static constexpr size_t kMaxArenas = 8, kMaxStacks = 8192;

    // The smallest kept arena with `count` stacks or more, else none.
    std::unique_ptr<StackArena> take(size_t count) {
        const std::lock_guard lock(mutex_);
        auto best = kept_.end();
        for (auto it = kept_.begin(); it != kept_.end(); ++it)
            if ((*it)->count() >= count && (best == kept_.end() || (*it)->count() < (*best)->count())) best = it;
        if (best == kept_.end()) return nullptr;
        std::unique_ptr<StackArena> arena = std::move(*best);
        kept_.erase(best);
        return arena;
    }
    // Keeps `arena` if there is room, else frees it.
    void give(std::unique_ptr<StackArena> arena) {
        const std::lock_guard lock(mutex_);
        size_t stacks = arena->count();
        for (const auto& a : kept_) stacks += a->count();
        if (kept_.size() < kMaxArenas && stacks <= kMaxStacks) kept_.push_back(std::move(arena));
    }

  private:
    std::mutex mutex_;
    std::vector<std::unique_ptr<StackArena>> kept_;
};

KeptArenas& kept_arenas() {
    static KeptArenas* kept = new KeptArenas;  // never destroyed: a run may end after static destruction
    return *kept;
}

}  // namespace

void ArenaReturn::operator()(StackArena* arena) const {
    arena->unpoison();  // the next run's fibers start clean
    kept_arenas().give(std::unique_ptr<StackArena>(arena));
}

StackArenaHandle take_stack_arena(size_t count) {
    std::unique_ptr<StackArena> arena = kept_arenas().take(count);
    if (!arena) arena = std::make_unique<StackArena>(count);
    return StackArenaHandle(arena.release());
}

}  // namespace threadmap
