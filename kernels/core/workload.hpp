// Workload: which kernel runs over which shape. The map is of the kernel's output array (a for
// increment, C for matmul; for a kernel only the kernel model runs, the array the map shows).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/core/launch_config.hpp"
#include "kernels/core/outcome.hpp"

namespace threadmap {

enum class KernelKind {
    Increment,
    IncrementStride,
    Matmul,
    MatmulXCol,
    // A kernel of the registry (kernels/builtin) that only the kernel model runs: the workload
    // describes the array the map shows, n elements, or rows × cols when rows > 0 (no operands,
    // no idle-thread cells: which thread would land on a cell is the kernel's own business).
    Model,
};

struct Workload {
    KernelKind kernel = KernelKind::Increment;
    uint64_t n = 0;  // 1D kernels: array length
    // Matmul: C is rows×cols; A is a_rows×inner, B is inner×b_cols. The tutorial's seed-matmul
    // allocates C smaller than A·B (a_rows > rows, b_cols > cols), so they are kept apart.
    uint64_t rows = 0;
    uint64_t cols = 0;
    uint64_t inner = 0;
    uint64_t a_rows = 0;
    uint64_t b_cols = 0;
};

bool operator==(const Workload& a, const Workload& b);  // spelled out: nvcc here is C++17

std::string_view kernel_name(KernelKind kind);  // "increment", "matmul-xcol", …
std::optional<KernelKind> parse_kernel(std::string_view name);
const std::vector<KernelKind>& all_kernels();
// "increment, increment-stride, matmul or matmul-xcol" (or joined by `separator`).
std::string kernel_names(const char* separator = ", ", const char* last = " or ");
TM_HD inline bool is_matrix(KernelKind kind) { return kind == KernelKind::Matmul || kind == KernelKind::MatmulXCol; }
// The mapped array is drawn as rows × cols: a matmul's C, or a 2D array of a model kernel.
TM_HD inline bool is_2d(const Workload& workload) {
    return is_matrix(workload.kernel) || (workload.kernel == KernelKind::Model && workload.rows > 0);
}

// An increment kernel over an array of n elements.
Workload array_workload(KernelKind kind, uint64_t n);
// A matmul workload whose A and B are exactly the operands of a rows×cols product.
Workload matmul_workload(KernelKind kind, uint64_t rows, uint64_t cols, uint64_t inner);
// The array a model kernel's map shows: [n] or [rows, cols].
Workload model_array_workload(const std::vector<uint64_t>& shape);

uint64_t element_count(const Workload& workload);           // elements of the mapped (output) array
std::vector<uint64_t> map_shape(const Workload& workload);  // [n] or [rows, cols]

// The grid a user should write for this block: ⌈extent / block⌉ on the axes the kernel
// indexes, 1 elsewhere (may exceed a device limit; validation says so).
Dim3 covering_grid(const Workload& workload, const Dim3& block);

// Empty when the shapes make sense (positive, operands large enough for C's guard to keep
// every read in bounds); otherwise why not.
Outcome<void> check_shape(const Workload& workload);

}  // namespace threadmap
