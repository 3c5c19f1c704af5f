// What the inspector and the code panel say, for the tutorial's launches.
#include <doctest/doctest.h>

#include <unistd.h>

#include <algorithm>
#include <fstream>

#include "app/window_state/export_names.hpp"
#include "kernels/builtin/kernel_bodies.hpp"
#include "app/window_state/inspector_text.hpp"
#include "app/window_state/kernel_code.hpp"
#include "tests/app/lesson_launch.hpp"

using namespace threadmap;

namespace {

MapPicture picture(const std::string& preset) {
    auto p = build_picture(lesson_launch(preset), {});
    REQUIRE(p.value);
    return std::move(*p.value);
}

bool has(const std::vector<std::string>& lines, const std::string& text) {
    return std::any_of(lines.begin(), lines.end(), [&](const std::string& l) { return l == text; });
}

std::string field(const CellDescription& d, const std::string& label) {
    for (const auto& [l, v] : d.fields)
        if (l == label) return v;
    return "(missing)";
}

}  // namespace

TEST_CASE("inspector - element 100 of seed-increment - with the formula's numbers in") {
    MapPicture p = picture("seed-increment");
    const CellDescription d = describe_cell(p, 4, 3);  // one block per row: row 3, column 4
    CHECK(d.heading == "a[100]");
    CHECK(has(d.formulas, "pos = threadIdx.x + blockIdx.x * blockDim.x = 4 + 3 * 32 = 100"));
    CHECK(has(d.formulas, "pos < n: 100 < 500, so a[100] += 1"));
    CHECK(field(d, "blockIdx") == "(3, 0, 0)");
    CHECK(field(d, "threadIdx") == "(4, 0, 0)");
    CHECK(field(d, "blockDim (threads per block)") == "(32, 1, 1)");
    CHECK(field(d, "gridDim (blocks in the grid)") == "(16, 1, 1)");
    CHECK(field(d, "warp, lane") == "warp 0 of its block, lane 4");
    CHECK(field(d, "linear thread id") == "100 (block 3 × 32 + 4)");
}

TEST_CASE("inspector - an idle thread of seed-increment-bug says why it did nothing") {
    MapPicture p = picture("seed-increment-bug");
    const CellDescription d = describe_cell(p, 5, 20);  // position 645
    CHECK(d.heading == "idle thread: past the end of the data");
    CHECK(has(d.formulas, "pos = threadIdx.x + blockIdx.x * blockDim.x = 5 + 20 * 32 = 645"));
    CHECK(has(d.formulas, "pos >= n: 645 >= 500, so the guard skips this thread"));
    CHECK(describe_cell(p, -1, 0).heading.empty());
    CHECK(describe_cell(p, 0, 100000).heading.empty());
}

TEST_CASE("inspector - grid-stride steps and matmul's i and j") {
    MapPicture s = picture("grid-stride");
    const CellDescription d = describe_cell(s, 5, 12);  // element 389 = 5 + 3 * 128
    CHECK(has(d.formulas, "stride = blockDim.x * gridDim.x = 32 * 4 = 128"));
    CHECK(has(d.formulas, "element 389 = 5 + 3 * 128: this thread's step 4"));
    MapPicture m = picture("seed-matmul");
    const CellDescription c = describe_cell(m, 7, 40);  // C[40, 7]
    CHECK(c.heading == "C[40, 7]");
    CHECK(has(c.formulas, "i = threadIdx.x + blockIdx.x * blockDim.x = 8 + 1 * 32 = 40"));
    CHECK(has(c.formulas, "j = threadIdx.y + blockIdx.y * blockDim.y = 7 + 0 * 32 = 7"));
}

TEST_CASE("inspector - the store request of a cell once the memory view is computed") {
    MapPicture m = picture("seed-matmul");
    CHECK(field(describe_cell(m, 7, 40), "its store request") == "(missing)");  // not asked for yet
    recolor(m, ColorMode::Sectors, Palette::Standard, std::nullopt);
    // C[40, 7]: a full warp down a column of C, a sector per lane; C[195, 7]: rows 192-199's
    // warps of 8 lanes.
    CHECK(field(describe_cell(m, 7, 40), "its store request") ==
          "32 sectors for 32 active lanes; 4 would do (modeled)");
    CHECK(field(describe_cell(m, 7, 195), "its store request") == "8 sectors for 8 active lanes; 1 would do (modeled)");
    const auto fix = resolve_launch({.preset = "seed-matmul", .kernel = "matmul-xcol"});  // x on columns
    REQUIRE(fix.value);
    PictureOptions o;
    o.mode = ColorMode::Sectors;
    auto built = build_picture(*fix.value, o);
    REQUIRE(built.value);
    MapPicture& picture = *built.value;
    CHECK(field(describe_cell(picture, 7, 40), "its store request") == "4 sectors for 32 active lanes (modeled)");
}

TEST_CASE("inspector - a read map says read by, and a float4 load's 16 sectors are as few as can be") {
    const std::string path = "/tmp/threadmap-inspector-" + std::to_string(getpid()) + "-copy4.cu";
    std::ofstream(path) << "__global__ void copy4(const float* in, float* out, int n) {\n"
                           "    int i = threadIdx.x;\n"
                           "    if (4 * i < n) reinterpret_cast<float4*>(out)[i] = "
                           "reinterpret_cast<const float4*>(in)[i];\n"
                           "}\n";
    LaunchOptions o;
    o.source = path;
    o.binds = {"in=float[256]:index", "out=float[256]", "n=200"};
    o.block = "64";
    o.grid = "1";
    o.array = "in";
    o.access = "read";
    const auto launch = resolve_launch(o);
    REQUIRE_MESSAGE(launch.value, launch.error);
    PictureOptions po;
    po.mode = ColorMode::Sectors;
    auto built = build_picture(*launch.value, po);
    REQUIRE_MESSAGE(built.value, built.error);
    MapPicture& picture = *built.value;
    uint32_t x = 0, y = 0;
    picture.layout.cell_of(13, x, y);  // in[13]: thread 3's float4
    const CellDescription d = describe_cell(picture, int(x), int(y));
    CHECK(field(d, "read by") == "1 thread");
    CHECK(field(d, "written by") == "(missing)");
    CHECK(field(d, "threadIdx") == "(3, 0, 0)");
    // A warp's 32 float4s: 512 bytes, 16 sectors, no "would do".
    CHECK(field(d, "its costliest load request") == "16 sectors for 32 active lanes (modeled)");
    picture.layout.cell_of(230, x, y);  // past n = 200: no thread reads it
    CHECK(field(describe_cell(picture, int(x), int(y)), "read by") == "no thread reads it");
}

TEST_CASE("code panel - a kernel after a __device__ helper is launched by its own name") {
    KernelSpec spec;
    spec.cuda_source =
        "// doubles each value\n"
        "__device__ int twice(int v) { return 2 * v; }\n"
        "__global__ void doubled(int* out, int n) {\n"
        "    out[threadIdx.x] = twice(threadIdx.x);\n"
        "}\n";
    const auto lines = model_kernel_code(spec, {{4, 1, 1}, {128, 1, 1}});
    REQUIRE(!lines.empty());
    CHECK(lines.back().launch);
    CHECK(lines.back().text == "doubled<<<4, 128>>>(...);");  // it read "twice<<<4, 128>>>(...);"
}

TEST_CASE("code panel - the launch line for the current configuration - and the guard marked") {
    Workload workload = array_workload(&IncrementBody::kernel, 500);
    const auto py = numba_code(workload, {{16, 1, 1}, {32, 1, 1}});
    const auto cu = cuda_code(workload, {{16, 1, 1}, {32, 1, 1}});
    const auto launch_of = [](const std::vector<CodeLine>& lines) {
        for (const auto& l : lines)
            if (l.launch) return l.text;
        return std::string();
    };
    CHECK(launch_of(py) == "increment_by_one[16, 32](d_a)");  // explicit copies unless told otherwise
    CHECK(launch_of(cu) == "increment_by_one<<<16, 32>>>(d_a, 500);");
    CHECK(std::count_if(py.begin(), py.end(), [](const CodeLine& l) { return l.guard; }) == 1);
    const Workload matmul = matmul_workload(&MatmulBody::kernel, 200, 200, 200);
    CHECK(launch_of(numba_code(matmul, {{16, 16, 1}, {32, 32, 1}})) == "matmul[(16, 16), (32, 32)](A, B, C)");
    CHECK(launch_of(cuda_code(matmul, {{16, 16, 1}, {32, 32, 1}})) ==
          "matmul<<<dim3(16, 16), dim3(32, 32)>>>(d_A, d_B, d_C, 200, 200, 200, 200);");
}

TEST_CASE(
    "code panel - the program timed is the program shown - float64 host arrays, warnings, the store in the loop") {
    const auto text = [](const std::vector<CodeLine>& lines) {
        std::string all;
        for (const auto& l : lines) all += l.text + "\n";
        return all;
    };
    const Workload workload = matmul_workload(&MatmulBody::kernel, 300, 300, 200);
    CodeOptions tutorial;
    tutorial.program = {HostLanguage::Numba, ElementType::Float64, Transfers::HostArrays};
    tutorial.store_in_loop = true;
    const std::string py = text(numba_code(workload, {{10, 10, 1}, {32, 32, 1}}, tutorial));
    CHECK(py.find("A = np.random.rand(300, 200)\n") != std::string::npos);  // float64, numpy's default
    CHECK(py.find("C = np.zeros((300, 300))\n") != std::string::npos);
    CHECK(py.find("        tmp = 0.\n") != std::string::npos);
    CHECK(py.find("            C[i, j] = tmp") != std::string::npos);  // inside the k loop, as the tutorial has it
    CHECK(py.find("Host array used in CUDA kernel will incur copy overhead") != std::string::npos);
    CHECK(py.find("Grid size 100 will likely result in GPU under-utilization") != std::string::npos);  // < 128
    CodeOptions fixed;
    fixed.program = {HostLanguage::Numba, ElementType::Float32, Transfers::Explicit};
    const std::string py32 = text(numba_code(workload, {{10, 10, 1}, {32, 32, 1}}, fixed));
    CHECK(py32.find("A = cuda.to_device(np.random.rand(300, 200).astype(np.float32))") != std::string::npos);
    CHECK(py32.find("C = cuda.device_array((300, 300), dtype=np.float32)") != std::string::npos);
    CHECK(py32.find("result = C.copy_to_host()") != std::string::npos);
    CHECK(py32.find("tmp = float32(0.)") != std::string::npos);  // 0. alone would make the sum float64
    CHECK(py32.find("Host array used") == std::string::npos);
    CHECK(py32.find("        C[i, j] = tmp\n") != std::string::npos);
    // 531 blocks: no low-occupancy warning (numba warns below 128).
    CHECK(text(numba_code(array_workload(&IncrementBody::kernel, 500), {{531, 1, 1}, {32, 1, 1}}, tutorial))
              .find("Grid size") == std::string::npos);
    CodeOptions doubles;
    doubles.program.element = ElementType::Float64;
    const std::string cu = text(cuda_code(workload, {{10, 10, 1}, {32, 32, 1}}, doubles));
    CHECK(cu.find("__global__ void matmul(const double* A") != std::string::npos);
    CHECK(cu.find("cudaMemcpy(d_A, A, 300 * 200 * sizeof(double), cudaMemcpyHostToDevice);") != std::string::npos);
    CHECK(cu.find("cudaMemcpy(C, d_C, 300 * 300 * sizeof(double), cudaMemcpyDeviceToHost);") != std::string::npos);
}

TEST_CASE("export file names say what the figure shows") {
    const ResolvedLaunch resolved = lesson_launch("seed-matmul");
    const std::string name = export_file_name(resolved, "warp", false, 0);
    CHECK(name.rfind("threadmap-seed-matmul-grid16x16x1-block32x32x1-warp-", 0) == 0);
    CHECK(name.size() > 4);
    CHECK(name.substr(name.size() - 4) == ".png");
    CHECK(export_file_name(resolved, "warp", true, 0).find("-window-") != std::string::npos);
}

TEST_CASE("go to element: an index (1D) or row, column (2D), checked against the array's shape") {
    using threadmap::parse_element;
    CHECK(*parse_element("47", {500}).value == 47);
    CHECK(*parse_element("63, 47", {200, 200}).value == 63 * 200 + 47);
    CHECK(*parse_element("63 47", {200, 300}).value == 63 * 300 + 47);
    CHECK(*parse_element("[63][47]", {200, 300}).value == 63 * 300 + 47);
    CHECK(parse_element("500", {500}).error == "index 500 is past the array's 500");
    CHECK(parse_element("200, 0", {200, 300}).error == "index 200 is past the array's 200 rows");
    CHECK(parse_element("0, 300", {200, 300}).error == "index 300 is past the array's 300 columns");
    CHECK(parse_element("47", {200, 300}).error == "the array has 2 dimensions: give row, column");
    CHECK(parse_element("1, 2", {500}).error == "the array has 1 dimension: give one index");
    CHECK(parse_element("x", {500}).error.find("give the element's index, e.g. 47") != std::string::npos);
    CHECK(parse_element("99999999999999999999", {500}).error.find("too large") != std::string::npos);
}
