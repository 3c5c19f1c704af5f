// Kernel source text; see kernel_code.hpp.
#include "kernel_code.hpp"

namespace threadmap {

namespace {

int dims(const Dim3& d) { return d.z > 1 ? 3 : d.y > 1 ? 2 : 1; }

// numba: 16, (16, 16) or (16, 16, 2)
std::string py_dim(const Dim3& d, int n) {
    if (n == 1) return std::to_string(d.x);
    std::string s = "(" + std::to_string(d.x) + ", " + std::to_string(d.y);
    if (n == 3) s += ", " + std::to_string(d.z);
    return s + ")";
}

// CUDA: 16, or dim3(16, 16), or dim3(16, 16, 2)
std::string cu_dim(const Dim3& d, int n) {
    if (n == 1) return std::to_string(d.x);
    return "dim3" + py_dim(d, n);
}

}  // namespace

std::vector<CodeLine> numba_code(const Workload& w, const LaunchConfig& l) {
    const int n = std::max(dims(l.grid), dims(l.block));
    const std::string launch = "[" + py_dim(l.grid, n) + ", " + py_dim(l.block, n) + "]";
    switch (w.kernel) {
        case KernelKind::Increment:
            return {{"@cuda.jit"},
                    {"def increment_by_one(an_array):"},
                    {"    pos = cuda.threadIdx.x + cuda.blockIdx.x * cuda.blockDim.x"},
                    {"    if pos < an_array.size:", true},
                    {"        an_array[pos] += 1"},
                    {""},
                    {"an_array = np.zeros(" + std::to_string(w.n) + ", dtype=np.float32)"},
                    {"increment_by_one" + launch + "(an_array)", false, true}};
        case KernelKind::IncrementStride:
            return {{"@cuda.jit"},
                    {"def increment_stride(an_array):"},
                    {"    start = cuda.grid(1)"},
                    {"    stride = cuda.gridsize(1)"},
                    {"    for pos in range(start, an_array.size, stride):", true},
                    {"        an_array[pos] += 1"},
                    {""},
                    {"an_array = np.zeros(" + std::to_string(w.n) + ", dtype=np.float32)"},
                    {"increment_stride" + launch + "(an_array)", false, true}};
        case KernelKind::Matmul:
        case KernelKind::MatmulXCol: {
            const bool x_row = w.kernel == KernelKind::Matmul;
            return {
                {"@cuda.jit"},
                {"def matmul(A, B, C):"},
                {x_row ? "    i, j = cuda.grid(2)      # x -> row i" : "    j, i = cuda.grid(2)      # x -> column j"},
                {"    if i < C.shape[0] and j < C.shape[1]:", true},
                {"        tmp = 0."},
                {"        for k in range(A.shape[1]):"},
                {"            tmp += A[i, k] * B[k, j]"},
                {"        C[i, j] = tmp"},
                {""},
                {"A = np.random.rand(" + std::to_string(w.a_rows) + ", " + std::to_string(w.inner) + ")"},
                {"B = np.random.rand(" + std::to_string(w.inner) + ", " + std::to_string(w.b_cols) + ")"},
                {"C = np.zeros((" + std::to_string(w.rows) + ", " + std::to_string(w.cols) + "))"},
                {"matmul" + launch + "(A, B, C)", false, true}};
        }
    }
    return {};
}

std::vector<CodeLine> cuda_code(const Workload& w, const LaunchConfig& l) {
    const int n = std::max(dims(l.grid), dims(l.block));
    const std::string launch = "<<<" + cu_dim(l.grid, n) + ", " + cu_dim(l.block, n) + ">>>";
    switch (w.kernel) {
        case KernelKind::Increment:
            return {{"__global__ void increment_by_one(float* a, size_t n) {"},
                    {"    size_t pos = threadIdx.x + blockIdx.x * blockDim.x;"},
                    {"    if (pos < n)", true},
                    {"        a[pos] += 1;"},
                    {"}"},
                    {""},
                    {"increment_by_one" + launch + "(d_a, " + std::to_string(w.n) + ");", false, true}};
        case KernelKind::IncrementStride:
            return {{"__global__ void increment_stride(float* a, size_t n) {"},
                    {"    size_t stride = (size_t)blockDim.x * gridDim.x;"},
                    {"    for (size_t pos = threadIdx.x + blockIdx.x * blockDim.x; pos < n; pos += stride)", true},
                    {"        a[pos] += 1;"},
                    {"}"},
                    {""},
                    {"increment_stride" + launch + "(d_a, " + std::to_string(w.n) + ");", false, true}};
        case KernelKind::Matmul:
        case KernelKind::MatmulXCol: {
            const bool x_row = w.kernel == KernelKind::Matmul;
            return {{"__global__ void matmul(const float* A, const float* B, float* C,"},
                    {"                       int rows, int cols, int inner, int ldb) {  // ldb: B's row length"},
                    {x_row ? "    int i = threadIdx.x + blockIdx.x * blockDim.x;  // x -> row"
                           : "    int j = threadIdx.x + blockIdx.x * blockDim.x;  // x -> column"},
                    {x_row ? "    int j = threadIdx.y + blockIdx.y * blockDim.y;"
                           : "    int i = threadIdx.y + blockIdx.y * blockDim.y;"},
                    {"    if (i < rows && j < cols) {", true},
                    {"        float tmp = 0;"},
                    {"        for (int k = 0; k < inner; ++k) tmp += A[i * inner + k] * B[k * ldb + j];"},
                    {"        C[i * cols + j] = tmp;"},
                    {"    }"},
                    {"}"},
                    {""},
                    {"matmul" + launch + "(d_A, d_B, d_C, " + std::to_string(w.rows) + ", " + std::to_string(w.cols) +
                         ", " + std::to_string(w.inner) + ", " + std::to_string(w.b_cols) + ");",
                     false, true}};
        }
    }
    return {};
}

}  // namespace threadmap
