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

std::optional<std::string> check_shape_caps(const Workload& w, const EmulatorCaps& caps) {
    if (!is_matrix(w.kernel)) return above("the array", w.n, caps.max_elements);
    if (auto e = above("C", u128(w.rows) * w.cols, caps.max_elements)) return e;
    if (auto e = above("A", u128(w.a_rows) * w.inner, caps.max_elements)) return e;
    if (auto e = above("B", u128(w.inner) * w.b_cols, caps.max_elements)) return e;
    if (w.inner > caps.max_inner)
        return "inner dimension " + std::to_string(w.inner) + " is above the emulator's cap of " +
               std::to_string(caps.max_inner);
    return std::nullopt;
}

std::optional<std::string> check_launch_caps(const Workload& w, const LaunchConfig& launch, const EmulatorCaps& caps) {
    const u128 threads = u128(launch.grid.volume()) * launch.block.volume();
    if (threads > caps.max_threads)
        return "valid on a GPU; above the emulator's cap of " + std::to_string(caps.max_threads) +
               " threads (this launch has " + u128_string(threads) + ")";
    if (is_matrix(w.kernel) && threads * w.inner > caps.max_multiply_adds)
        return "valid on a GPU; above the emulator's cap of " + std::to_string(caps.max_multiply_adds) +
               " multiply-adds (threads × inner = " + u128_string(threads * w.inner) + ")";
    return std::nullopt;
}

}  // namespace threadmap
