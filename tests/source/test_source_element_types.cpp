// A learner's arrays of other element types than float and int: an image of unsigned char,
// a vector of double, shorts, 64-bit integers, bools. Each element holds its own type's value,
// is recorded as one element (races, out of bounds), and is counted at its own size by the
// memory view: a warp's 32 bytes are one sector, its 32 doubles eight, and a half-warp of
// doubles fills the 32 banks of shared memory.
#include <doctest/doctest.h>

#include <bit>
#include <cstdint>
#include <cstring>

#include "kernels/model/model_emulator.hpp"
#include "kernels/source/source_binding.hpp"
#include "kernels/kernel_host/source_compiler.hpp"
#include "tests/source/source_test_helpers.hpp"

using namespace threadmap;
using namespace threadmap::test;

TEST_CASE("arrays of double, unsigned char, char, short, long long and bool hold their own type's values") {
    auto s = compiled(
        "__global__ void k(double* d, unsigned char* u, char* c, short* s, long long* l, bool* b, int n) {\n"
        "    int i = threadIdx.x;\n"
        "    if (i < n) {\n"
        "        d[i] = d[i] * 0.5 + 1e-300;\n"
        "        u[i] = u[i] + 250;\n"
        "        c[i] = c[i] - 100;\n"
        "        s[i] = -s[i] * 1000;\n"
        "        l[i] = l[i] * 5000000000LL;\n"
        "        b[i] = !b[i];\n"
        "    }\n"
        "}\n");
    auto k = bound(s, {"d=double[8]:index", "u=uchar[8]:index", "c=char[8]:index", "s=short[8]:index",
                       "l=int64[8]:index", "b=bool[8]:index", "n=8"});
    const ModelResult result = run(*k, {1, 1, 1}, {8, 1, 1});
    CHECK(result.findings.empty());
    for (uint32_t i = 0; i < 8; ++i) {
        CAPTURE(i);
        CHECK(std::bit_cast<double>(wide(result.arrays[0], i)) == double(i) * 0.5 + 1e-300);  // beyond a float's range
        CHECK(result.arrays[1].bits[i] == ((i + 250) & 0xff));                                // wraps at 256
        CHECK(result.arrays[2].bits[i] == uint8_t(int8_t(i - 100)));
        CHECK(result.arrays[3].bits[i] == uint16_t(int16_t(-1000 * int(i))));
        CHECK(int64_t(wide(result.arrays[4], i)) == int64_t(i) * 5000000000LL);
        CHECK(result.arrays[5].bits[i] == (i % 2 == 0 ? 1u : 0u));  // index fills a bool with 0, 1, 0, …
        // Each element has its one writer, as the map shows it.
        for (size_t a = 0; a < 6; ++a) CHECK(result.arrays[a].records[i].first_writer == i);
    }
}

TEST_CASE("narrow and wide elements are recorded one by one: races per byte, out of bounds per double") {
    auto s = compiled(
        "__global__ void k(unsigned char* u, double* d) {\n"
        "    u[threadIdx.x / 2] = threadIdx.x;\n"
        "    d[threadIdx.x + 1] = 2.0;\n"
        "}\n");
    auto k = bound(s, {"u=uchar[4]", "d=double[8]"});
    const ModelResult result = run(*k, {1, 1, 1}, {8, 1, 1});
    // Threads 2j and 2j+1 write u[j]: four races, one per byte, not one per 4-byte word.
    CHECK(result.counts[size_t(FindingKind::WriteWriteRace)] == 4);
    CHECK(result.counts[size_t(FindingKind::OutOfBounds)] == 1);
    bool past_end = false;
    for (const Finding& f : result.findings)
        if (f.kind == FindingKind::OutOfBounds)
            past_end = f.array == "d" && f.index == std::vector<uint64_t>{8} &&
                       f.message.find("d[8] at line 3, past the end of d (8 elements)") != std::string::npos;
    CHECK(past_end);
    for (uint32_t j = 0; j < 4; ++j) CHECK(result.arrays[0].records[j].writers == 2);
}

TEST_CASE("an access narrower than the array's elements is refused, naming both sizes - a wider one is its bytes") {
    auto s = compiled(
        "__global__ void k(double* d, float* f) {\n"
        "    int i = threadIdx.x;\n"
        "    f[i] = reinterpret_cast<float*>(d)[i];\n"
        "}\n");
    auto k = bound(s, {"d=double[4]", "f=float[4]"});
    const auto r = run_model({&k->spec, {}, {{1, 1, 1}, {4, 1, 1}}});
    REQUIRE(!r.value);
    CHECK(r.error.find("line 3: a 4-byte access at byte offset 0 of an array of 8-byte elements") != std::string::npos);
    // Four bytes read as an int: one 4-byte access on a GPU, the four elements' bytes, little-endian.
    auto wide = compiled(
        "__global__ void k(unsigned char* u, int* w) {\n"
        "    int i = threadIdx.x;\n"
        "    w[i] = reinterpret_cast<int*>(u)[i];\n"
        "}\n");
    auto b = bound(wide, {"u=uchar[16]:index", "w=int[4]"});
    const ModelResult result = run(*b, {1, 1, 1}, {4, 1, 1});
    CHECK(result.arrays[1].bits[1] == 0x07060504u);
}

TEST_CASE(
    "64-bit atomics: atomicAdd of double and unsigned long long, atomicMax and atomicMin of long long, "
    "atomicCAS and atomicExch of unsigned long long") {
    auto s = compiled(
        "__global__ void k(double* sum, unsigned long long* count, long long* big, long long* small,\n"
        "                  unsigned long long* first, unsigned long long* last) {\n"
        "    long long i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    atomicAdd(sum, 0.1);\n"
        "    atomicAdd(count, 1ull);\n"
        "    atomicMax(big, i * 4000000000LL);\n"
        "    atomicMin(small, -i * 4000000000LL);\n"
        "    atomicCAS(first, 0ull, (unsigned long long)i + 10000000000ull);\n"
        "    atomicExch(last, (unsigned long long)i);\n"
        "}\n");
    auto k = bound(
        s, {"sum=double[1]", "count=uint64[1]", "big=int64[1]", "small=int64[1]", "first=uint64[1]", "last=uint64[1]"});
    const ModelResult result = run(*k, {4, 1, 1}, {64, 1, 1});
    double want = 0;
    for (int t = 0; t < 256; ++t) want += 0.1;  // the model runs the threads in order: one order of the adds
    CHECK(std::bit_cast<double>(wide(result.arrays[0], 0)) == want);
    CHECK(wide(result.arrays[1], 0) == 256);
    CHECK(int64_t(wide(result.arrays[2], 0)) == 255 * 4000000000LL);
    CHECK(int64_t(wide(result.arrays[3], 0)) == -255 * 4000000000LL);
    CHECK(wide(result.arrays[4], 0) == 10000000000ull);  // thread 0's: the others found it set
    CHECK(wide(result.arrays[5], 0) == 255);
    CHECK(result.findings.empty());  // atomics do not race
}

TEST_CASE(
    "the memory view counts each array at its element size: sectors of bytes and doubles, "
    "half-warps of doubles in shared memory") {
    auto s = compiled(
        "__global__ void k(const unsigned char* rgb, double* out) {\n"
        "    __shared__ double t[64];\n"
        "    __shared__ double u[128];\n"
        "    int i = threadIdx.x;\n"
        "    t[i] = rgb[3 * i];\n"
        "    u[2 * i] = 1.0;\n"
        "    __syncthreads();\n"
        "    out[i] = t[i] + u[2 * i];\n"
        "}\n");
    auto k = bound(s, {"rgb=uchar[96]", "out=double[32]"});
    ModelLaunch model_launch{&k->spec, {}, {{1, 1, 1}, {32, 1, 1}}};
    model_launch.record_requests = true;
    const auto r = run_model(model_launch);
    REQUIRE_MESSAGE(r.value, r.error);
    const MemoryView& v = *r.value->memory;
    // Every third byte of 96: 3 sectors where the warp's 32 bytes would fill 1.
    CHECK(site(v, 5, AccessOp::Load).sectors == 3);
    CHECK(site(v, 5, AccessOp::Load).ideal_sectors == 1);
    // 32 consecutive doubles: 256 bytes, 8 sectors, the ideal.
    CHECK(site(v, 8, AccessOp::Store).sectors == 8);
    CHECK(site(v, 8, AccessOp::Store).ideal_sectors == 8);
    // t[i]: each half-warp's 16 doubles cover the 32 banks once: 2 wavefronts, no conflict.
    const MemorySite& t = site(v, 5, AccessOp::Store);
    CHECK(t.wavefronts == 2);
    CHECK(t.ideal_wavefronts == 2);
    CHECK(t.conflict_ways_max == 1);
    // u[2i]: 16-byte stride, two words of each bank in a half-warp: a 2-way conflict, 4 wavefronts.
    const MemorySite& u = site(v, 6, AccessOp::Store);
    CHECK(u.wavefronts == 4);
    CHECK(u.conflict_ways_max == 2);
    // u follows t's 512 bytes in the block's shared memory.
    CHECK(v.places[k->spec.array_index("u")].base_byte == 512);
    CHECK(v.places[k->spec.array_index("u")].element_bytes == 8);
}

TEST_CASE("bindings of other element types: names, a sign may differ, a size may not, dynamic shared doubles") {
    for (const char* text : {"a=uchar[4]", "a=unsigned char[4]", "a=uint8_t[4]"})
        CHECK(parse_binding(text).value->type == ValueType::UInt8);
    CHECK(parse_binding("a=int64[2]").value->type == ValueType::Int64);
    CHECK(binding_text(*parse_binding("a=unsigned long long[3]:ones").value) == "a=uint64[3]:ones");
    CHECK(parse_binding("a=__half[4]").value->type == ValueType::Float16);
    const auto bad = parse_binding("a=quad[4]");
    REQUIRE(!bad.value);
    CHECK(bad.error.find("double, half, bfloat16, int") != std::string::npos);

    auto s = compiled("__global__ void k(unsigned* a, double* d) { a[0] = 1; d[0] = 2; }\n");
    const auto bind = [&](const char* a, const char* d) {
        return bind_kernel(s, s->kernels.at(0), {*parse_binding(a).value, *parse_binding(d).value});
    };
    CHECK(bind("a=int[4]", "d=double[4]").value);  // int for unsigned: the same 4 bytes
    const auto wrong = bind("a=uint[4]", "d=float[4]");
    REQUIRE(!wrong.value);
    CHECK(wrong.error.find("'d' is a double *, not an array of float") != std::string::npos);

    auto dyn = compiled(
        "__global__ void k(double* out) {\n"
        "    extern __shared__ double s[];\n"
        "    s[threadIdx.x] = threadIdx.x;\n"
        "    __syncthreads();\n"
        "    out[threadIdx.x] = s[threadIdx.x];\n"
        "}\n");
    const auto with_bytes = [&](uint64_t bytes) {
        SourceRunOptions run;
        run.dynamic_shared_bytes = bytes;
        return bind_kernel(dyn, dyn->kernels.at(0), {*parse_binding("out=double[64]").value}, run);
    };
    const auto too_few = with_bytes(4);
    REQUIRE(!too_few.value);
    CHECK(too_few.error.find("at least one double (8 bytes)") != std::string::npos);
    // 256 bytes: 32 doubles; thread 32 writes past them.
    const auto k = with_bytes(256);
    REQUIRE_MESSAGE(k.value, k.error);
    const auto r = run_model({&(*k.value)->spec, {}, {{1, 1, 1}, {33, 1, 1}}});
    REQUIRE_MESSAGE(r.value, r.error);
    CHECK(r.value->counts[size_t(FindingKind::OutOfBounds)] == 2);  // its store and its load of s[32]
}

TEST_CASE("a struct pointer is refused at its parameter, naming the types arrays hold") {
    SourceCompile c = compile_source(
        "struct P { float x, y; };\n"
        "__global__ void k(P* a) { a[0].x = 1; }\n",
        "kernel.cu");
    CHECK(!c.source);
    REQUIRE(!c.diagnostics.empty());
    CHECK(c.diagnostics[0].message.find("points to 'P'") != std::string::npos);
    CHECK(c.diagnostics[0].message.find("half (__half, cuda_fp16.h), bfloat16 (__nv_bfloat16, cuda_bf16.h), bool, and "
                                        "integers of 1, 2, 4 or 8 bytes") != std::string::npos);
    CHECK(c.diagnostics[0].line == 2);
}

TEST_CASE("bindings typed at random: never a crash, and every accepted one reads back as written") {
    // Strings built from the pieces a binding is made of, 20,000 of them, seeded: what parses
    // must print as text that parses to the same binding.
    const char* const pieces[] = {
        "a",           "=", "float", "double", "uchar",  "unsigned char", "bool", "int64", "[",   "]",    "0", "7",
        "99999999999", ":", "zeros", "index",  "random", "random:",       ",",    "-",     "1.5", "true", "x", ""};
    uint64_t state = 12345;
    const auto next = [&] {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        return uint32_t(state >> 33);
    };
    int accepted = 0;
    for (int n = 0; n < 20000; ++n) {
        std::string text = "a=";
        for (uint32_t k = next() % 9; k > 0; --k) text += pieces[next() % std::size(pieces)];
        const auto b = parse_binding(text);
        if (!b.value) {
            CHECK(!b.error.empty());
            continue;
        }
        ++accepted;
        const auto again = parse_binding(binding_text(*b.value));
        REQUIRE_MESSAGE(again.value, text << " -> " << binding_text(*b.value) << ": " << again.error);
        CHECK(binding_text(*again.value) == binding_text(*b.value));
        CHECK(again.value->values == b.value->values);
        CHECK(again.value->shape == b.value->shape);
        CHECK(again.value->type == b.value->type);
    }
    CHECK(accepted > 100);
}

TEST_CASE("the Programming Guide's atomicAdd for double, through atomicCAS on its bits, sums as atomicAdd does") {
    auto s = compiled(
        "__device__ double cas_add(double* address, double val) {\n"
        "    unsigned long long int* as_ull = (unsigned long long int*)address;\n"
        "    unsigned long long int old = *as_ull, assumed;\n"
        "    do {\n"
        "        assumed = old;\n"
        "        old = atomicCAS(as_ull, assumed, __double_as_longlong(val + __longlong_as_double(assumed)));\n"
        "    } while (assumed != old);\n"
        "    return __longlong_as_double(old);\n"
        "}\n"
        "__global__ void sum(const double* x, double* total, int* bits, int n) {\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i < n) cas_add(total, x[i]);\n"
        "    if (i == 0) bits[0] = __float_as_int(1.0f) + (__int_as_float(0x40000000) == 2.0f);\n"
        "}\n");
    const ModelResult result =
        run(*bound(s, {"x=double[100]:index", "total=double[1]", "bits=int[1]", "n=100"}), {4, 1, 1}, {32, 1, 1});
    CHECK(std::bit_cast<double>(wide(result.arrays[1], 0)) == 4950.0);
    CHECK(result.arrays[2].bits[0] == 0x3f800000u + 1);
}

TEST_CASE("a number parameter of a narrow type takes only the values its type holds") {
    auto s = compiled("__global__ void k(unsigned char* a, unsigned char v, short d) { a[threadIdx.x] = v + d; }\n");
    const auto bind = [&](const char* v, const char* d) {
        return bind_kernel(s, s->kernels.at(0),
                           {*parse_binding("a=uchar[2]").value, *parse_binding(v).value, *parse_binding(d).value});
    };
    const auto k = bind("v=200", "d=-150");
    REQUIRE_MESSAGE(k.value, k.error);
    const ModelResult result = run(**k.value, {1, 1, 1}, {2, 1, 1});
    CHECK(result.arrays[0].bits[0] == 50);
    const auto wide = bind("v=300", "d=0");
    REQUIRE(!wide.value);
    CHECK(wide.error == "--bind v=300: 'v' is a unsigned char: give a whole number in [0, 255]");
    const auto low = bind("v=1", "d=-40000");
    REQUIRE(!low.value);
    CHECK(low.error.find("give a whole number in [-32768, 32767]") != std::string::npos);
}
