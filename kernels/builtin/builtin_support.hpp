// What the built-in kernels' files share: shapes, covering grids, input values and the
// bridges that let the bodies of kernel_bodies.hpp (written once for the GPU and the fast
// emulator) run in the kernel model with their accesses recorded.
#pragma once

#include <bit>
#include <algorithm>
#include <cmath>

#include "kernels/builtin/kernel_bodies.hpp"
#include "kernels/core/kernel_data.hpp"
#include "kernels/model/kernel_spec.hpp"
#include "kernels/model/model_thread.hpp"

namespace threadmap::builtin {

inline ThreadContext context_of(const ModelThread& t) { return {t.threadIdx, t.blockIdx, t.blockDim, t.gridDim}; }

// A 1D float array for kernel_bodies.hpp: its loads and stores at the lines given (`Handle`: an
// input's, ModelThread::InputArray, where the kernel only reads it).
template <class Handle = ModelThread::Array<float>>
struct RecordedVector {
    Handle a;
    int load_line, store_line;
    float load(uint64_t i) const { return a.load(i, load_line); }
    void store(uint64_t i, float v) const { a.store(i, v, store_line); }
    uint64_t size() const { return a.size(); }
};

// A row-major float matrix for kernel_bodies.hpp.
template <class Handle = ModelThread::Array<float>>
struct RecordedMatrix {
    Handle a;
    uint64_t rows_, cols_;
    int load_line, store_line;
    float load(uint64_t i, uint64_t j) const { return a.load(i * cols_ + j, load_line); }
    void store(uint64_t i, uint64_t j, float v) const { a.store(i * cols_ + j, v, store_line); }
    uint64_t rows() const { return rows_; }
    uint64_t cols() const { return cols_; }
};

inline std::vector<uint64_t> shape_n(const Params& p, const LaunchConfig&) { return {p[0]}; }
inline Dim3 cover_n(const Params& p, const Dim3& block) { return {blocks_to_cover(p[0], block.x), 1, 1}; }

// One float per element, from kernel_data.hpp's values (exact in float): their first period,
// then copies of it (a division and a conversion per element took a tenth of a 16M-element
// increment's findings run).
inline void fill_counting(const Params&, size_t, std::vector<uint32_t>& bits) {
    const size_t period = std::min<size_t>(bits.size(), kInitialValuePeriod);
    for (size_t i = 0; i < period; ++i) bits[i] = std::bit_cast<uint32_t>(initial_array_value(i));
    for (size_t i = period; i < bits.size(); i += period)
        std::copy_n(bits.begin(), std::min(period, bits.size() - i), bits.begin() + ptrdiff_t(i));
}

inline uint32_t float_bits(float f) { return std::bit_cast<uint32_t>(f); }
inline float bits_float(uint32_t b) { return std::bit_cast<float>(b); }

}  // namespace threadmap::builtin
