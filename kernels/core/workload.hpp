// Workload: which fast body runs over which shape. The map is of the kernel's output array (a for
// increment, C for matmul; for the kernel model's picture, the array the map shows).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/core/launch_config.hpp"
#include "kernels/core/outcome.hpp"

namespace threadmap {

// Where a launch's threads land on the mapped array by their cuda.grid position: the map draws
// idle threads past the data there ("ghost" cells). A layout hint of a kernel's fast body.
enum class ThreadPlacement : uint8_t {
    ByKernel,  // the kernel's own indexing decides (the kernel model's maps): no idle-thread cells
    Linear,    // cuda.grid(1) → element (increment)
    XRow,      // x → row i, y → column j (the tutorial's matmul)
    XColumn,   // x → column j, y → row i (matmul-xcol)
};

// The data a fast body runs over: one array of n elements, or C = A·B. The family also says what
// the body computes where the timing model and the CPU reference need it (timing_model.cpp's
// workload_cost, cpu_reference.cpp): a[i] += 1 over the array, or the product. A fast body
// that computes something else needs its own cost and CPU twin there first.
enum class FastFamily : uint8_t { Array, Matrix };

// A kernel's compiled fast body, as its spec carries it (KernelSpec::fast): the writers-only CPU
// emulator, a GPU twin and the map's layout run it. Each is defined beside its body
// (kernels/builtin/kernel_bodies.hpp); its address names it.
struct FastKernel {
    const char* name;  // the registry's name: "increment", "matmul-xcol"
    FastFamily family;
    ThreadPlacement placement;
};

struct Workload {
    // The kernel's fast body; nullptr: the kernel model's picture of a registry kernel's array,
    // n elements, or rows × cols when rows > 0 (no operands, no idle-thread cells: which thread
    // would land on a cell is the kernel's own business).
    const FastKernel* kernel = nullptr;
    uint64_t n = 0;  // Array: its length
    // Matrix: C is rows×cols; A is a_rows×inner, B is inner×b_cols. The tutorial's seed-matmul
    // allocates C smaller than A·B (a_rows > rows, b_cols > cols), so they are kept apart.
    uint64_t rows = 0;
    uint64_t cols = 0;
    uint64_t inner = 0;
    uint64_t a_rows = 0;
    uint64_t b_cols = 0;
};

bool operator==(const Workload& a, const Workload& b);  // spelled out: nvcc here is C++17

inline std::string_view kernel_name(const FastKernel* kernel) { return kernel ? kernel->name : "?"; }
inline bool is_matrix(const FastKernel* kernel) { return kernel && kernel->family == FastFamily::Matrix; }
inline bool is_model(const Workload& workload) { return workload.kernel == nullptr; }
// The mapped array is drawn as rows × cols: a matmul's C, or a 2D array of a model kernel (a
// 1D workload leaves rows 0; TM_HD: the GPU's colorizer asks too).
TM_HD inline bool is_2d(const Workload& workload) { return workload.rows > 0; }
// Where the threads land (ByKernel for the kernel model's maps).
inline ThreadPlacement placement_of(const Workload& workload) {
    return workload.kernel ? workload.kernel->placement : ThreadPlacement::ByKernel;
}

// An Array kernel over n elements.
Workload array_workload(const FastKernel* kernel, uint64_t n);
// A Matrix workload whose A and B are exactly the operands of a rows×cols product.
Workload matmul_workload(const FastKernel* kernel, uint64_t rows, uint64_t cols, uint64_t inner);
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
