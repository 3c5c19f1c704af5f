// What threadmap and its kernel host (threadmap-kernel-host, the one process with Clang and
// LLVM in it) say to each other over their socket: length-prefixed frames of a type and a JSON
// payload; a run request carries the write end of the result pipe as well (SCM_RIGHTS), so the
// run's child writes its result straight to threadmap. Both sides check every frame: a peer
// that writes garbage, too much or nothing ends the conversation, never the process.
//
//   threadmap                         kernel host
//   Compile {text, file}        ->    Compiled {id, diagnostics, text, ms, kernels, variables}
//   Run {compile id, kernel,    ->    (forks the run's child, which writes to the pipe)
//        bindings, launch, fd}  <-    RunEnded {signalled, signal, line, printed} or {error}
//   Cancel {}                   ->    (kills the running child; RunEnded follows)
//   Release {id}                ->    (drops a compile)
//   GpuCompile {text, file,     ->    GpuCompiled {NVRTC's verdict, log, time}
//               arch}
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "kernels/source/child_run.hpp"
#include "kernels/model/model_emulator.hpp"
#include "kernels/cuda/nvrtc_compiler.hpp"
#include "kernels/source/source_kernel.hpp"

namespace threadmap::kernel_host {

enum class Message : uint32_t { Compile = 1, Compiled, Run, RunEnded, Cancel, Release, GpuCompile, GpuCompiled };

struct Frame {
    Message type = Message::Compile;
    nlohmann::json body;
    int fd = -1;  // a descriptor that came with it (a Run's result pipe), owned by the receiver
};

// The largest payload either side reads (a compile's messages and description are far less).
inline constexpr uint64_t kMaxPayload = uint64_t(64) << 20;

// false when the peer is gone (never SIGPIPE).
bool send_frame(int socket, Message type, const nlohmann::json& body, int fd_to_pass = -1);

enum class Received { Frame, Ended, TimedOut, Cancelled, Malformed };
// Waits for one frame until `deadline` (none: for ever) or a set `cancel`.
Received receive_frame(int socket, Frame& out,
                       std::optional<std::chrono::steady_clock::time_point> deadline = std::nullopt,
                       const std::atomic<bool>* cancel = nullptr);

// A compile's outcome as JSON and back; from_json refuses (nullopt) anything malformed or out
// of range. The description has no entries: the code stays in the host.
nlohmann::json compile_to_json(const SourceCompile& compile, uint64_t id);
std::optional<SourceCompile> compile_from_json(const nlohmann::json& j, uint64_t& id);

// A run request: which compile and kernel, its bindings (parse_binding's texts), the launch and
// what to record, and the run's limits.
struct RunRequest {
    uint64_t compile = 0;
    std::string kernel;
    std::vector<std::string> bindings;
    uint64_t dynamic_shared_bytes = 0;
    RunLimits limits;
    // ModelLaunch's fields, without its spec (the host binds its own).
    Params params;
    LaunchConfig launch;
    bool record_reads = true, record_elements = true, record_requests = false;
    uint64_t keep_records = ModelLaunch::kAllArrays;
    size_t keep_requests = SIZE_MAX;
    size_t cost_array = SIZE_MAX;
    size_t requests_array = SIZE_MAX;
    AccessOp keep_op = AccessOp::Store;
    uint32_t global_element_bytes = 0;
    uint64_t max_accesses = kMaxModelAccesses;
    uint64_t shared_block = UINT64_MAX;
    uint32_t phase = ModelLaunch::kAllPhases;
    size_t watch_array = SIZE_MAX;
    uint64_t watch_element = 0;
};
nlohmann::json run_to_json(const RunRequest& r);
std::optional<RunRequest> run_from_json(const nlohmann::json& j);
// The launch a request asks for, of `spec`.
ModelLaunch model_launch_of(const RunRequest& r, const KernelSpec& spec);

// NVRTC's verdict as JSON and back (nullopt when malformed).
nlohmann::json gpu_compile_to_json(const NvrtcCompile& c);
std::optional<NvrtcCompile> gpu_compile_from_json(const nlohmann::json& j);

// How the run ended, or why the host could not run it.
nlohmann::json ended_to_json(const ChildEnd& end);
nlohmann::json run_failed_to_json(const std::string& why);
// The end, or the host's reason (a failure of its input), or Failure::Internal when malformed.
Outcome<ChildEnd> ended_from_json(const nlohmann::json& j);

}  // namespace threadmap::kernel_host
