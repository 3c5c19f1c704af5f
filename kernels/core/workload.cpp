// Kernel names, shapes and the covering grid; see workload.hpp.
#include "kernels/core/workload.hpp"

#include "kernels/core/join_names.hpp"

#include <array>

namespace threadmap {

namespace {

struct KernelEntry {
    KernelKind kind;
    std::string_view name;
};

constexpr std::array<KernelEntry, 4> kKernels{{
    {KernelKind::Increment, "increment"},
    {KernelKind::IncrementStride, "increment-stride"},
    {KernelKind::Matmul, "matmul"},
    {KernelKind::MatmulXCol, "matmul-xcol"},
}};

}  // namespace

bool operator==(const Workload& a, const Workload& b) {
    return a.kernel == b.kernel && a.n == b.n && a.rows == b.rows && a.cols == b.cols && a.inner == b.inner &&
           a.a_rows == b.a_rows && a.b_cols == b.b_cols;
}

std::string_view kernel_name(KernelKind kind) {
    for (const auto& k : kKernels)
        if (k.kind == kind) return k.name;
    return "?";
}

std::optional<KernelKind> parse_kernel(std::string_view name) {
    for (const auto& k : kKernels)
        if (k.name == name) return k.kind;
    return std::nullopt;
}

std::string kernel_names(const char* separator, const char* last) {
    return join_names(all_kernels(), kernel_name, separator, last);
}

const std::vector<KernelKind>& all_kernels() {
    static const std::vector<KernelKind> kinds = [] {
        std::vector<KernelKind> v;
        for (const auto& k : kKernels) v.push_back(k.kind);
        return v;
    }();
    return kinds;
}

Workload array_workload(KernelKind kind, uint64_t n) {
    Workload w;
    w.kernel = kind;
    w.n = n;
    return w;
}

Workload matmul_workload(KernelKind kind, uint64_t rows, uint64_t cols, uint64_t inner) {
    Workload w;
    w.kernel = kind;
    w.rows = w.a_rows = rows;
    w.cols = w.b_cols = cols;
    w.inner = inner;
    return w;
}

Workload model_array_workload(const std::vector<uint64_t>& shape) {
    Workload w;
    w.kernel = KernelKind::Model;
    if (shape.size() == 2) {
        w.rows = w.a_rows = shape[0];
        w.cols = w.b_cols = shape[1];
    } else {
        w.n = shape.empty() ? 0 : shape[0];
    }
    return w;
}

uint64_t element_count(const Workload& w) { return is_2d(w) ? w.rows * w.cols : w.n; }

std::vector<uint64_t> map_shape(const Workload& w) {
    if (is_2d(w)) return {w.rows, w.cols};
    return {w.n};
}

Dim3 covering_grid(const Workload& w, const Dim3& block) {
    Dim3 grid;  // y and z stay 1: no kernel here indexes blockIdx.z, 1D kernels not blockIdx.y
    switch (w.kernel) {
        case KernelKind::Increment:
        case KernelKind::IncrementStride:
            grid.x = blocks_to_cover(w.n, block.x);
            break;
        case KernelKind::Matmul:  // x → row i, y → column j
            grid.x = blocks_to_cover(w.rows, block.x);
            grid.y = blocks_to_cover(w.cols, block.y);
            break;
        case KernelKind::MatmulXCol:  // x → column j, y → row i
        case KernelKind::Model:       // the spec's covering_grid decides; x across, y down here
            grid.x = blocks_to_cover(is_2d(w) ? w.cols : w.n, block.x);
            grid.y = blocks_to_cover(is_2d(w) ? w.rows : 1, block.y);
            break;
    }
    return grid;
}

std::optional<std::string> check_shape(const Workload& w) {
    if (w.kernel == KernelKind::Model) {
        if (element_count(w) == 0) return "the mapped array is empty";
        return std::nullopt;
    }
    if (!is_matrix(w.kernel)) {
        if (w.n == 0) return "the array length n must be at least 1";
        return std::nullopt;
    }
    if (w.rows == 0 || w.cols == 0 || w.inner == 0) return "matrix sizes (rows, cols, inner) must each be at least 1";
    if (w.a_rows < w.rows)
        return "A has " + std::to_string(w.a_rows) + " rows but C has " + std::to_string(w.rows) +
               "; the kernel would read past the end of A";
    if (w.b_cols < w.cols)
        return "B has " + std::to_string(w.b_cols) + " columns but C has " + std::to_string(w.cols) +
               "; the kernel would read past the end of B";
    return std::nullopt;
}

}  // namespace threadmap
