// threadmap's side of the kernel host: a learner's kernel is compiled and run in processes
// that are not threadmap's (threadmap-kernel-host, kernel_host_main.cpp, started on the first
// compile and kept for the session; a locked-down child of it per run), so that Clang and LLVM
// are loaded only when a kernel is compiled, and neither a hostile text nor a hostile kernel can
// crash, freeze or exhaust threadmap: the compile has a time, memory and stack limit and sees
// no file system; the run's result is read with a deadline, capped and checked against the
// launch. A host that crashes or is stopped is started again on the next request.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "kernels/source/child_run.hpp"
#include "kernels/cuda/nvrtc_compiler.hpp"
#include "kernels/core/outcome.hpp"
#include "kernels/source/source_binding.hpp"
#include "kernels/source/source_kernel.hpp"

namespace threadmap {

// The limits of one compile (the kernel host's): wall time, and the memory the host may take.
struct CompileLimits {
    double seconds = 20;
    uint64_t memory_bytes = uint64_t(2) << 30;
};
// The defaults, or THREADMAP_COMPILE_SECONDS and THREADMAP_COMPILE_MEMORY_MB where they are set
// to a positive number (a course's machines, the tests of the limits).
CompileLimits compile_limits();

// Compiles `text` (named `file_name` in messages) in the kernel host: the description of its
// kernels (their entries stay in the host), or Clang's messages; a compile the host could not
// finish (past its limits, a crash) says why in `text` and in one error diagnostic.
SourceCompile compile_in_host(const std::string& text, const std::string& file_name,
                              const CompileLimits& limits = compile_limits());

// bind_parameters, and a run_apart that runs the kernel in a locked-down child of the kernel
// host with `limits`.
Outcome<std::shared_ptr<const BoundKernel>> bind_in_host(std::shared_ptr<const CompiledSource> source,
                                                         const SourceKernel& kernel,
                                                         const std::vector<SourceBinding>& bindings,
                                                         uint64_t dynamic_shared_bytes, const RunLimits& limits);

// NVRTC's verdict on `text` for `arch` ("compute_90"), compiled in the kernel host under the
// same limits as a compile (NVRTC is a compiler of hostile text too, and 100 MB to load).
NvrtcCompile nvrtc_compile_in_host(const std::string& text, const std::string& file_name, const std::string& arch,
                                   const CompileLimits& limits = compile_limits());

// Ends the kernel host now (the window closing with a compile in flight): a request waiting on
// it returns at once, saying it was stopped; the next one starts another host.
void stop_kernel_host();

// Where the kernel host's program is: $THREADMAP_KERNEL_HOST, else threadmap-kernel-host beside
// this program, else ../libexec/threadmap/ from it. Empty when none is there.
std::string kernel_host_path();

// The kernel host's process id, or 0 when none runs (for tests).
int kernel_host_pid();

}  // namespace threadmap
