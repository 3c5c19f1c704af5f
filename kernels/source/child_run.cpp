// See child_run.hpp.
#include "kernels/core/number_text.hpp"
#include "kernels/source/child_run.hpp"

#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <string_view>

#include "kernels/core/executor.hpp"
#include "kernels/model/model_result_io.hpp"

namespace threadmap {

ResultStream read_result_stream(int fd, std::chrono::steady_clock::time_point deadline, const std::atomic<bool>* cancel,
                                uint64_t max_bytes) {
    ResultStream out;
    char buffer[1 << 16];
    for (;;) {
        if (cancel && cancel->load()) {
            out.stop = ResultStream::Stop::Cancelled;
            return out;
        }
        if (std::chrono::steady_clock::now() > deadline) {
            out.stop = ResultStream::Stop::TimeLimit;
            return out;
        }
        pollfd p{fd, POLLIN, 0};
        const int ready = poll(&p, 1, 20);
        if (ready < 0 && errno != EINTR) {
            out.stop = ResultStream::Stop::Broken;
            return out;
        }
        if (ready <= 0) continue;
        const ssize_t n = read(fd, buffer, sizeof buffer);
        if (n == 0) return out;  // the child's end closed
        if (n < 0) {
            if (errno == EINTR || errno == EAGAIN) continue;
            out.stop = ResultStream::Stop::Broken;
            return out;
        }
        if (out.bytes.size() + uint64_t(n) > max_bytes) {
            out.stop = ResultStream::Stop::TooLarge;
            return out;
        }
        out.bytes.append(buffer, size_t(n));
    }
}

std::string signal_text(int sig) {
    switch (sig) {
        case SIGSEGV:
            return "SIGSEGV (a segmentation fault: memory it may not touch, or its stack overflowed)";
        case SIGBUS:
            return "SIGBUS (a bus error)";
        case SIGFPE:
            return "SIGFPE (an integer division by zero)";
        case SIGILL:
            return "SIGILL (an illegal instruction: a failed assert, or code the compiler proved unreachable was "
                   "reached)";
        case SIGABRT:
            return "SIGABRT (it aborted)";
        case SIGSYS:
            return "SIGSYS (it made a system call: kernels cannot touch files, processes or the network)";
        case SIGXCPU:
            return "SIGXCPU (it used up its CPU time)";
        default:
            return "signal " + std::to_string(sig);
    }
}

namespace {

// A failed run's message ends with the last lines the kernel printed, if it printed: what a
// learner who debugs with printf looks for.
std::string printed_before_stop(const KernelPrint& printed) {
    if (printed.calls == 0) return {};
    constexpr size_t kLastLines = 10;
    std::string_view text = printed.text;
    if (!text.empty() && text.back() == '\n') text.remove_suffix(1);  // callers end the message
    size_t from = text.size();
    for (size_t lines = 0; from > 0; --from)
        if (text[from - 1] == '\n' && ++lines == kLastLines) break;
    // Each printf call, and a failed assert's line.
    std::string out = "\nIt printed " + std::to_string(printed.calls) + (printed.calls == 1 ? " time" : " times");
    if (printed.kept_calls < printed.calls)
        out += " (the text of the first " + std::to_string(printed.kept_calls) + " is kept)";
    out += from > 0 ? "; the last lines kept:\n" : ":\n";
    return out + std::string(text.substr(from));
}

}  // namespace

Outcome<ModelResult> run_outcome(const ModelLaunch& launch, ResultStream stream, ChildEnd end,
                                 const RunLimits& limits) {
    const std::string& name = launch.spec->name;
    const std::string where = end.line > 0 ? "; the last line it reached was " + std::to_string(end.line) : "";
    const auto failed = [&](const std::string& why) {
        return Outcome<ModelResult>{std::nullopt, why + printed_before_stop(end.printed)};
    };
    using Stop = ResultStream::Stop;
    switch (stream.stop) {
        case Stop::Cancelled:
            return cancellation();
        case Stop::TimeLimit:
            return failed("kernel " + name + " ran past the time limit of " + number_text(limits.seconds) +
                          " s and was stopped (an endless loop, or more work than the kernel model does in that time: "
                          "--time-limit sets it)" +
                          where);
        case Stop::TooLarge:
            return failed("kernel " + name +
                          "'s process wrote more than a result of this launch can be, and was "
                          "stopped: threadmap reads no more from it");
        case Stop::Broken:
            return failed("kernel " + name + "'s result could not be read");
        case Stop::Ended:
            break;
    }
    if (end.signalled) return failed("kernel " + name + " crashed with " + signal_text(end.signal) + where);
    if (stream.bytes.empty()) return failed("kernel " + name + "'s process ended without a result");
    if (stream.bytes[0] == 'E') return failed(stream.bytes.substr(1, 4096));
    if (stream.bytes[0] != 'R') return failed("kernel " + name + "'s process wrote something that is not a result");
    auto r = deserialize_result(std::string_view(stream.bytes).substr(1));
    if (!r) return failed("kernel " + name + "'s process ended in the middle of its result");
    if (const Outcome<void> why = check_result_fits(*r, launch); !why.done())
        return failed("kernel " + name + "'s process wrote a result that does not fit its launch (" + why.error +
                      "): threadmap does not use it");
    r->printed = std::move(end.printed);
    return {std::move(*r), {}};
}

}  // namespace threadmap
