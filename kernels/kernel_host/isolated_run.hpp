// Runs a learner's kernel in a child process that can do nothing but compute: forked with the
// compiled code already linked, every descriptor closed but its result pipe and stderr, its
// memory and CPU time limited, no file system (Landlock, where the kernel has it) and a seccomp
// allow-list whose every call is filtered by its arguments (it may write to its two
// descriptors, map anonymous memory that is never executable, signal itself, end). A crash, an
// abort or a stack overflow ends only the child; whoever watches it (child_run.hpp) caps what
// it reads, stops it at the time limit and checks its result against the launch.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "kernels/source/child_run.hpp"
#include "kernels/model/model_emulator.hpp"
#include "kernels/source/source_binding.hpp"
#include "kernels/source/source_hooks.hpp"

namespace threadmap {

// A started child: its pid, and the report it writes (shared memory) of its last line and
// what it printed.
struct IsolatedChild {
    pid_t pid = -1;
    source_hooks::RunReport* report = nullptr;
};

// Forks the child that runs `launch` in the kernel model and writes its result to `result_fd`
// ('R' and serialize_result's bytes, or 'E' and why it could not run). The caller keeps its
// own copy of result_fd and closes it.
Outcome<IsolatedChild> start_isolated_run(const ModelLaunch& launch, int result_fd, const RunLimits& limits);
// Waits for the child to end (killing it first when `kill_first`) and releases its report.
ChildEnd finish_isolated_run(IsolatedChild child, bool kill_first);

// Start, read (child_run.hpp) and finish, in this process.
Outcome<ModelResult> run_isolated(const ModelLaunch& launch, const std::atomic<bool>* cancel, const RunLimits& limits);

// How a kernel compiled in this process runs: in a locked-down child (isolated) or in this
// process (tests of the compiler only).
struct SourceRunOptions {
    bool isolated = true;
    double seconds = kDefaultKernelSeconds;
    uint64_t dynamic_shared_bytes = 0;  // bind_parameters'
    uint64_t memory_bytes = kDefaultKernelMemory;
};

// bind_parameters, with the body that runs the compiled code (its entry, its arrays at their
// slots' addresses): a kernel compiled in this process (the kernel host's, a test's).
Outcome<std::shared_ptr<const BoundKernel>> bind_kernel(std::shared_ptr<const CompiledSource> source,
                                                        const SourceKernel& kernel,
                                                        const std::vector<SourceBinding>& bindings,
                                                        const SourceRunOptions& run = {});

}  // namespace threadmap
