// `threadmap compile`: a kernel's CUDA C++ through both compilers threadmap knows — Clang, which
// builds it for the kernel model on this CPU, and NVRTC, CUDA's run-time compiler, which builds
// it for a GPU (it runs on the CPU too, so no GPU is needed) — with each one's verdict, its
// messages and the time it took. The text is a --source file, a built-in kernel's CUDA text
// (--kernel, the Code tab's) or a lesson's kernel (--preset).
#pragma once

#include <string>

namespace threadmap {

struct CompileCommandOptions {
    std::string source, kernel, preset;
    std::string arch = "compute_90";  // NVRTC's --gpu-architecture (the H200's)
    std::string format = "text";      // text | json
};

// 0: compiled by both (or NVRTC missing, said so); 2: a compiler refused it, or bad options.
int run_compile_command(const CompileCommandOptions& options);

}  // namespace threadmap
