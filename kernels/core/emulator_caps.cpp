// Emulator caps; see emulator_caps.hpp. Products are formed in 128 bits: user-given sizes
// can be anything up to 2^64 − 1 and must never wrap into a small, accepted number.
#include "kernels/core/emulator_caps.hpp"

namespace threadmap {

namespace {

using u128 = unsigned __int128;

std::string u128_string(u128 v) {
    if (v == 0) return "0";
    std::string s;
    for (; v > 0; v /= 10) s.insert(s.begin(), char('0' + int(v % 10)));
    return s;
}

std::optional<std::string> above(const char* what, u128 value, uint64_t cap) {
    if (value <= cap) return std::nullopt;
    return std::string(what) + " has " + u128_string(value) + " elements; above the emulator's cap of " +
           std::to_string(cap);
}

}  // namespace

Outcome<void> check_shape_caps(const Workload& workload, const EmulatorCaps& caps) {
    if (!is_matrix(workload.kernel)) {
        if (auto e = above("the array", workload.n, caps.max_elements)) return failed(*e);
        return done();
    }
    if (auto e = above("C", u128(workload.rows) * workload.cols, caps.max_elements)) return failed(*e);
    if (auto e = above("A", u128(workload.a_rows) * workload.inner, caps.max_elements)) return failed(*e);
    if (auto e = above("B", u128(workload.inner) * workload.b_cols, caps.max_elements)) return failed(*e);
    if (workload.inner > caps.max_inner)
        return failed("inner dimension " + std::to_string(workload.inner) + " is above the emulator's cap of " +
                      std::to_string(caps.max_inner));
    return done();
}

Outcome<void> check_launch_caps(const Workload& workload, const LaunchConfig& launch, const EmulatorCaps& caps) {
    const u128 threads = u128(launch.grid.volume()) * launch.block.volume();
    if (threads > caps.max_threads)
        return failed("valid on a GPU; above the emulator's cap of " + std::to_string(caps.max_threads) +
                      " threads (this launch has " + u128_string(threads) + ")");
    if (is_matrix(workload.kernel) && threads * workload.inner > caps.max_multiply_adds)
        return failed("valid on a GPU; above the emulator's cap of " + std::to_string(caps.max_multiply_adds) +
                      " multiply-adds (threads × inner = " + u128_string(threads * workload.inner) + ")");
    return done();
}

}  // namespace threadmap
