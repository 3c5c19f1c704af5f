// threadmap-kernel-host: the one process of threadmap with Clang and LLVM in it. threadmap
// starts it on the first learner's kernel it compiles (kernel_host_client.cpp) and talks to it
// over the socket it gets as descriptor 3 (host_protocol.hpp). It compiles texts on a thread
// with a large stack, under a memory limit, seeing no file system but the text and threadmap's
// headers (source_compiler.cpp); it runs each launch in a locked-down child of its own
// (isolated_run.hpp) that writes its result straight to threadmap. It ends when the socket
// closes. Usage: threadmap-kernel-host --socket FD [--memory-mb N]
#include <llvm/Support/ErrorHandling.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <optional>
#include <memory>
#include <new>
#include <string>

#include "kernels/kernel_host/isolated_run.hpp"
#include "kernels/source/host_protocol.hpp"
#include "kernels/source/kernel_host_exit.hpp"
#include "kernels/kernel_host/source_compiler.hpp"
#include "kernels/kernel_host/standard_headers.hpp"

#include "kernels/core/sanitizer.hpp"

using namespace threadmap;
using kernel_host::Frame;
using kernel_host::Message;
using kernel_host::Received;

namespace {

// Clang recurses over the syntax tree: a 40,000-term expression is 40,000 frames deep. Each
// compile runs on a thread with this much stack; deeper still, it overflows and the host ends
// (threadmap says so and starts another).
constexpr size_t kCompileStackBytes = size_t(512) << 20;

void* call_on_thread(void* p) {
    (*static_cast<std::function<void()>*>(p))();
    return nullptr;
}

// `work` on a thread with kCompileStackBytes of stack (on this one when none can be had).
void with_large_stack(std::function<void()> work) {
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, kCompileStackBytes);
    pthread_t thread;
    const bool started = pthread_create(&thread, &attr, call_on_thread, &work) == 0;
    pthread_attr_destroy(&attr);
    if (started)
        pthread_join(thread, nullptr);
    else
        work();
}

// NVRTC reads the host's files for an #include it is not given and answers __has_include from
// them (Clang here sees only its own): a text that includes a header threadmap does not know,
// or asks __has_include, is not given to NVRTC. The offending line, or nothing.
std::optional<std::string> unknown_include(const std::string& text, int& line_number) {
    line_number = 0;
    size_t at = 0;
    while (at <= text.size()) {
        const size_t end = std::min(text.find('\n', at), text.size());
        const std::string line = text.substr(at, end - at);
        ++line_number;
        at = end + 1;
        if (line.find("__has_include") != std::string::npos) return line;
        size_t i = line.find_first_not_of(" \t");
        if (i == std::string::npos || line[i] != '#') continue;
        i = line.find_first_not_of(" \t", i + 1);
        if (i == std::string::npos || line.compare(i, 7, "include") != 0) continue;
        i = line.find_first_not_of(" \t", i + 7);
        const char open = i == std::string::npos ? 0 : line[i];
        const size_t close = open == '<'   ? line.find('>', i + 1)
                             : open == '"' ? line.find('"', i + 1)
                                           : std::string::npos;
        if (close == std::string::npos) return line;  // a macro, or no name at all
        const std::string name = line.substr(i + 1, close - i - 1);
        bool known = false;
        for (const StandardHeader& h : standard_headers()) known |= name == h.name;
        if (!known) return line;
    }
    return std::nullopt;
}

[[noreturn]] void out_of_memory() { _exit(kernel_host::kExitOutOfMemory); }

class KernelHost {
  public:
    explicit KernelHost(int socket) : socket_(socket) {}

    int serve() {
        for (;;) {
            Frame f;
            const Received r = kernel_host::receive_frame(socket_, f);
            if (r == Received::Ended) return 0;  // threadmap closed its end
            if (r != Received::Frame) return 1;
            if (f.type == Message::Compile)
                compile(f);
            else if (f.type == Message::Run)
                run(f);
            else if (f.type == Message::GpuCompile)
                gpu_compile(f);
            else if (f.type == Message::Release)
                compiles_.erase(f.body.value("id", uint64_t(0)));
            if (f.fd >= 0) close(f.fd);
        }
    }

  private:
    void compile(const Frame& f) {
        const std::string text = f.body.value("text", std::string());
        const std::string file_name = f.body.value("file_name", std::string("kernel.cu"));
        SourceCompile c;
        with_large_stack([&] { c = compile_source(text, file_name); });
        const uint64_t id = ++last_id_;
        if (c.source) compiles_[id] = c.source;
        kernel_host::send_frame(socket_, Message::Compiled, kernel_host::compile_to_json(c, id));
    }

    void gpu_compile(const Frame& f) {
        const std::string text = f.body.value("text", std::string());
        const std::string file_name = f.body.value("file_name", std::string("kernel.cu"));
        const std::string arch = f.body.value("arch", std::string("compute_90"));
        NvrtcCompile c;
        int line = 0;
        if (const auto refused = unknown_include(text, line)) {
            c.arch = arch;
            c.log = file_name + ":" + std::to_string(line) +
                    ": error: NVRTC is given the text only when it includes the headers threadmap knows, and asks no "
                    "__has_include: '" +
                    *refused + "'";
        } else {
            with_large_stack([&] { c = nvrtc_compile(text, file_name, arch); });
        }
        kernel_host::send_frame(socket_, Message::GpuCompiled, kernel_host::gpu_compile_to_json(c));
    }

    void run(Frame& f) {
        const auto failed = [&](const std::string& why) {
            kernel_host::send_frame(socket_, Message::RunEnded, kernel_host::run_failed_to_json(why));
        };
        const auto request = kernel_host::run_from_json(f.body);
        if (!request || f.fd < 0) return failed("threadmap's run request was malformed");
        const auto compiled = compiles_.find(request->compile);
        if (compiled == compiles_.end()) return failed("the kernel host has no such compile");
        const SourceKernel* kernel = compiled->second->find(request->kernel);
        if (!kernel) return failed("the compiled text has no kernel " + request->kernel);
        std::vector<SourceBinding> bindings;
        for (const std::string& text : request->bindings) {
            auto b = parse_binding(text);
            if (!b.value) return failed(b.error);
            bindings.push_back(std::move(*b.value));
        }
        SourceRunOptions options;
        options.isolated = false;  // the child below is the isolation
        options.dynamic_shared_bytes = request->dynamic_shared_bytes;
        const auto bound = bind_kernel(compiled->second, *kernel, bindings, options);
        if (!bound.value) return failed(bound.error);
        const ModelLaunch launch = kernel_host::model_launch_of(*request, (*bound.value)->spec);
        auto child = start_isolated_run(launch, f.fd, request->limits);
        close(f.fd);
        f.fd = -1;
        if (!child.value) return failed(child.error);
        const bool cancelled = wait_for(child.value->pid);
        const ChildEnd end = finish_isolated_run(*child.value, cancelled);
        kernel_host::send_frame(socket_, Message::RunEnded, kernel_host::ended_to_json(end));
    }

    // Until the child ends (false) or threadmap cancels the run (true; the socket gone too).
    bool wait_for(pid_t child) {
        const int pidfd = int(syscall(SYS_pidfd_open, child, 0));
        for (;;) {
            pollfd p[2] = {{socket_, POLLIN, 0}, {pidfd, POLLIN, 0}};
            const int ready = poll(p, pidfd >= 0 ? 2 : 1, pidfd >= 0 ? -1 : 20);
            if (ready < 0 && errno != EINTR) break;
            if (pidfd >= 0 && (p[1].revents & POLLIN)) break;
            if (pidfd < 0 && waitpid(child, nullptr, WNOHANG | WNOWAIT) == child) break;
            if (p[0].revents & (POLLIN | POLLHUP | POLLERR)) {
                Frame f;
                const Received r = kernel_host::receive_frame(socket_, f);
                if (f.fd >= 0) close(f.fd);
                if (r != Received::Frame || f.type == Message::Cancel) {
                    if (pidfd >= 0) close(pidfd);
                    return true;
                }
            }
        }
        if (pidfd >= 0) close(pidfd);
        return false;
    }

    int socket_;
    uint64_t last_id_ = 0;
    std::map<uint64_t, std::shared_ptr<const CompiledSource>> compiles_;
};

}  // namespace

int main(int argc, char** argv) {
    int socket = -1;
    [[maybe_unused]] uint64_t memory_mb = 2048;  // unused under ASan (below)
    for (int i = 1; i + 1 < argc; i += 2) {
        if (std::strcmp(argv[i], "--socket") == 0) socket = std::atoi(argv[i + 1]);
        if (std::strcmp(argv[i], "--memory-mb") == 0) memory_mb = std::strtoull(argv[i + 1], nullptr, 10);
    }
    if (socket < 0) {
        std::fprintf(stderr,
                     "threadmap-kernel-host: threadmap starts this program itself (it compiles and runs learners' "
                     "kernels); usage: threadmap-kernel-host --socket FD [--memory-mb N]\n");
        return kernel_host::kExitBadUsage;
    }
    signal(SIGPIPE, SIG_IGN);  // a closed socket is an error to read, not a death
#if !THREADMAP_ASAN            // AddressSanitizer's shadow memory alone is terabytes of address space
    if (memory_mb) {
        // The soft limit only: a run's child sets its own (which may be higher).
        rlimit r{};
        getrlimit(RLIMIT_DATA, &r);
        r.rlim_cur = memory_mb << 20;
        setrlimit(RLIMIT_DATA, &r);
    }
#endif
    std::set_new_handler(out_of_memory);
    llvm::install_bad_alloc_error_handler([](void*, const char*, bool) { out_of_memory(); });
    return KernelHost(socket).serve();
}
