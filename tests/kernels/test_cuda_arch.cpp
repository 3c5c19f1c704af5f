// Which GPUs a build can run on, from CMake's CUDA architecture list, by CUDA's compatibility
// rules: machine code within a major version (minor at least the built one), PTX upward.
#include <doctest/doctest.h>

#include "kernels/cuda/cuda_arch.hpp"

using namespace threadmap;

TEST_CASE("the default architectures run Turing to Blackwell and refuse Pascal and Volta with the reason") {
    const auto archs = parse_cuda_architectures("75-real 80-real 86-real 89-real 90-real 100-real 120");
    REQUIRE(archs.size() == 7);
    CHECK(archs.back().sass);
    CHECK(archs.back().ptx);
    CHECK_FALSE(archs.front().ptx);
    for (const auto& [major, minor] :
         {std::pair{7, 5}, {8, 0}, {8, 6}, {8, 7}, {8, 9}, {9, 0}, {10, 0}, {10, 3}, {12, 0}, {12, 1}, {13, 0}}) {
        CAPTURE(major);
        CAPTURE(minor);
        CHECK(missing_code_for(major, minor, archs).done());
    }
    for (const auto& [major, minor] : {std::pair{6, 1}, {7, 0}, {7, 2}, {11, 0}}) {
        CAPTURE(major);
        CAPTURE(minor);
        const Outcome<void> missing = missing_code_for(major, minor, archs);
        REQUIRE_FALSE(missing.done());
        const std::string& why = missing.error;
        CHECK(why.find("no code for compute capability " + std::to_string(major) + "." + std::to_string(minor)) == 0);
        CHECK(why.find("built for 7.5 8.0 8.6 8.9 9.0 10.0 12.0") != std::string::npos);
        CHECK(why.find("PTX from 12.0 up") != std::string::npos);
    }
}

TEST_CASE("PTX only runs upward - machine code only stays within its major version") {
    const auto ptx = parse_cuda_architectures("90-virtual");
    CHECK_FALSE(missing_code_for(8, 9, ptx).done());
    CHECK(missing_code_for(9, 0, ptx).done());
    CHECK(missing_code_for(12, 0, ptx).done());
    const auto sass = parse_cuda_architectures("86-real;90-real");
    CHECK_FALSE(missing_code_for(8, 0, sass).done());  // older minor than built
    CHECK(missing_code_for(8, 9, sass).done());
    CHECK_FALSE(missing_code_for(10, 0, sass).done());                         // a newer major needs PTX
    CHECK_FALSE(missing_code_for(9, 0, parse_cuda_architectures("")).done());  // no CUDA code at all
    CHECK(parse_cuda_architectures("90a-real 80-real junk").size() == 1);      // only what we can read
}
