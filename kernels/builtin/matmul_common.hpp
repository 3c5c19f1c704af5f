// What the matmul kernels share: parameters rows, cols, inner (C is rows×cols, the sum runs
// over inner), a_rows and b_cols (A is a_rows×inner, B is inner×b_cols: the tutorial's
// seed-matmul allocates C smaller than A·B), the arrays, inputs and the reference.
#pragma once

#include "kernels/builtin/builtin_support.hpp"

namespace threadmap::builtin {

enum MatmulParam : size_t { kRows, kCols, kInner, kARows, kBCols };
enum MatmulArray : size_t { kA, kB, kC };

inline std::vector<ParamSpec> matmul_params() {
    return {{"rows", "rows of C", 200},
            {"cols", "columns of C", 200},
            {"inner", "columns of A = rows of B (default: cols)", 200, 1, uint64_t(1) << 16, kCols},
            {"a_rows", "rows of A (default: rows)", 1, 1, uint64_t(1) << 30, kRows, true, true},
            {"b_cols", "columns of B (default: cols)", 1, 1, uint64_t(1) << 30, kCols, true, true}};
}

inline std::vector<ArraySpec> matmul_arrays() {
    return {{"A", MemorySpace::Global, ValueType::Float32, ArrayRole::Input,
             [](const Params& p, const LaunchConfig&) {
                 return std::vector<uint64_t>{p[kARows], p[kInner]};
             }},
            {"B", MemorySpace::Global, ValueType::Float32, ArrayRole::Input,
             [](const Params& p, const LaunchConfig&) {
                 return std::vector<uint64_t>{p[kInner], p[kBCols]};
             }},
            {"C", MemorySpace::Global, ValueType::Float32, ArrayRole::Output, [](const Params& p, const LaunchConfig&) {
                 return std::vector<uint64_t>{p[kRows], p[kCols]};
             }}};
}

inline void fill_matmul_input(const Params& p, size_t array, std::vector<uint32_t>& bits) {
    const uint64_t cols = array == kA ? p[kInner] : p[kBCols];
    for (uint64_t e = 0; e < bits.size(); ++e) {
        const uint64_t r = e / cols, c = e % cols;
        bits[e] = float_bits(array == kA ? matrix_a_value(r, c) : matrix_b_value(r, c));
    }
}

inline KernelSpec::Bits matmul_reference(const Params& p, const LaunchConfig&, const KernelSpec::Bits& in) {
    KernelSpec::Bits out(3);
    out[kC].resize(p[kRows] * p[kCols]);
    for (uint64_t i = 0; i < p[kRows]; ++i)
        for (uint64_t j = 0; j < p[kCols]; ++j) {
            float sum = 0;  // values in 1/8 steps: exact in any order
            for (uint64_t k = 0; k < p[kInner]; ++k)
                sum += bits_float(in[kA][i * p[kInner] + k]) * bits_float(in[kB][k * p[kBCols] + j]);
            out[kC][i * p[kCols] + j] = float_bits(sum);
        }
    return out;
}

// The operands as kernel_bodies.hpp sees them, loads at `line`, C's store at `store_line`.
struct MatmulOperands {
    RecordedMatrix<ModelThread::InputArray<float>> A, B;
    RecordedMatrix<> C;
    MatmulOperands(ModelThread& t, int line, int store_line)
        : A{t.input_array<float>(kA), t.param(kARows), t.param(kInner), line, line},
          B{t.input_array<float>(kB), t.param(kInner), t.param(kBCols), line, line},
          C{t.array<float>(kC), t.param(kRows), t.param(kCols), store_line, store_line} {}
};

// C's shape with x indexing rows (the tutorial) or columns (the fix).
inline Dim3 cover_x_rows(const Params& p, const Dim3& b) {
    return {blocks_to_cover(p[kRows], b.x), blocks_to_cover(p[kCols], b.y), 1};
}
inline Dim3 cover_x_cols(const Params& p, const Dim3& b) {
    return {blocks_to_cover(p[kCols], b.x), blocks_to_cover(p[kRows], b.y), 1};
}

// The CUDA text of the one-thread-per-element matmuls: `indices` are lines 3-4 (i and j),
// `loop` lines 7 on (the k loop and C's store); the other lines are the same in all three.
inline std::string matmul_source(const std::string& name, const std::string& indices, const std::string& loop) {
    return "__global__ void " + name +
           "(const float* A, const float* B, float* C,\n"
           "        size_t rows, size_t cols, size_t inner, size_t b_cols) {\n" +
           indices +
           "    if (i < rows && j < cols) {\n"
           "        float tmp = 0;\n" +
           loop +
           "    }\n"
           "}\n";
}

// The k loop of matmul and matmul-xcol: lines 7-9.
inline constexpr const char* kMatmulLoop =
    "        for (size_t k = 0; k < inner; ++k)\n"
    "            tmp += A[i * inner + k] * B[k * b_cols + j];\n"
    "        C[i * cols + j] = tmp;\n";

inline KernelSpec matmul_spec_base() {
    KernelSpec spec;
    spec.params = matmul_params();
    spec.arrays = matmul_arrays();
    spec.default_block = {32, 32, 1};
    spec.fill_input = fill_matmul_input;
    spec.reference = matmul_reference;
    spec.flops = [](const Params& p) { return 2.0 * double(p[kRows]) * double(p[kCols]) * double(p[kInner]); };
    return spec;
}

}  // namespace threadmap::builtin
