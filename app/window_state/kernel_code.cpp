// Kernel source text; see kernel_code.hpp.
#include "app/window_state/kernel_code.hpp"

#include <cstdio>
#include <sstream>

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

std::string shape(uint64_t a, uint64_t b) { return "(" + std::to_string(a) + ", " + std::to_string(b) + ")"; }

// The kernels whose text the tutorial gives (numba's and its CUDA C++ twin, with the host code
// around the launch), by the fast body's name: matmul's text serves both of its placements.
enum class TutorialKernel { None, Increment, IncrementStride, Matmul };
TutorialKernel tutorial_kernel(const Workload& workload) {
    const std::string_view name = kernel_name(workload.kernel);
    if (name == "increment") return TutorialKernel::Increment;
    if (name == "increment-stride") return TutorialKernel::IncrementStride;
    if (name == "matmul" || name == "matmul-xcol") return TutorialKernel::Matmul;
    return TutorialKernel::None;
}

// The numba kernel bodies, as the tutorial writes them (or with x indexing columns).
std::vector<CodeLine> numba_kernel(const Workload& workload, const CodeOptions& o) {
    switch (tutorial_kernel(workload)) {
        case TutorialKernel::None:
            return {};
        case TutorialKernel::Increment:
            return {{"@cuda.jit"},
                    {"def increment_by_one(an_array):"},
                    {"    pos = cuda.threadIdx.x + cuda.blockIdx.x * cuda.blockDim.x"},
                    {"    if pos < an_array.size:", true},
                    {"        an_array[pos] += 1"}};
        case TutorialKernel::IncrementStride:
            return {{"@cuda.jit"},
                    {"def increment_stride(an_array):"},
                    {"    start = cuda.grid(1)"},
                    {"    stride = cuda.gridsize(1)"},
                    {"    for pos in range(start, an_array.size, stride):", true},
                    {"        an_array[pos] += 1"}};
        case TutorialKernel::Matmul: {
            const bool x_row = placement_of(workload) == ThreadPlacement::XRow;
            const bool fp32 = o.program.element == ElementType::Float32;
            std::vector<CodeLine> k = {
                {"@cuda.jit"},
                {"def matmul(A, B, C):"},
                {x_row ? "    i, j = cuda.grid(2)      # x -> row i" : "    j, i = cuda.grid(2)      # x -> column j"},
                {"    if i < C.shape[0] and j < C.shape[1]:", true},
                // 0. is a float64: with float32 arrays the sum would still be computed in FP64
                {fp32 ? "        tmp = float32(0.)    # from numba import float32" : "        tmp = 0."},
                {"        for k in range(A.shape[1]):"},
                {"            tmp += A[i, k] * B[k, j]"}};
            k.push_back(
                {o.store_in_loop ? "            C[i, j] = tmp    # a store every step" : "        C[i, j] = tmp"});
            return k;
        }
    }
    return {};
}

}  // namespace

bool has_tutorial_text(const Workload& workload) { return tutorial_kernel(workload) != TutorialKernel::None; }

std::vector<CodeLine> numba_code(const Workload& workload, const LaunchConfig& l, const CodeOptions& o) {
    const int n = std::max(dims(l.grid), dims(l.block));
    const std::string launch = "[" + py_dim(l.grid, n) + ", " + py_dim(l.block, n) + "]";
    const bool host_arrays = o.program.transfers == Transfers::HostArrays;
    const std::string dtype = o.program.element == ElementType::Float32 ? ", dtype=np.float32" : "";
    const std::string as32 = o.program.element == ElementType::Float32 ? ".astype(np.float32)" : "";
    std::vector<CodeLine> c = numba_kernel(workload, o);
    c.push_back({""});
    if (o.pinned)
        c.push_back({"# pinned host memory: make the host arrays with cuda.pinned_array(shape" + dtype + ")"});
    if (is_matrix(workload.kernel)) {
        const std::string a = "np.random.rand" + shape(workload.a_rows, workload.inner) + as32;
        const std::string b = "np.random.rand" + shape(workload.inner, workload.b_cols) + as32;
        if (host_arrays) {
            c.push_back({"A = " + a});
            c.push_back({"B = " + b});
            c.push_back({"C = np.zeros(" + shape(workload.rows, workload.cols) + dtype + ")"});
            c.push_back({"matmul" + launch + "(A, B, C)", false, true});
        } else {
            c.push_back({"A = cuda.to_device(" + a + ")"});
            c.push_back({"B = cuda.to_device(" + b + ")"});
            c.push_back({"C = cuda.device_array(" + shape(workload.rows, workload.cols) + dtype + ")"});
            c.push_back({"matmul" + launch + "(A, B, C)", false, true});
            c.push_back({"result = C.copy_to_host()"});
        }
    } else {
        const std::string name =
            tutorial_kernel(workload) == TutorialKernel::Increment ? "increment_by_one" : "increment_stride";
        const std::string zeros = "np.zeros(" + std::to_string(workload.n) + dtype + ")";
        if (host_arrays) {
            c.push_back({"an_array = " + zeros});
            c.push_back({name + launch + "(an_array)", false, true});
        } else {
            c.push_back({"d_a = cuda.to_device(" + zeros + ")"});
            c.push_back({name + launch + "(d_a)", false, true});
            c.push_back({"an_array = d_a.copy_to_host()"});
        }
    }
    // What numba prints when this runs (NumbaPerformanceWarning), so nobody is surprised.
    if (host_arrays)
        c.push_back({"# numba warns: Host array used in CUDA kernel will incur copy overhead to/from device.", false,
                     false, true});
    if (l.blocks() < kNumbaLowOccupancyBlocks)
        c.push_back({"# numba warns: Grid size " + std::to_string(l.blocks()) +
                         " will likely result in GPU under-utilization due to low occupancy.",
                     false, false, true});
    return c;
}

std::vector<CodeLine> model_kernel_code(const KernelSpec& spec, const LaunchConfig& launch) {
    std::vector<CodeLine> c;
    std::istringstream source(spec.cuda_source);
    std::string text;
    for (int line = 1; std::getline(source, text); ++line) {
        char number[16];
        std::snprintf(number, sizeof number, "%3d  ", line);
        c.push_back({number + text});
    }
    const int n = std::max(dims(launch.grid), dims(launch.block));
    // The kernel's name: the word before the parenthesis after __global__ (a __device__ helper
    // may come first: warp-shuffle-sum's launch line read "<<<4, 128>>>(...)").
    const size_t global = spec.cuda_source.find("__global__");
    const size_t from = global == std::string::npos ? 0 : global;
    std::string name = spec.cuda_source.substr(from, spec.cuda_source.find('(', from) - from);
    name = name.substr(name.find_last_of(" \n*&") + 1);
    c.push_back({""});
    c.push_back({"// launched as", false, false, true});
    c.push_back({name + "<<<" + cu_dim(launch.grid, n) + ", " + cu_dim(launch.block, n) + ">>>(...);", false, true});
    return c;
}

namespace {

// An increment kernel (`guard`: its bounds line, marked) and the host code around its launch.
std::vector<CodeLine> increment_code(const std::string& name, const std::vector<std::string>& guard,
                                     const std::string& t, const std::string& launch, const std::string& host,
                                     uint64_t n) {
    std::vector<CodeLine> c = {{"__global__ void " + name + "(" + t + "* a, size_t n) {"}};
    for (size_t k = 0; k < guard.size(); ++k) c.push_back({guard[k], k + 1 == guard.size()});
    for (const std::string& line : {std::string("        a[pos] += 1;"), std::string("}"), std::string(""), host,
                                    "cudaMemcpy(d_a, a, n * sizeof(" + t + "), cudaMemcpyHostToDevice);"})
        c.push_back({line});
    c.push_back({name + launch + "(d_a, " + std::to_string(n) + ");", false, true});
    c.push_back({"cudaMemcpy(a, d_a, n * sizeof(" + t + "), cudaMemcpyDeviceToHost);"});
    return c;
}

// The tutorial's matmul (x → row, or x → column) and the host code around its launch.
std::vector<CodeLine> matmul_code(const Workload& workload, const std::string& t, const std::string& launch,
                                  const std::string& host, bool store_in_loop) {
    const bool x_row = placement_of(workload) == ThreadPlacement::XRow;
    std::vector<CodeLine> c = {
        {"__global__ void matmul(const " + t + "* A, const " + t + "* B, " + t + "* C,"},
        {"                       int rows, int cols, int inner, int ldb) {  // ldb: B's row length"},
        {x_row ? "    int i = threadIdx.x + blockIdx.x * blockDim.x;  // x -> row"
               : "    int j = threadIdx.x + blockIdx.x * blockDim.x;  // x -> column"},
        {x_row ? "    int j = threadIdx.y + blockIdx.y * blockDim.y;"
               : "    int i = threadIdx.y + blockIdx.y * blockDim.y;"},
        {"    if (i < rows && j < cols) {", true},
        {"        " + t + " tmp = 0;"}};
    if (store_in_loop) {
        c.push_back({"        for (int k = 0; k < inner; ++k) {"});
        c.push_back({"            tmp += A[i * inner + k] * B[k * ldb + j];"});
        c.push_back({"            C[i * cols + j] = tmp;  // a store every step"});
        c.push_back({"        }"});
    } else {
        c.push_back({"        for (int k = 0; k < inner; ++k) tmp += A[i * inner + k] * B[k * ldb + j];"});
        c.push_back({"        C[i * cols + j] = tmp;"});
    }
    for (const char* line : {"    }", "}", ""}) c.push_back({line});
    c.push_back({host});
    const auto bytes = [&t](uint64_t r, uint64_t k) {
        return std::to_string(r) + " * " + std::to_string(k) + " * sizeof(" + t + ")";
    };
    c.push_back({"cudaMemcpy(d_A, A, " + bytes(workload.a_rows, workload.inner) + ", cudaMemcpyHostToDevice);"});
    c.push_back({"cudaMemcpy(d_B, B, " + bytes(workload.inner, workload.b_cols) + ", cudaMemcpyHostToDevice);"});
    c.push_back({"matmul" + launch + "(d_A, d_B, d_C, " + std::to_string(workload.rows) + ", " +
                     std::to_string(workload.cols) + ", " + std::to_string(workload.inner) + ", " +
                     std::to_string(workload.b_cols) + ");",
                 false, true});
    c.push_back({"cudaMemcpy(C, d_C, " + bytes(workload.rows, workload.cols) + ", cudaMemcpyDeviceToHost);"});
    return c;
}

}  // namespace

std::vector<CodeLine> cuda_code(const Workload& workload, const LaunchConfig& l, const CodeOptions& o) {
    const int n = std::max(dims(l.grid), dims(l.block));
    const std::string launch = "<<<" + cu_dim(l.grid, n) + ", " + cu_dim(l.block, n) + ">>>";
    const std::string t = o.program.element == ElementType::Float64 ? "double" : "float";
    const std::string host = o.pinned ? "// host arrays from cudaMallocHost (pinned); device arrays from cudaMalloc"
                                      : "// host arrays from malloc (pageable); device arrays from cudaMalloc";
    switch (tutorial_kernel(workload)) {
        case TutorialKernel::None:  // model_kernel_code
            return {};
        case TutorialKernel::Increment:
            return increment_code("increment_by_one",
                                  {"    size_t pos = threadIdx.x + blockIdx.x * blockDim.x;", "    if (pos < n)"}, t,
                                  launch, host, workload.n);
        case TutorialKernel::IncrementStride:
            return increment_code(
                "increment_stride",
                {"    size_t stride = (size_t)blockDim.x * gridDim.x;",
                 "    for (size_t pos = threadIdx.x + blockIdx.x * blockDim.x; pos < n; pos += stride)"},
                t, launch, host, workload.n);
        case TutorialKernel::Matmul:
            return matmul_code(workload, t, launch, host, o.store_in_loop);
    }
    return {};
}

}  // namespace threadmap
