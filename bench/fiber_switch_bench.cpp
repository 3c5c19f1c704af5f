// What a barrier costs at its core: one switch into a fiber and one back, in ns per pair:
// Boost.Context's fcontext as the kernel model uses it (its jump_fcontext on a stack of our own),
// through Boost's fiber class (which moves and tests the fiber objects on each switch), and a
// glibc swapcontext pair (what ucontext-based fibers pay: it saves and restores the signal mask
// with a system call).
// Usage: fiber-switch-bench [PAIRS] (default 10,000,000)
#include <ucontext.h>

#include <boost/context/detail/fcontext.hpp>
#include <boost/context/fiber.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace ctx = boost::context;

int main(int argc, char** argv) {
    const long pairs = argc > 1 ? std::atol(argv[1]) : 10'000'000;
    long count = 0;
    ctx::fiber f{[&count](ctx::fiber&& back) {
        for (;;) {
            ++count;
            back = std::move(back).resume();
        }
        return std::move(back);
    }};
    const auto t0 = std::chrono::steady_clock::now();
    for (long i = 0; i < pairs; ++i) f = std::move(f).resume();
    const double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count();
    std::printf(
        "{\"bench\":\"fiber_switch_pair\",\"flavour\":\"boost fiber class\",\"ns_per_pair\":%.1f,\"pairs\":%ld}\n",
        ns / double(count), count);

    // jump_fcontext itself, as ModelEmulator::hand_over calls it.
    namespace fctx = boost::context::detail;
    static long jumps = 0;
    static char raw_stack[64 * 1024];
    fctx::fcontext_t raw = fctx::make_fcontext(raw_stack + sizeof raw_stack, sizeof raw_stack, [](fctx::transfer_t t) {
        for (;;) {
            ++jumps;
            t = fctx::jump_fcontext(t.fctx, nullptr);
        }
    });
    const auto t2 = std::chrono::steady_clock::now();
    for (long i = 0; i < pairs; ++i) raw = fctx::jump_fcontext(raw, nullptr).fctx;
    const double rns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t2).count();
    std::printf("{\"bench\":\"fiber_switch_pair\",\"flavour\":\"boost fcontext\",\"ns_per_pair\":%.1f,\"pairs\":%ld}\n",
                rns / double(jumps), jumps);

    // The same ping-pong with swapcontext.
    static ucontext_t main_context, fiber_context;
    static long swaps = 0;
    static char stack[64 * 1024];
    getcontext(&fiber_context);
    fiber_context.uc_stack.ss_sp = stack;
    fiber_context.uc_stack.ss_size = sizeof stack;
    fiber_context.uc_link = &main_context;
    makecontext(
        &fiber_context,
        [] {
            for (;;) {
                ++swaps;
                swapcontext(&fiber_context, &main_context);
            }
        },
        0);
    const auto t1 = std::chrono::steady_clock::now();
    for (long i = 0; i < pairs; ++i) swapcontext(&main_context, &fiber_context);
    const double uns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t1).count();
    std::printf(
        "{\"bench\":\"fiber_switch_pair\",\"flavour\":\"glibc swapcontext\",\"ns_per_pair\":%.1f,\"pairs\":%ld}\n",
        uns / double(swaps), swaps);
    return 0;
}
