// Where a thread is in its loops, for the memory view (memory_view.hpp): a warp runs a loop's
// iterations together, so the lanes that make an access in the same iteration of every loop
// around it make one request, and a lane that skips it in one iteration and makes it in the
// next is in the next iteration's request. Compiled twice, so it includes nothing and uses
// C++'s own types only: into the kernel model (each ModelThread holds one) and into every
// learner's kernel (the prelude includes it; the compiler calls enter, next and leave around
// each loop with an access, and they are inlined there: a call per iteration into the host
// cost the JIT tiled matmul 5%). A built-in body's loops are not marked (ModelThread).
#pragma once

struct __threadmap_loop_nest {
    // Levels of loops told apart; deeper loops count as their level-32 loop's iteration.
    static constexpr unsigned kLevels = 32;
    unsigned depth = 0;
    unsigned id[kLevels + 1] = {};
    unsigned iteration[kLevels + 1] = {};
    unsigned long long hash[kLevels + 1] = {};  // of the iterations of the loops up to each level

    // Entering loop `loop` (which loop of its file): returns the depth it was entered at.
    unsigned enter(unsigned loop) {
        const unsigned at = depth++;
        if (depth <= kLevels) {
            id[depth] = loop;
            iteration[depth] = 0;
            mix();
        }
        return at;
    }
    // The next iteration of the innermost loop.
    void next() {
        if (depth == 0 || depth > kLevels) return;
        ++iteration[depth];
        mix();
    }
    // Leaving loops (by their exit, a break or a return) back to depth `to`.
    void leave(unsigned to) {
        if (to < depth) depth = to;
    }
    // The loops' iterations as one number (0 outside every loop).
    unsigned long long context() const { return hash[depth < kLevels ? depth : kLevels]; }

  private:
    void mix() {
        unsigned long long h =
            hash[depth - 1] ^ ((static_cast<unsigned long long>(id[depth]) << 32) | iteration[depth]);
        h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ull;  // splitmix64's finaliser
        h = (h ^ (h >> 27)) * 0x94d049bb133111ebull;
        hash[depth] = h ^ (h >> 31);
    }
};
