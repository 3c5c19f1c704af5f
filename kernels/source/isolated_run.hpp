// Runs a learner's kernel in a child process, so that nothing it does reaches threadmap: the
// child is forked with the compiled code already linked, locked down with seccomp (it may
// write its result to a pipe, manage its memory and exit — no files, processes or network,
// no new executable memory), and killed at the time limit or on cancel. A crash, an abort or
// a stack overflow comes back as a message naming the signal and the last line the kernel
// reached; the parent never goes down.
#pragma once

#include <atomic>
#include <string>

#include "model/model_emulator.hpp"

namespace threadmap {

// The default time limit of one run of a learner's kernel, in seconds (a setting).
inline constexpr double kDefaultKernelSeconds = 5.0;

Outcome<ModelResult> run_isolated(const ModelLaunch& launch, const std::atomic<bool>* cancel, double seconds);

}  // namespace threadmap
