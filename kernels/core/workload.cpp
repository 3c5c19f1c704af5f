// Shapes and the covering grid; see workload.hpp.
#include "kernels/core/workload.hpp"

namespace threadmap {

bool operator==(const Workload& a, const Workload& b) {
    return a.kernel == b.kernel && a.n == b.n && a.rows == b.rows && a.cols == b.cols && a.inner == b.inner &&
           a.a_rows == b.a_rows && a.b_cols == b.b_cols;
}

Workload array_workload(const FastKernel* kernel, uint64_t n) {
    Workload workload;
    workload.kernel = kernel;
    workload.n = n;
    return workload;
}

Workload matmul_workload(const FastKernel* kernel, uint64_t rows, uint64_t cols, uint64_t inner) {
    Workload workload;
    workload.kernel = kernel;
    workload.rows = workload.a_rows = rows;
    workload.cols = workload.b_cols = cols;
    workload.inner = inner;
    return workload;
}

Workload model_array_workload(const std::vector<uint64_t>& shape) {
    Workload workload;
    if (shape.size() == 2) {
        workload.rows = workload.a_rows = shape[0];
        workload.cols = workload.b_cols = shape[1];
    } else {
        workload.n = shape.empty() ? 0 : shape[0];
    }
    return workload;
}

uint64_t element_count(const Workload& workload) {
    return is_2d(workload) ? workload.rows * workload.cols : workload.n;
}

std::vector<uint64_t> map_shape(const Workload& workload) {
    if (is_2d(workload)) return {workload.rows, workload.cols};
    return {workload.n};
}

Dim3 covering_grid(const Workload& workload, const Dim3& block) {
    Dim3 grid;  // y and z stay 1: no kernel here indexes blockIdx.z, 1D kernels not blockIdx.y
    switch (placement_of(workload)) {
        case ThreadPlacement::Linear:
            grid.x = blocks_to_cover(workload.n, block.x);
            break;
        case ThreadPlacement::XRow:  // x → row i, y → column j
            grid.x = blocks_to_cover(workload.rows, block.x);
            grid.y = blocks_to_cover(workload.cols, block.y);
            break;
        case ThreadPlacement::XColumn:   // x → column j, y → row i
        case ThreadPlacement::ByKernel:  // the spec's covering_grid decides; x across, y down here
            grid.x = blocks_to_cover(is_2d(workload) ? workload.cols : workload.n, block.x);
            grid.y = blocks_to_cover(is_2d(workload) ? workload.rows : 1, block.y);
            break;
    }
    return grid;
}

Outcome<void> check_shape(const Workload& workload) {
    if (is_model(workload)) {
        if (element_count(workload) == 0) return failed("the mapped array is empty");
        return done();
    }
    if (!is_matrix(workload.kernel)) {
        if (workload.n == 0) return failed("the array length n must be at least 1");
        return done();
    }
    if (workload.rows == 0 || workload.cols == 0 || workload.inner == 0)
        return failed("matrix sizes (rows, cols, inner) must each be at least 1");
    if (workload.a_rows < workload.rows)
        return failed("A has " + std::to_string(workload.a_rows) + " rows but C has " + std::to_string(workload.rows) +
                      "; the kernel would read past the end of A");
    if (workload.b_cols < workload.cols)
        return failed("B has " + std::to_string(workload.b_cols) + " columns but C has " +
                      std::to_string(workload.cols) + "; the kernel would read past the end of B");
    return done();
}

}  // namespace threadmap
