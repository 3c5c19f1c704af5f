// NVRTC, CUDA's run-time compiler, loaded with dlopen (libnvrtc is some 100 MB and a learner's
// laptop may not have it: threadmap starts and runs without it). It compiles a kernel's CUDA
// C++ for a GPU architecture, as a run on a GPU would, and says how long that took. NVRTC runs
// on the CPU, so this works without a GPU: it is the GPU compiler's verdict on a learner's
// text (what the kernel model's Clang accepts, nvcc's front end may not) and a measured
// just-in-time compile for the timing lesson.
#pragma once

#include <cstddef>
#include <string>

namespace threadmap {

struct NvrtcCompile {
    std::string unavailable;  // why NVRTC could not be loaded; empty when it was
    std::string version;      // "13.0"
    std::string arch;         // the virtual architecture compiled for, "compute_90"
    bool compiled = false;
    std::string log;          // NVRTC's own messages (errors and warnings), as it prints them
    double milliseconds = 0;  // create + compile + fetch the PTX
    std::size_t ptx_bytes = 0;
};

// `arch`: "compute_XY" (default: the H200's, compute_90). `file_name` names the text in the log.
NvrtcCompile nvrtc_compile(const std::string& source, const std::string& file_name,
                           const std::string& arch = "compute_90");

}  // namespace threadmap
