// Fiber stacks; see fiber_stacks.hpp.
#include "kernels/model/fiber_stacks.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <mutex>
#include <new>
#include <vector>

#include "kernels/core/sanitizer.hpp"
#if THREADMAP_ASAN
#include <sanitizer/asan_interface.h>
#endif

namespace threadmap {

// Reserved without access: a mapping no one may write is not data (RLIMIT_DATA, the limit a
// learner's kernel runs under: --memory-limit 64 refused a 1,000-element kernel when the whole
// reservation was writable); `use` opens the stacks a run needs.
StackArena::StackArena() : page_(size_t(sysconf(_SC_PAGESIZE))) {
    bytes_ = kMaxStacks * (kStackBytes + page_);
    void* p = mmap(nullptr, bytes_, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    base_ = static_cast<char*>(p);
}

void StackArena::use(size_t count) {
    // Each stack above a guard page left without access: a body that recurses too deep faults
    // instead of writing into its neighbour's stack.
    for (; used_ < std::min(count, kMaxStacks); ++used_)
        if (mprotect(base_ + used_ * (kStackBytes + page_) + page_, kStackBytes, PROT_READ | PROT_WRITE) != 0)
            throw std::bad_alloc();  // past the run's memory limit: the run says it ran out
}

StackArena::~StackArena() {
    unpoison();  // a later mapping at the same address must start clean
    munmap(base_, bytes_);
}

void StackArena::unpoison() const {
#if THREADMAP_ASAN
    __asan_unpoison_memory_region(base_, used_ * (kStackBytes + page_));
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

// The arenas finished runs gave back: 8 at most (with 1,024 stacks each, some 8 KB of each
// faulted in: 64 MB at most stays resident). A lesson with a comparison and a memory view runs
// six at once, each with one stack per thread of a block; a fresh mapping's first touch of each
// stack costs this project's VM some 10 µs a page (transpose-bank-conflicts, 15 blockDim changes:
// 771-796 ms to the screen in all with 4,096 stacks kept in arenas of their first block's size,
// against 664-698 with 8,192; 2026-12-07).
class KeptArenas {
  public:
    static constexpr size_t kMaxArenas = 8;

    // The kept arena that readied the most stacks (the most already faulted in), else none.
    std::unique_ptr<StackArena> take() {
        const std::lock_guard lock(mutex_);
        const auto most = std::max_element(kept_.begin(), kept_.end(),
                                           [](const auto& a, const auto& b) { return a->used() < b->used(); });
        if (most == kept_.end()) return nullptr;
        std::unique_ptr<StackArena> arena = std::move(*most);
        kept_.erase(most);
        return arena;
    }
    // Keeps `arena` if there is room, else frees it.
    void give(std::unique_ptr<StackArena> arena) {
        const std::lock_guard lock(mutex_);
        if (kept_.size() < kMaxArenas) kept_.push_back(std::move(arena));
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
    std::unique_ptr<StackArena> arena = kept_arenas().take();
    if (!arena) arena = std::make_unique<StackArena>();
    arena->use(count);
    return StackArenaHandle(arena.release());
}

}  // namespace threadmap
