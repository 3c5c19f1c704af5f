// What the Editor colours in a line of CUDA C++.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "app/window_state/cuda_syntax.hpp"

using namespace threadmap;

namespace {

// Each span as "kind:text", in order.
std::vector<std::string> spans(const std::string& line, bool& in_comment) {
    static const char* const kNames[] = {"keyword", "cuda", "number", "string", "comment", "preprocessor"};
    std::vector<std::string> out;
    for (const SyntaxSpan& s : syntax_spans(line, in_comment))
        out.push_back(std::string(kNames[int(s.kind)]) + ":" + line.substr(s.begin, s.end - s.begin));
    return out;
}

}  // namespace

TEST_CASE("the editor colours keywords, CUDA's words, numbers, strings, comments and preprocessor lines") {
    bool in_comment = false;
    CHECK(spans("__global__ void k(const float* a, int n) {", in_comment) ==
          std::vector<std::string>{"cuda:__global__", "keyword:void", "keyword:const", "keyword:float", "keyword:int"});
    CHECK(spans("    int i = blockIdx.x * blockDim.x + threadIdx.x;", in_comment) ==
          std::vector<std::string>{"keyword:int", "cuda:blockIdx", "cuda:blockDim", "cuda:threadIdx"});
    // Numbers with a point, an exponent and suffixes; names with digits are not numbers.
    CHECK(spans("x2 = 1.5e-3f + 0x1Fu * .5;", in_comment) ==
          std::vector<std::string>{"number:1.5e-3f", "number:0x1Fu", "number:.5"});
    CHECK(spans("atomicAdd(&s, 1); // add \"one\"", in_comment) ==
          std::vector<std::string>{"cuda:atomicAdd", "number:1", "comment:// add \"one\""});
    CHECK(spans("printf(\"%d \\\" // not a comment\\n\", 'a');", in_comment) ==
          std::vector<std::string>{"string:\"%d \\\" // not a comment\\n\"", "string:'a'"});
    CHECK(spans("  #include <cstdio>", in_comment) == std::vector<std::string>{"preprocessor:#include <cstdio>"});
    CHECK(!in_comment);
    // A block comment across lines.
    CHECK(spans("int a; /* starts", in_comment) == std::vector<std::string>{"keyword:int", "comment:/* starts"});
    CHECK(in_comment);
    CHECK(spans("   still #include", in_comment) == std::vector<std::string>{"comment:   still #include"});
    CHECK(spans("ends */ __syncthreads();", in_comment) ==
          std::vector<std::string>{"comment:ends */", "cuda:__syncthreads"});
    CHECK(!in_comment);
}
