// Which GPUs a build has code for. CMake's CUDA_ARCHITECTURES list ("75-real 80-real … 120")
// says what nvcc put in the binary: "-real" is machine code (SASS) only, "-virtual" PTX only,
// a bare number both. SASS for sm_XY runs on devices of the same major version X with minor
// ≥ Y; PTX for compute_XY is compiled by the driver for any device of compute capability
// ≥ X.Y (CUDA C++ Programming Guide, "Binary Compatibility" and "PTX Compatibility"). A GPU
// with neither would fail every launch with cudaErrorNoKernelImageForDevice, so it is
// reported as unusable instead (Pascal and Volta on a CUDA 13 build).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/core/outcome.hpp"

namespace threadmap {

struct CudaArch {
    int major = 0, minor = 0;
    bool sass = false, ptx = false;
};

// "75-real 80-real 120" (spaces or semicolons); entries it cannot read are skipped.
std::vector<CudaArch> parse_cuda_architectures(std::string_view list);

// Empty when a device of compute capability major.minor can run this build's kernels;
// otherwise why not, e.g. "no code for compute capability 7.0 in this build (built for
// 7.5 8.0 8.6 8.9 9.0 10.0 12.0; machine code within a major version, PTX from 12.0 up)".
Outcome<void> missing_code_for(int major, int minor, const std::vector<CudaArch>& archs);

}  // namespace threadmap
