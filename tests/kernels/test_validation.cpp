// Launch validation at and around every limit a real device enforces.
#include <doctest/doctest.h>

#include "tests/random_launch.hpp"
#include "kernels/core/validation.hpp"

using namespace threadmap;

namespace {

bool accepted(Dim3 grid, Dim3 block) { return !validate_launch({grid, block}, cc90_profile()).has_value(); }

std::string message(Dim3 grid, Dim3 block) {
    const auto e = validate_launch({grid, block}, cc90_profile());
    REQUIRE(e.has_value());
    CHECK(e->cuda_error == "cudaErrorInvalidConfiguration");
    return e->message;
}

}  // namespace

TEST_CASE("threads per block - 1024 is accepted - 1025 is not") {
    CHECK(accepted({1, 1, 1}, {1024, 1, 1}));
    CHECK(accepted({1, 1, 1}, {32, 32, 1}));
    CHECK(accepted({1, 1, 1}, {16, 16, 4}));
    CHECK_FALSE(accepted({1, 1, 1}, {1025, 1, 1}));
    CHECK(message({1, 1, 1}, {32, 33, 1}) == "blockDim (32,33,1) has 1056 threads; a block may have at most 1024");
    CHECK_FALSE(accepted({1, 1, 1}, {16, 16, 5}));
}

TEST_CASE("blockDim per axis - (1024 - 1024 - 64)") {
    CHECK(accepted({1, 1, 1}, {1, 1024, 1}));
    CHECK(accepted({1, 1, 1}, {1, 1, 64}));
    CHECK(message({1, 1, 1}, {1, 1, 65}) == "blockDim.z is 65; the largest allowed is 64");
    CHECK_FALSE(accepted({1, 1, 1}, {1, 1025, 1}));
    CHECK(message({1, 1, 1}, {2048, 1, 1}).find("blockDim.x is 2048; the largest allowed is 1024") == 0);
}

TEST_CASE("gridDim per axis - (2^31-1 - 65535 - 65535)") {
    CHECK(accepted({2147483647u, 1, 1}, {1, 1, 1}));
    CHECK(accepted({1, 65535, 65535}, {1, 1, 1}));
    CHECK(message({2147483648u, 1, 1}, {1, 1, 1}) == "gridDim.x is 2147483648; the largest allowed is 2147483647");
    CHECK(message({1, 65536, 1}, {1, 1, 1}) == "gridDim.y is 65536; the largest allowed is 65535");
    CHECK(message({1, 1, 70000}, {1, 1, 1}) == "gridDim.z is 70000; the largest allowed is 65535");
    CHECK(accepted({4294967295u / 2, 65535, 65535}, {1024, 1, 1}));  // huge but valid
}

TEST_CASE("a zero dimension anywhere is rejected") {
    CHECK(message({0, 1, 1}, {32, 1, 1}) == "gridDim.x is 0; every dimension must be at least 1");
    CHECK(message({1, 1, 1}, {32, 0, 1}).find("blockDim.y is 0") == 0);
    CHECK_FALSE(accepted({1, 1, 0}, {1, 1, 1}));
}

TEST_CASE("every broken limit is named - and the line says what CUDA returns") {
    const auto e = validate_launch({{1, 70000, 1}, {32, 1, 65}}, cc90_profile());
    REQUIRE(e);
    CHECK(e->message.find("blockDim.z is 65") != std::string::npos);
    CHECK(e->message.find("2080 threads") != std::string::npos);
    CHECK(e->message.find("gridDim.y is 70000") != std::string::npos);
    CHECK(describe(*e).find("cudaErrorInvalidConfiguration: invalid configuration argument") != std::string::npos);
    CHECK(describe(*e).find("numba with CUDA_ERROR_INVALID_VALUE from cuLaunchKernel") != std::string::npos);
}

TEST_CASE("the GPU tests' random launches are all valid on a device - and cover 2D and 3D blocks") {
    RandomLaunches random(4242);  // the seed and order test_gpu uses
    bool saw_3d = false, saw_big = false;
    for (int trial = 0; trial < 1200; ++trial) {
        const LaunchConfig launch = random.launch(trial);
        CAPTURE(trial);
        REQUIRE_FALSE(validate_launch(launch, cc90_profile()));
        random.workload(trial);  // keeps the generator's sequence the GPU test's
        saw_3d = saw_3d || launch.block.z > 1;
        saw_big = saw_big || launch.threads_per_block() > 512;
    }
    CHECK(saw_3d);
    CHECK(saw_big);
}
