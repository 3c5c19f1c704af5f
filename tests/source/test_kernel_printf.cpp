// printf in a learner's kernel, as a course's first kernel uses it: the text comes back with
// the run (and ends a crash's message: test_source_compiler.cpp), in the order the model ran
// the threads, each argument taken with the type its conversion names.
#include <doctest/doctest.h>

#include <bit>
#include <cstdarg>
#include <string>

#include "kernels/source/kernel_printf.hpp"
#include "tests/source/source_test_helpers.hpp"

using namespace threadmap;
using namespace threadmap::test;

namespace {

bool any_address(const void*) { return true; }
bool no_address(const void*) { return false; }

std::string format(bool (*readable)(const void*), const char* f, ...) {
    va_list args;
    va_start(args, f);
    std::string s = format_printf(f, args, readable);
    va_end(args);
    return s;
}

}  // namespace

TEST_CASE("printf's conversions print as C's do, each argument taken with its conversion's type") {
    CHECK(format(any_address, "%d|%5.2f|%x|%s|%c|%%|%-4u|", -7, 3.14159, 255u, "hi", 'z', 9u) ==
          "-7| 3.14|ff|hi|z|%|9   |");
    CHECK(format(any_address, "%*d|%.*f|%lld|%zu|%hhd|%hu", 4, 12, 1, 2.25, -5ll, size_t(42), 300, 70000) ==
          "  12|2.2|-5|42|44|4464");
    CHECK(format(any_address, "%e %g %a", 1500.0, 0.0001, 1.0) == "1.500000e+03 0.0001 0x1p+0");
    // %n would write the count through a pointer: it writes nothing.
    int count = 99;
    CHECK(format(any_address, "ab%ncd", &count) == "abcd");
    CHECK(count == 99);
    // Not a conversion: the rest is printed as written, and no more arguments are taken.
    CHECK(format(any_address, "%d %y %d", 1, 2) == "1 %y %d");
    CHECK(format(any_address, "50%") == "50%");
    // A string in one of the model's arrays is not text; a null one is "(null)", as glibc prints.
    CHECK(format(no_address, "%s") == "(not text)");
    CHECK(format(any_address, "[%s]", static_cast<const char*>(nullptr)) == "[(null)]");
    // A field too wide for the kept text is cut to it, not allocated.
    CHECK(format(any_address, "%1000000000d", 1).size() == size_t(1) << 16);
}

TEST_CASE("a kernel's printf: every call's text, in the order the model runs the threads - barriers included") {
    auto s = compiled(
        "__global__ void hello(float* a, int n) {\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    printf(\"before: block %d thread %d\\n\", blockIdx.x, threadIdx.x);\n"
        "    __syncthreads();\n"
        "    if (i < n) a[i] = i * 0.5f;\n"
        "    printf(\"after: a[%d] = %.1f\\n\", i, i < n ? a[i] : -1.0f);\n"
        "}\n");
    auto b = bound(s, {"a=float[3]", "n=3"});
    const ModelResult result = run(*b, {2, 1, 1}, {2, 1, 1});
    CHECK(result.printed.calls == 8);
    CHECK(result.printed.kept_calls == 8);
    // A block's threads all print "before" (they wait at the barrier) before any prints "after".
    CHECK(result.printed.text ==
          "before: block 0 thread 0\nbefore: block 0 thread 1\nafter: a[0] = 0.0\nafter: a[1] = 0.5\n"
          "before: block 1 thread 0\nbefore: block 1 thread 1\nafter: a[2] = 1.0\nafter: a[3] = -1.0\n");
    // printf is not an access: the map is the kernel's loads and stores only.
    CHECK(std::bit_cast<float>(result.arrays[0].bits[2]) == 1.0f);
    CHECK(result.findings.empty());
}

TEST_CASE("a kernel that prints more than 64 KiB: whole calls are kept, in order, and every call is counted") {
    auto s = compiled(
        "__global__ void chatty(int* a) {\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    printf(\"thread %06d says hello\\n\", i);\n"
        "    a[i] = i;\n"
        "}\n");
    auto b = bound(s, {"a=int[10000]"});
    const ModelResult result = run(*b, {40, 1, 1}, {250, 1, 1});
    const std::string line0 = "thread 000000 says hello\n";
    CHECK(result.printed.calls == 10000);
    CHECK(result.printed.kept_calls == KernelPrint::kMaxBytes / line0.size());
    CHECK(result.printed.text.size() == result.printed.kept_calls * line0.size());
    CHECK(result.printed.text.rfind("thread 002620 says hello\n") == result.printed.text.size() - line0.size());
    CHECK(result.arrays[0].bits[9999] == 9999);  // the kernel ran on
}

TEST_CASE("a __device__ table read through a helper is plain memory, not one of the kernel's arrays") {
    // The JIT puts its data where the memory map allows; an address that names an array slot
    // must never be one of them (a __shared__ array's slots are reserved like the parameters').
    auto s = compiled(
        "__device__ int table[4] = {10, 20, 30, 40};\n"
        "__device__ __noinline__ int pick(const int* p, int i) { return p[i]; }\n"
        "__global__ void lookup(int* out, int n) {\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i < n) out[i] = pick(table, i % 4);\n"
        "}\n");
    auto b = bound(s, {"out=int[6]", "n=6"});
    const ModelResult result = run(*b, {1, 1, 1}, {8, 1, 1});
    const std::vector<uint32_t> expected = {10, 20, 30, 40, 10, 20};
    CHECK(result.arrays[0].bits == expected);
}

TEST_CASE("printf's arguments are checked against its format when the kernel compiles") {
    // On a GPU a mismatch prints garbage; here %s of a number would crash the kernel's process.
    const SourceCompile c = compile_source(
        "__global__ void k(int* a) {\n"
        "    printf(\"%s\\n\", threadIdx.x);\n"
        "    a[0] = 1;\n"
        "}\n",
        "kernel.cu");
    CHECK(!c.source);
    CHECK(
        c.text.find("kernel.cu:2:20: error: format specifies type 'char *' but the argument has type 'unsigned int'") !=
        std::string::npos);
}
