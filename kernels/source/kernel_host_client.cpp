// See kernel_host_client.hpp.
#include "kernels/core/number_text.hpp"
#include "kernels/source/kernel_host_client.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "kernels/core/executor.hpp"
#include "kernels/source/host_protocol.hpp"
#include "kernels/source/kernel_host_exit.hpp"
#include "kernels/model/model_result_io.hpp"

extern char** environ;

namespace threadmap {

using kernel_host::Frame;
using kernel_host::Message;
using kernel_host::Received;

namespace {

bool executable(const std::string& path) {
    struct stat st {};
    return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(path.c_str(), X_OK) == 0;
}

// The one kernel host of this process. Requests take turns (one mutex): a run holds it until
// its child ends, which its time limit bounds.
class Host {
  public:
    static Host& instance() {
        static Host* host = new Host;  // never destroyed: the host ends when our socket closes
        return *host;
    }

    SourceCompile compile(const std::string& text, const std::string& file_name, const CompileLimits& limits) {
        std::lock_guard lock(mutex_);
        return compile_locked(text, file_name, limits);
    }

    NvrtcCompile gpu_compile(const std::string& text, const std::string& file_name, const std::string& arch,
                             const CompileLimits& limits) {
        std::lock_guard lock(mutex_);
        std::string why;
        const auto body = ask(Message::GpuCompile, {{"text", text}, {"file_name", file_name}, {"arch", arch}},
                              Message::GpuCompiled, limits, why);
        if (body)
            if (auto c = kernel_host::gpu_compile_from_json(*body)) return std::move(*c);
        NvrtcCompile failed;
        failed.arch = arch;
        failed.log = file_name + ": error: " + (why.empty() ? "the kernel host's answer was malformed" : why);
        return failed;
    }

    // From any thread, without waiting for the request in flight (which then returns).
    void stop_now() {
        if (const pid_t pid = pid_.load(); pid > 0) {
            stopped_on_purpose_ = true;
            kill(pid, SIGKILL);
        }
    }

    Outcome<ModelResult> run(const CompiledSource& source, kernel_host::RunRequest request,
                             const ModelLaunch& model_launch, const std::atomic<bool>* cancel);

    // The compile `id` of this host's generation is no longer needed (a CompiledSource went).
    void release(uint64_t host_id) {
        std::lock_guard lock(pending_mutex_);
        pending_releases_.push_back(host_id);
    }

    int pid() const { return pid_.load(); }

  private:
    SourceCompile compile_locked(const std::string& text, const std::string& file_name, const CompileLimits& limits);
    // Sends a request and waits for its `answer` within the compile limit: its body, or nothing
    // and `why` (the host is ended then).
    std::optional<nlohmann::json> ask(Message type, const nlohmann::json& body, Message answer,
                                      const CompileLimits& limits, std::string& why);
    // Starts the host when none runs; why not, or empty.
    std::string ensure_started(const CompileLimits& limits);
    // Ends the host (killed unless it already ended) and says how it ended.
    std::string stop(bool kill_it);
    void send_releases();
    SourceCompile failed_compile(const std::string& file_name, const std::string& why) const {
        SourceCompile c;
        c.text = file_name + ": error: " + why + "\n";
        c.diagnostics.push_back({file_name, 0, 0, true, why, ""});
        return c;
    }

    std::mutex mutex_;
    std::atomic<pid_t> pid_{0};
    std::atomic<bool> stopped_on_purpose_{false};
    int socket_ = -1;
    uint32_t generation_ = 0;  // of the running host: its compile ids mean nothing to the next
    CompileLimits started_with_;
    std::mutex pending_mutex_;
    std::vector<uint64_t> pending_releases_;
};

std::string Host::ensure_started(const CompileLimits& limits) {
    if (socket_ >= 0 && limits.memory_bytes == started_with_.memory_bytes) return {};
    if (socket_ >= 0) stop(true);
    const std::string path = kernel_host_path();
    if (path.empty())
        return "threadmap-kernel-host, which compiles and runs learners' kernels, is not installed beside threadmap "
               "(set THREADMAP_KERNEL_HOST to its path)";
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
        return std::string("no socket for the kernel host: ") + strerror(errno);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);  // stdout is threadmap's output
    posix_spawn_file_actions_adddup2(&actions, sv[1], 3);
    posix_spawn_file_actions_addclosefrom_np(&actions, 4);  // nothing else of threadmap's
    const std::string memory = std::to_string(limits.memory_bytes >> 20);
    const char* argv[] = {path.c_str(), "--socket", "3", "--memory-mb", memory.c_str(), nullptr};
    pid_t pid = 0;
    const int error = posix_spawn(&pid, path.c_str(), &actions, nullptr, const_cast<char**>(argv), environ);
    posix_spawn_file_actions_destroy(&actions);
    close(sv[1]);
    if (error != 0) {
        close(sv[0]);
        return "could not start the kernel host " + path + ": " + strerror(error);
    }
    pid_ = pid;
    stopped_on_purpose_ = false;
    socket_ = sv[0];
    started_with_ = limits;
    ++generation_;
    std::lock_guard lock(pending_mutex_);
    pending_releases_.clear();  // of the last host
    return {};
}

std::string Host::stop(bool kill_it) {
    if (socket_ < 0) return {};
    close(socket_);
    socket_ = -1;
    const pid_t pid = pid_.exchange(0);
    if (kill_it) kill(pid, SIGKILL);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (kill_it) return {};
    if (stopped_on_purpose_) return "stopped, as threadmap was closing";
    if (WIFEXITED(status) && WEXITSTATUS(status) == kernel_host::kExitOutOfMemory)
        return "the compiler ran out of memory (it may use " + std::to_string(started_with_.memory_bytes >> 20) +
               " MiB): a template or macro that expands without end?";
    if (WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV)
        return "the compiler crashed (SIGSEGV): its stack overflowed on a very deeply nested expression or a "
               "recursion without end";
    if (WIFSIGNALED(status)) return "the compiler crashed (" + signal_text(WTERMSIG(status)) + ")";
    return "the kernel host stopped unexpectedly (exit status " + std::to_string(WEXITSTATUS(status)) + ")";
}

void Host::send_releases() {
    std::vector<uint64_t> ids;
    {
        std::lock_guard lock(pending_mutex_);
        ids.swap(pending_releases_);
    }
    for (uint64_t id : ids)
        if (id >> 32 == generation_) kernel_host::send_frame(socket_, Message::Release, {{"id", id & 0xffffffffu}});
}

std::optional<nlohmann::json> Host::ask(Message type, const nlohmann::json& body, Message answer,
                                        const CompileLimits& limits, std::string& why) {
    why = ensure_started(limits);
    if (!why.empty()) return std::nullopt;
    send_releases();
    if (!kernel_host::send_frame(socket_, type, body)) {
        why = stop(false);
        return std::nullopt;
    }
    Frame reply;
    const Received r = kernel_host::receive_frame(socket_, reply, deadline_after(limits.seconds));
    if (reply.fd >= 0) close(reply.fd);
    if (r == Received::TimedOut) {
        stop(true);
        why = "the compiler ran past its time limit of " + number_text(limits.seconds) +
              " s and was stopped: a template or macro that expands without end?";
        return std::nullopt;
    }
    if (r == Received::Ended) {
        why = stop(false);
        return std::nullopt;
    }
    if (r != Received::Frame || reply.type != answer) {
        stop(true);
        why = "the kernel host answered with something unexpected, and was stopped";
        return std::nullopt;
    }
    return std::move(reply.body);
}

SourceCompile Host::compile_locked(const std::string& text, const std::string& file_name, const CompileLimits& limits) {
    std::string why;
    const auto body = ask(Message::Compile, {{"text", text}, {"file_name", file_name}}, Message::Compiled, limits, why);
    if (!body) return failed_compile(file_name, why);
    uint64_t id = 0;
    std::optional<SourceCompile> c = kernel_host::compile_from_json(*body, id);
    if (!c || id == 0 || id > 0xffffffffu) {
        stop(true);
        return failed_compile(file_name, "the kernel host answered with something that is not a compile");
    }
    if (c->source) {
        auto source = std::const_pointer_cast<CompiledSource>(c->source);
        source->host_id = uint64_t(generation_) << 32 | id;
        source->code = std::shared_ptr<const void>(
            nullptr, [host_id = source->host_id](const void*) { Host::instance().release(host_id); });
    }
    return std::move(*c);
}

Outcome<ModelResult> Host::run(const CompiledSource& source, kernel_host::RunRequest request,
                               const ModelLaunch& model_launch, const std::atomic<bool>* cancel) {
    std::lock_guard lock(mutex_);
    const auto could_not = [&](const std::string& why) {
        return Outcome<ModelResult>{std::nullopt, "kernel " + model_launch.spec->name + " could not run: " + why};
    };
    // The compile lives in the host that made it; a host started since compiles the text again
    // (kept until the run is over).
    std::shared_ptr<const CompiledSource> again;
    if (socket_ < 0 || source.host_id >> 32 != generation_) {
        const SourceCompile c = compile_locked(source.text, source.file_name, started_with_);
        if (!c.source) return could_not(c.text);
        again = c.source;
    }
    request.compile = (again ? again->host_id : source.host_id) & 0xffffffffu;
    send_releases();
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) return could_not(std::string("no pipe for its result: ") + strerror(errno));
    const bool sent = kernel_host::send_frame(socket_, Message::Run, kernel_host::run_to_json(request), fds[1]);
    close(fds[1]);
    if (!sent) {
        close(fds[0]);
        return could_not(stop(false));
    }
    const auto deadline = deadline_after(request.limits.seconds);
    ResultStream stream = read_result_stream(fds[0], deadline, cancel, largest_result_bytes(model_launch));
    close(fds[0]);
    // Then how the child ended: at once when it closed its pipe by ending; a child stopped here
    // (its time, a cancel, a flood) is killed by the host first.
    bool cancel_sent = false;
    const auto send_cancel = [&] {
        cancel_sent = true;
        kernel_host::send_frame(socket_, Message::Cancel, nlohmann::json::object());
    };
    if (stream.stop != ResultStream::Stop::Ended) send_cancel();
    Frame reply;
    for (;;) {
        const auto wait_until = cancel_sent ? deadline_after(5) : deadline;
        const Received r = kernel_host::receive_frame(socket_, reply, wait_until, cancel_sent ? nullptr : cancel);
        if (r == Received::Frame) break;
        if ((r == Received::TimedOut || r == Received::Cancelled) && !cancel_sent) {
            stream.stop = r == Received::TimedOut ? ResultStream::Stop::TimeLimit : ResultStream::Stop::Cancelled;
            send_cancel();
            continue;
        }
        if (r == Received::Ended) return could_not(stop(false));
        stop(true);
        return could_not("the kernel host did not say how the run ended, and was stopped");
    }
    if (reply.fd >= 0) close(reply.fd);
    const Outcome<ChildEnd> end = reply.type == Message::RunEnded
                                      ? kernel_host::ended_from_json(reply.body)
                                      : failed("the kernel host answered with something else", Failure::Internal);
    if (end.kind == Failure::Internal && !end.value) {
        stop(true);
        return could_not("the kernel host answered with something that is not a run's end");
    }
    if (!end.value) return failure_of(end);  // the host could not start it (its binding, its launch)
    return run_outcome(model_launch, std::move(stream), *end.value, request.limits);
}

}  // namespace

CompileLimits compile_limits() {
    CompileLimits limits;
    const auto positive = [](const char* name) {
        const char* v = std::getenv(name);
        char* end = nullptr;
        const double d = v ? std::strtod(v, &end) : 0;
        return v && end != v && *end == '\0' && d > 0 && d < 1e7 ? d : 0.0;
    };
    if (const double s = positive("THREADMAP_COMPILE_SECONDS")) limits.seconds = s;
    if (const double mb = positive("THREADMAP_COMPILE_MEMORY_MB")) limits.memory_bytes = uint64_t(mb) << 20;
    return limits;
}

SourceCompile compile_in_host(const std::string& text, const std::string& file_name, const CompileLimits& limits) {
    const auto start = std::chrono::steady_clock::now();
    SourceCompile c = Host::instance().compile(text, file_name, limits);
    // What the learner waited for: the host's start (the first time), the trip and the compile.
    c.milliseconds = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return c;
}

Outcome<std::shared_ptr<const BoundKernel>> bind_in_host(std::shared_ptr<const CompiledSource> source,
                                                         const SourceKernel& kernel,
                                                         const std::vector<SourceBinding>& bindings,
                                                         uint64_t dynamic_shared_bytes, const RunLimits& limits) {
    const CompiledSource* compiled = source.get();  // the bound kernel keeps it
    auto bound = bind_parameters(std::move(source), kernel, bindings, dynamic_shared_bytes);
    if (!bound.value) return failure_of(bound);
    kernel_host::RunRequest request;
    request.kernel = kernel.name;
    for (const SourceBinding& b : bindings) request.bindings.push_back(binding_text(b));
    request.dynamic_shared_bytes = dynamic_shared_bytes;
    request.limits = limits;
    (*bound.value)->spec.run_apart = [compiled, request](const ModelLaunch& model_launch,
                                                         const std::atomic<bool>* cancel) {
        kernel_host::RunRequest r = request;
        r.params = model_launch.params;
        r.launch = model_launch.launch;
        r.record_reads = model_launch.record_reads;
        r.record_elements = model_launch.record_elements;
        r.keep_records = model_launch.keep_records;
        r.watch_array = model_launch.watch_array;
        r.watch_element = model_launch.watch_element;
        r.record_requests = model_launch.record_requests;
        r.keep_requests = model_launch.keep_requests;
        r.cost_array = model_launch.cost_array;
        r.requests_array = model_launch.requests_array;
        r.keep_op = model_launch.keep_op;
        r.global_element_bytes = model_launch.global_element_bytes;
        r.max_accesses = model_launch.max_accesses;
        r.shared_block = model_launch.shared_block;
        r.phase = model_launch.phase;
        return Host::instance().run(*compiled, std::move(r), model_launch, cancel);
    };
    return {std::shared_ptr<const BoundKernel>(std::move(*bound.value)), {}};
}

std::string kernel_host_path() {
    if (const char* env = std::getenv("THREADMAP_KERNEL_HOST"); env && *env) return executable(env) ? env : "";
    char self[PATH_MAX];
    const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) return {};
    self[n] = '\0';
    std::string dir(self);
    dir.resize(dir.rfind('/'));
    for (const std::string& candidate :
         {dir + "/threadmap-kernel-host", dir + "/../libexec/threadmap/threadmap-kernel-host"})
        if (executable(candidate)) return candidate;
    return {};
}

int kernel_host_pid() { return Host::instance().pid(); }

NvrtcCompile nvrtc_compile_in_host(const std::string& text, const std::string& file_name, const std::string& arch,
                                   const CompileLimits& limits) {
    return Host::instance().gpu_compile(text, file_name, arch, limits);
}

void stop_kernel_host() { Host::instance().stop_now(); }

}  // namespace threadmap
