// See isolated_run.hpp.
#include "kernels/kernel_host/isolated_run.hpp"

#include <fcntl.h>
#include <linux/landlock.h>
#include <seccomp.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <new>

#include "kernels/model/model_result_io.hpp"

#include "kernels/core/sanitizer.hpp"

namespace threadmap {
namespace {

constexpr int kResultFd = 3;  // the child's result pipe, once its other descriptors are closed

void write_all(int fd, const std::string& bytes) {
    for (size_t done = 0; done < bytes.size();) {
        const ssize_t n = write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return;
        done += size_t(n);
    }
}

// Keeps the result pipe (as kResultFd) and stderr; closes everything else it inherited, so no
// descriptor of the host (a file the launching shell had open, the kernel host's socket) can
// be read, written or mapped.
bool keep_only_result_fd(int result_fd) {
    const int moved = fcntl(result_fd, F_DUPFD, 10);
    if (moved < 0 || dup2(moved, kResultFd) != kResultFd) return false;
    close(0);
    close(1);
    return syscall(SYS_close_range, kResultFd + 1, ~0U, 0) == 0;
}

// Its memory (all it maps and allocates) and CPU time; no core files.
void limit_resources(const RunLimits& limits) {
    const auto set = [](int resource, rlim_t soft, rlim_t hard) {
        const rlimit r{soft, hard};
        setrlimit(resource, &r);
    };
#if !THREADMAP_ASAN  // AddressSanitizer's shadow memory alone is terabytes of address space
    if (limits.memory_bytes) set(RLIMIT_DATA, limits.memory_bytes, limits.memory_bytes);
#endif
    const rlim_t cpu = rlim_t(std::ceil(limits.seconds)) + 2;  // the watcher stops it first
    set(RLIMIT_CPU, cpu, cpu + 1);
    set(RLIMIT_CORE, 0, 0);
}

// No file system at all, where the kernel has Landlock (Linux 5.13 and later); seccomp below
// already refuses every call that names a path, so this is a second wall.
void deny_file_system() {
    landlock_ruleset_attr attr{};
    const long abi = syscall(SYS_landlock_create_ruleset, nullptr, 0, LANDLOCK_CREATE_RULESET_VERSION);
    if (abi < 1) return;
    attr.handled_access_fs = (LANDLOCK_ACCESS_FS_MAKE_SYM << 1) - 1;  // every right of ABI 1
    if (abi >= 2) attr.handled_access_fs |= LANDLOCK_ACCESS_FS_REFER;
    const long ruleset = syscall(SYS_landlock_create_ruleset, &attr, sizeof attr, 0);
    if (ruleset < 0) return;
    syscall(SYS_landlock_restrict_self, ruleset, 0);
    close(int(ruleset));
}

// What the child may do from here on, each call filtered by its arguments: write to its result
// pipe and stderr (a sanitizer's report); map, remap and unmap memory that is anonymous and never
// executable; signal itself (abort); wait on itself; end. Everything else kills it (SIGSYS).
bool lock_down() {
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_KILL_PROCESS);  // sets no_new_privs as it loads
    if (!ctx) return false;
    const auto self = scmp_datum_t(getpid());
    bool ok =
        seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(write), 1, SCMP_A0(SCMP_CMP_EQ, scmp_datum_t(kResultFd))) == 0 &&
        seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(write), 1, SCMP_A0(SCMP_CMP_EQ, 2)) == 0 &&
        seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(mmap), 2, SCMP_A2(SCMP_CMP_MASKED_EQ, PROT_EXEC, 0),
                         SCMP_A3(SCMP_CMP_MASKED_EQ, MAP_ANONYMOUS, MAP_ANONYMOUS)) == 0 &&
        seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(mprotect), 1, SCMP_A2(SCMP_CMP_MASKED_EQ, PROT_EXEC, 0)) == 0 &&
        seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(tgkill), 1, SCMP_A0(SCMP_CMP_EQ, self)) == 0;
    for (int call :
         {SCMP_SYS(munmap), SCMP_SYS(mremap), SCMP_SYS(brk), SCMP_SYS(madvise), SCMP_SYS(futex), SCMP_SYS(exit),
          SCMP_SYS(exit_group), SCMP_SYS(rt_sigreturn), SCMP_SYS(rt_sigprocmask), SCMP_SYS(rt_sigaction),
          SCMP_SYS(getpid), SCMP_SYS(gettid), SCMP_SYS(clock_gettime), SCMP_SYS(sched_yield),
          SCMP_SYS(sigaltstack)})  // AddressSanitizer's runtime sets up a signal stack in the child
        ok = ok && seccomp_rule_add(ctx, SCMP_ACT_ALLOW, call, 0) == 0;
    ok = ok && seccomp_load(ctx) == 0;
    seccomp_release(ctx);
    return ok;
}

[[noreturn]] void run_child(const ModelLaunch& launch, int result_fd, const RunLimits& limits,
                            source_hooks::RunReport* report) {
    if (report) source_hooks::report_to(report);
    std::set_new_handler(nullptr);  // out of memory: std::bad_alloc, reported below (not the host's exit)
    // A crash ends the child with its own signal (not a handler the host installed).
    for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGPIPE}) signal(sig, SIG_DFL);
    if (!keep_only_result_fd(result_fd)) _exit(0);
    limit_resources(limits);
    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);  // Landlock needs it
    deny_file_system();
    if (!lock_down()) {
        write_all(kResultFd,
                  "Ethreadmap could not lock down the process that runs your kernel (seccomp), so it did not run it");
        _exit(0);
    }
    std::string out;
    const std::string out_of_memory = "Ekernel " + launch.spec->name + " ran out of memory: its process may use " +
                                      std::to_string(limits.memory_bytes >> 20) +
                                      " MiB (--memory-limit sets it; the kernel model keeps up to 64 bytes per "
                                      "element of the arrays)";
    // The run answers an Outcome (out of memory in it: Unsupported); what follows it (the
    // result's text, as large as its arrays) can run out of memory too: this process's limit,
    // not the machine's, and said so rather than dying on an uncaught exception.
    try {
        const Outcome<ModelResult> r = run_model_here(launch);
        const std::string access_error = source_hooks::take_access_error();
        if (r.kind == Failure::Unsupported && !r.value)
            out = out_of_memory;
        else
            out = !r.value                ? "E" + r.error
                  : !access_error.empty() ? "E" + access_error
                                          : "R" + serialize_result(*r.value);
    } catch (const std::bad_alloc&) {
        out = out_of_memory;
    } catch (const std::exception& e) {
        out = "Ekernel " + launch.spec->name + " stopped: " + e.what();
    }
    write_all(kResultFd, out);
    _exit(0);
}

}  // namespace

Outcome<IsolatedChild> start_isolated_run(const ModelLaunch& launch, int result_fd, const RunLimits& limits) {
    using source_hooks::RunReport;
    void* shared = mmap(nullptr, sizeof(RunReport), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    RunReport* report = shared == MAP_FAILED ? nullptr : new (shared) RunReport;
    const pid_t child = fork();
    if (child < 0) {
        if (report) munmap(report, sizeof(RunReport));
        return {std::nullopt, std::string("could not start the kernel's process: ") + strerror(errno)};
    }
    if (child == 0) run_child(launch, result_fd, limits, report);
    return {IsolatedChild{child, report}, {}};
}

ChildEnd finish_isolated_run(IsolatedChild child, bool kill_first) {
    if (kill_first) kill(child.pid, SIGKILL);
    int status = 0;
    while (waitpid(child.pid, &status, 0) < 0 && errno == EINTR) {
    }
    ChildEnd end;
    end.signalled = WIFSIGNALED(status);
    end.signal = end.signalled ? WTERMSIG(status) : 0;
    if (child.report) {
        end.line = child.report->line;
        end.printed = source_hooks::printed_of(*child.report);
        munmap(child.report, sizeof(source_hooks::RunReport));
    }
    return end;
}

Outcome<ModelResult> run_isolated(const ModelLaunch& launch, const std::atomic<bool>* cancel, const RunLimits& limits) {
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0)
        return {std::nullopt, std::string("no pipe for the kernel's process: ") + strerror(errno)};
    const auto deadline = deadline_after(limits.seconds);
    auto child = start_isolated_run(launch, fds[1], limits);
    close(fds[1]);
    if (!child.value) {
        close(fds[0]);
        return failure_of(child);
    }
    ResultStream stream = read_result_stream(fds[0], deadline, cancel, largest_result_bytes(launch));
    close(fds[0]);
    ChildEnd end = finish_isolated_run(*child.value, stream.stop != ResultStream::Stop::Ended);
    return run_outcome(launch, std::move(stream), std::move(end), limits);
}

Outcome<std::shared_ptr<const BoundKernel>> bind_kernel(std::shared_ptr<const CompiledSource> source,
                                                        const SourceKernel& kernel,
                                                        const std::vector<SourceBinding>& bindings,
                                                        const SourceRunOptions& run) {
    auto bound = bind_parameters(std::move(source), kernel, bindings, run.dynamic_shared_bytes);
    if (!bound.value) return failure_of(bound);
    BoundKernel& k = **bound.value;
    for (size_t i = 0; i < k.values.size(); ++i)
        if (k.pointer_slots[i] != source_hooks::AddressMap::kNone)
            k.values[i] = source_hooks::slot_address(k.pointer_slots[i]);
    for (uint64_t& v : k.values) k.args.push_back(&v);
    k.spec.body = [&k](ModelThread& t) { source_hooks::run_thread(t, k.addresses, k.kernel->entry, k.args.data()); };
    if (run.isolated)
        k.spec.run_apart = [limits = RunLimits{run.seconds, run.memory_bytes}](const ModelLaunch& model_launch,
                                                                               const std::atomic<bool>* cancel) {
            return run_isolated(model_launch, cancel, limits);
        };
    return {std::shared_ptr<const BoundKernel>(std::move(*bound.value)), {}};
}

}  // namespace threadmap
