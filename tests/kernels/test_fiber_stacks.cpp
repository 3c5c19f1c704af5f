// The fibers' stacks a kernel with barriers runs on: a finished run's are kept for the next.
#include <doctest/doctest.h>

#include "kernels/model/fiber_stacks.hpp"

namespace threadmap {

TEST_CASE("a run's fiber stacks serve a later run of as many threads or fewer, and only one at a time") {
    StackArena* kept = nullptr;
    {
        const StackArenaHandle first = take_stack_arena(777);
        REQUIRE(first->count() == 777);
        kept = first.get();
    }  // the run ends: its arena is kept
    {
        const StackArenaHandle fewer = take_stack_arena(500);
        CHECK(fewer.get() == kept);
        CHECK(fewer->count() == 777);
        // Taken: a run beside it gets stacks of its own.
        const StackArenaHandle beside = take_stack_arena(500);
        CHECK(beside.get() != kept);
        CHECK(beside->count() == 500);
    }
    // More threads than any kept arena holds: a new one, as large as asked.
    const StackArenaHandle more = take_stack_arena(778);
    CHECK(more.get() != kept);
    CHECK(more->count() == 778);
    // Each stack lies within its own slot: below the next one's guard page.
    for (size_t i = 0; i + 1 < more->count(); ++i) {
        const auto here = more->stack(i), next = more->stack(i + 1);
        CHECK(static_cast<char*>(here.sp) <= static_cast<char*>(next.sp) - next.size - 4096);
    }
}

}  // namespace threadmap
