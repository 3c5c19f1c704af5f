// The arrays a kernel runs on. Values are small multiples of 1/8, so every product and sum
// the kernels form is exact in float: the emulator, a GPU (with or without FMA) and a
// reference must agree bit for bit, in any summation order.
#pragma once

#include "kernels/core/workload.hpp"
#include "kernels/core/zeroed_buffer.hpp"

namespace threadmap {

struct KernelData {
    ZeroedBuffer<float> out;  // the mapped array: a for increment (read and written), C for matmul
    ZeroedBuffer<float> a;    // matmul's A (a_rows × inner); empty for 1D kernels
    ZeroedBuffer<float> b;    // matmul's B (inner × b_cols); empty for 1D kernels
};

// The increment kernels' input: 0, 1, …, 999, again and again.
inline constexpr uint64_t kInitialValuePeriod = 1000;
inline float initial_array_value(uint64_t i) { return float(i % kInitialValuePeriod); }
inline float matrix_a_value(uint64_t i, uint64_t k) { return float(int((i * 7 + k * 3) % 17) - 8) / 8; }
inline float matrix_b_value(uint64_t k, uint64_t j) { return float(int((k * 5 + j * 11) % 13) - 6) / 8; }

KernelData make_kernel_data(const Workload& workload);
void make_inputs(const Workload& workload, KernelData& data);  // A and B only

// Gives out its value before the launch, reusing its memory when the size matches.
void reset_output(const Workload& workload, ZeroedBuffer<float>& out);

}  // namespace threadmap
