// A learner's kernel's run in a child process, as the process that waits for it sees it: the
// result stream read up to the largest honest size and no longer than the time limit, how the
// child ended, and the outcome a learner reads ("crashed with SIGSEGV …; the last line it
// reached was 7"). Used where the run is watched: threadmap itself when the kernel host runs
// the child (kernels/kernel_host), and run_isolated in the host or a test of the compiler.
// Nothing here trusts the child: its bytes are capped and checked against the launch.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>

#include "kernels/model/model_emulator.hpp"

namespace threadmap {

// `seconds` from now, on the clock the deadlines here are read on.
inline std::chrono::steady_clock::time_point deadline_after(double seconds) {
    return std::chrono::steady_clock::now() +
           std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(seconds));
}

// What was read from the child's result pipe, and why reading stopped.
struct ResultStream {
    enum class Stop {
        Ended,      // the child closed its end (it exited, or will)
        TimeLimit,  // the run's time limit passed
        Cancelled,  // the caller's cancel flag was set
        TooLarge,   // more bytes than this launch's result can take: a child that floods the pipe
        Broken,     // the pipe could not be read
    };
    std::string bytes;
    Stop stop = Stop::Ended;
};
// Reads `fd` until its end, the deadline, a cancel or `max_bytes` (checked before every read, so
// a child that writes without end is stopped at its time limit).
ResultStream read_result_stream(int fd, std::chrono::steady_clock::time_point deadline, const std::atomic<bool>* cancel,
                                uint64_t max_bytes);

// How the child ended, and what it left in its report (the last line reached, its printf text).
struct ChildEnd {
    bool signalled = false;
    int signal = 0;
    int line = 0;
    KernelPrint printed;
};

// The limits of one run of a learner's kernel: its time, and the memory its process may take
// (the kernel model keeps up to 64 bytes per element of its arrays: model_emulator.hpp).
struct RunLimits {
    double seconds = 5.0;                       // kDefaultKernelSeconds
    uint64_t memory_bytes = uint64_t(2) << 30;  // kDefaultKernelMemory
};
inline constexpr double kDefaultKernelSeconds = 5.0;
inline constexpr uint64_t kDefaultKernelMemory = uint64_t(2) << 30;

// The run's outcome from what was read and how the child ended: the result (checked against
// the launch), or the message of why there is none (a cancellation when cancelled).
Outcome<ModelResult> run_outcome(const ModelLaunch& launch, ResultStream stream, ChildEnd end, const RunLimits& limits);

// "SIGSEGV (a segmentation fault: …)".
std::string signal_text(int sig);

}  // namespace threadmap
