// The fibers' stacks a kernel with barriers runs on: a finished run's are kept for the next.
#include <doctest/doctest.h>

#include "kernels/model/fiber_stacks.hpp"

namespace threadmap {

TEST_CASE("a run's fiber stacks serve a later run of any block size, and only one run at a time") {
    StackArena* kept = nullptr;
    {
        const StackArenaHandle first = take_stack_arena(500);
        REQUIRE(first->used() == 500);
        kept = first.get();
    }  // the run ends: its arena is kept
    {
        // More threads than the last run had: the kept arena, readied further.
        const StackArenaHandle more = take_stack_arena(1024);
        CHECK(more.get() == kept);
        CHECK(more->used() == 1024);
        // Taken: a run beside it gets stacks of its own.
        const StackArenaHandle beside = take_stack_arena(16);
        CHECK(beside.get() != kept);
        CHECK(beside->used() == 16);
    }
    // Both were kept: the one readied furthest comes first (its stacks are already faulted in).
    const StackArenaHandle fewer = take_stack_arena(64);
    CHECK(fewer.get() == kept);
    CHECK(fewer->used() == 1024);
    // Each stack lies within its own slot: below the next one's guard page.
    for (size_t i = 0; i + 1 < fewer->used(); ++i) {
        const auto here = fewer->stack(i), next = fewer->stack(i + 1);
        CHECK(static_cast<char*>(here.sp) <= static_cast<char*>(next.sp) - next.size - 4096);
    }
}

}  // namespace threadmap
