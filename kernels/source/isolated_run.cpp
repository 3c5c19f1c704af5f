#include "isolated_run.hpp"

#include <fcntl.h>
#include <poll.h>
#include <seccomp.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <new>

#include "executor.hpp"
#include "model/model_result_io.hpp"
#include "source_hooks.hpp"

namespace threadmap {
namespace {

// What the child may do from here on: write (its result, and stderr for a sanitizer's report),
// manage memory that is never executable, wait on itself, end.
bool lock_down(int result_fd) {
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_KILL_PROCESS);
    if (!ctx) return false;
    bool ok =
        seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(write), 1, SCMP_A0(SCMP_CMP_EQ, scmp_datum_t(result_fd))) == 0 &&
        seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(write), 1, SCMP_A0(SCMP_CMP_EQ, 2)) == 0 &&
        seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(mmap), 1, SCMP_A2(SCMP_CMP_MASKED_EQ, PROT_EXEC, 0)) == 0 &&
        seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(mprotect), 1, SCMP_A2(SCMP_CMP_MASKED_EQ, PROT_EXEC, 0)) == 0;
    for (int call :
         {SCMP_SYS(munmap), SCMP_SYS(mremap), SCMP_SYS(brk), SCMP_SYS(madvise), SCMP_SYS(futex), SCMP_SYS(exit),
          SCMP_SYS(exit_group), SCMP_SYS(rt_sigreturn), SCMP_SYS(rt_sigprocmask), SCMP_SYS(rt_sigaction),
          SCMP_SYS(getpid), SCMP_SYS(gettid), SCMP_SYS(tgkill), SCMP_SYS(clock_gettime), SCMP_SYS(sched_yield),
          SCMP_SYS(sigaltstack)})  // AddressSanitizer's runtime sets up a signal stack in the child
        ok = ok && seccomp_rule_add(ctx, SCMP_ACT_ALLOW, call, 0) == 0;
    ok = ok && seccomp_load(ctx) == 0;
    seccomp_release(ctx);
    return ok;
}

void write_all(int fd, const std::string& bytes) {
    for (size_t done = 0; done < bytes.size();) {
        const ssize_t n = write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return;
        done += size_t(n);
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
        default:
            return "signal " + std::to_string(sig);
    }
}

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

Outcome<ModelResult> run_isolated(const ModelLaunch& launch, const std::atomic<bool>* cancel, double seconds) {
    const std::string& name = launch.spec->name;
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0)
        return {std::nullopt, std::string("no pipe for the kernel's process: ") + strerror(errno)};
    // The last source line the kernel reached and what it printed, written by the child's hooks.
    using source_hooks::RunReport;
    void* shared = mmap(nullptr, sizeof(RunReport), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    RunReport* report = shared == MAP_FAILED ? nullptr : new (shared) RunReport;
    const pid_t child = fork();
    if (child < 0) {
        close(fds[0]);
        close(fds[1]);
        if (report) munmap(report, sizeof(RunReport));
        return {std::nullopt, std::string("could not start the kernel's process: ") + strerror(errno)};
    }
    if (child == 0) {
        close(fds[0]);
        if (report) source_hooks::report_to(report);
        // A crash ends the child with its own signal (not a handler the host installed).
        for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) signal(sig, SIG_DFL);
        if (!lock_down(fds[1])) {
            write_all(fds[1],
                      "Ethreadmap could not lock down the process that runs your kernel (seccomp), so it "
                      "did not run it");
            _exit(0);
        }
        const Outcome<ModelResult> r = run_model_here(launch);
        std::string access_error = source_hooks::take_access_error();
        if (!r.value)
            write_all(fds[1], "E" + r.error);
        else if (!access_error.empty())
            write_all(fds[1], "E" + access_error);
        else
            write_all(fds[1], "R" + serialize_result(*r.value));
        _exit(0);
    }
    close(fds[1]);
    std::string bytes;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    std::string stopped;
    char buffer[1 << 16];
    for (;;) {
        pollfd p{fds[0], POLLIN, 0};
        const int ready = poll(&p, 1, 20);
        if (ready > 0) {
            const ssize_t n = read(fds[0], buffer, sizeof buffer);
            if (n > 0) {
                bytes.append(buffer, size_t(n));
                continue;
            }
            if (n == 0 || errno != EINTR) break;  // end of the child's output
        }
        if (cancel && cancel->load()) {
            stopped = kCancelled;
        } else if (std::chrono::steady_clock::now() > deadline) {
            char limit[32];
            snprintf(limit, sizeof limit, "%g", seconds);
            stopped = "kernel " + name + " ran past the time limit of " + limit +
                      " s and was stopped (an endless loop, or more work than the kernel model does in that time: "
                      "--time-limit sets it)";
        }
        if (!stopped.empty()) {
            kill(child, SIGKILL);
            break;
        }
    }
    close(fds[0]);
    int status = 0;
    while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
    const int line = report ? report->line : 0;
    KernelPrint printed = report ? source_hooks::printed_of(*report) : KernelPrint{};
    if (report) munmap(report, sizeof(RunReport));
    const std::string where = line > 0 ? "; the last line it reached was " + std::to_string(line) : "";
    const auto failed = [&](const std::string& why) {
        return Outcome<ModelResult>{std::nullopt, why + printed_before_stop(printed)};
    };
    if (!stopped.empty())
        return stopped == kCancelled ? Outcome<ModelResult>{std::nullopt, stopped} : failed(stopped + where);
    if (WIFSIGNALED(status)) return failed("kernel " + name + " crashed with " + signal_text(WTERMSIG(status)) + where);
    if (bytes.empty()) return failed("kernel " + name + "'s process ended without a result");
    if (bytes[0] == 'E') return failed(bytes.substr(1));
    auto r = deserialize_result(std::string_view(bytes).substr(1));
    if (!r) return failed("kernel " + name + "'s process ended in the middle of its result");
    r->printed = std::move(printed);
    return {std::move(*r), {}};
}

}  // namespace threadmap
