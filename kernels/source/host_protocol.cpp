// See host_protocol.hpp.
#include "kernels/source/host_protocol.hpp"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <limits>

#include "kernels/source/source_hooks.hpp"

namespace threadmap::kernel_host {

using nlohmann::json;

namespace {

constexpr uint32_t kMagic = 0x6b746d74;  // "tmtk"

struct Header {
    uint32_t magic = kMagic;
    uint32_t type = 0;
    uint64_t length = 0;
};

bool send_all(int socket, const char* data, size_t size, int fd_to_pass) {
    while (size > 0) {
        iovec io{const_cast<char*>(data), size};
        msghdr m{};
        m.msg_iov = &io;
        m.msg_iovlen = 1;
        alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))];
        if (fd_to_pass >= 0) {  // with the first bytes
            std::memset(control, 0, sizeof control);
            m.msg_control = control;
            m.msg_controllen = sizeof control;
            cmsghdr* c = CMSG_FIRSTHDR(&m);
            c->cmsg_level = SOL_SOCKET;
            c->cmsg_type = SCM_RIGHTS;
            c->cmsg_len = CMSG_LEN(sizeof(int));
            std::memcpy(CMSG_DATA(c), &fd_to_pass, sizeof(int));
        }
        const ssize_t n = sendmsg(socket, &m, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        data += n;
        size -= size_t(n);
        fd_to_pass = -1;
    }
    return true;
}

// Waits until `socket` is readable; false on the deadline or a cancel.
Received wait_readable(int socket, std::optional<std::chrono::steady_clock::time_point> deadline,
                       const std::atomic<bool>* cancel) {
    for (;;) {
        if (cancel && cancel->load()) return Received::Cancelled;
        int timeout = -1;
        if (deadline) {
            const auto left =
                std::chrono::duration_cast<std::chrono::milliseconds>(*deadline - std::chrono::steady_clock::now());
            if (left.count() <= 0) return Received::TimedOut;
            timeout = int(std::min<long long>(left.count(), 20));
        }
        if (cancel) timeout = timeout < 0 ? 20 : std::min(timeout, 20);
        pollfd p{socket, POLLIN, 0};
        const int ready = poll(&p, 1, timeout);
        if (ready > 0) return Received::Frame;
        if (ready < 0 && errno != EINTR) return Received::Ended;
    }
}

// Reads exactly `size` bytes (taking a descriptor that comes with them into `fd`).
Received receive_all(int socket, char* data, size_t size, int& fd,
                     std::optional<std::chrono::steady_clock::time_point> deadline, const std::atomic<bool>* cancel) {
    while (size > 0) {
        if (const Received r = wait_readable(socket, deadline, cancel); r != Received::Frame) return r;
        iovec io{data, size};
        msghdr m{};
        m.msg_iov = &io;
        m.msg_iovlen = 1;
        alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * 4)];
        m.msg_control = control;
        m.msg_controllen = sizeof control;
        const ssize_t n = recvmsg(socket, &m, MSG_CMSG_CLOEXEC);
        if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        if (n <= 0) return Received::Ended;
        for (cmsghdr* c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c)) {
            if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
            const size_t count = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
            for (size_t i = 0; i < count; ++i) {
                int passed = -1;
                std::memcpy(&passed, CMSG_DATA(c) + i * sizeof(int), sizeof(int));
                if (fd < 0)
                    fd = passed;
                else
                    close(passed);  // one descriptor a frame; any more are closed
            }
        }
        data += n;
        size -= size_t(n);
    }
    return Received::Frame;
}

}  // namespace

bool send_frame(int socket, Message type, const json& body, int fd_to_pass) {
    const std::string payload = body.dump(-1, ' ', false, json::error_handler_t::replace);
    Header h;
    h.type = uint32_t(type);
    h.length = payload.size();
    std::string bytes(reinterpret_cast<const char*>(&h), sizeof h);
    bytes += payload;
    return send_all(socket, bytes.data(), bytes.size(), fd_to_pass);
}

Received receive_frame(int socket, Frame& out, std::optional<std::chrono::steady_clock::time_point> deadline,
                       const std::atomic<bool>* cancel) {
    Header h;
    out.fd = -1;
    Received r = receive_all(socket, reinterpret_cast<char*>(&h), sizeof h, out.fd, deadline, cancel);
    if (r != Received::Frame) return r;
    if (h.magic != kMagic || h.type < uint32_t(Message::Compile) || h.type > uint32_t(Message::GpuCompiled) ||
        h.length > kMaxPayload)
        return Received::Malformed;
    std::string payload(h.length, '\0');
    r = receive_all(socket, payload.data(), payload.size(), out.fd, deadline, cancel);
    if (r != Received::Frame) return r;
    out.type = Message(h.type);
    out.body = json::parse(payload, nullptr, false);
    return out.body.is_discarded() || !out.body.is_object() ? Received::Malformed : Received::Frame;
}

// ---- compiles -------------------------------------------------------------------------------

namespace {

constexpr uint64_t kMaxNames = 4096;  // kernels, parameters, arrays, variables, diagnostics

json value_type_json(ValueType t) { return int(t); }
bool value_type_of(const json& j, ValueType& t) {
    if (!j.is_number_integer() || j.get<int64_t>() < 0 || j.get<int64_t>() > int64_t(ValueType::BFloat16)) return false;
    t = ValueType(j.get<int>());
    return true;
}

// Reads a field of the type asked for; false when it is missing or of another type.
template <class T>
bool field(const json& j, const char* name, T& out) {
    const auto it = j.find(name);
    if (it == j.end()) return false;
    if constexpr (std::is_same_v<T, bool>) {
        if (!it->is_boolean()) return false;
    } else if constexpr (std::is_same_v<T, std::string>) {
        if (!it->is_string()) return false;
    } else if constexpr (std::is_floating_point_v<T>) {
        if (!it->is_number()) return false;
    } else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
        if (!it->is_number_integer() || (it->is_number_unsigned() && it->get<uint64_t>() > uint64_t(INT64_MAX)))
            return false;
        const int64_t v = it->get<int64_t>();
        if (v < std::numeric_limits<T>::min() || v > std::numeric_limits<T>::max()) return false;
    } else if constexpr (std::is_integral_v<T>) {
        if (!it->is_number_unsigned() || it->get<uint64_t>() > std::numeric_limits<T>::max()) return false;
    }
    out = it->get<T>();
    return true;
}

// A variable's initial bytes travel as hexadecimal text.
std::string hex_of(const std::vector<unsigned char>& bytes) {
    static const char digits[] = "0123456789abcdef";
    std::string s;
    for (unsigned char b : bytes) s += {digits[b >> 4], digits[b & 15]};
    return s;
}
bool bytes_of_hex(const std::string& s, std::vector<unsigned char>& out) {
    const auto nibble = [](char c) {
        return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
    };
    if (s.size() % 2) return false;
    for (size_t i = 0; i < s.size(); i += 2) {
        const int hi = nibble(s[i]), lo = nibble(s[i + 1]);
        if (hi < 0 || lo < 0) return false;
        out.push_back(static_cast<unsigned char>(hi << 4 | lo));
    }
    return true;
}

bool list(const json& j, const char* name, const json*& out) {
    const auto it = j.find(name);
    if (it == j.end() || !it->is_array() || it->size() > kMaxNames) return false;
    out = &*it;
    return true;
}

json kernel_json(const SourceKernel& k) {
    json params = json::array(), shared = json::array();
    for (const SourceParam& p : k.params)
        params.push_back({{"name", p.name},
                          {"type_text", p.type_text},
                          {"pointer", p.pointer},
                          {"is_const", p.is_const},
                          {"element", value_type_json(p.element)},
                          {"scalar", value_type_json(p.scalar)}});
    for (const SourceSharedArray& s : k.shared)
        shared.push_back({{"name", s.name},
                          {"line", s.line},
                          {"element", value_type_json(s.element)},
                          {"shape", s.shape},
                          {"dynamic", s.dynamic},
                          {"function", s.function},
                          {"slot", s.slot}});
    return {{"name", k.name},
            {"line", k.line},
            {"params", params},
            {"shared", shared},
            {"variables", k.variables},
            {"uses_barriers", k.uses_barriers},
            {"uses_warp_ops", k.uses_warp_ops},
            {"uses_atomics", k.uses_atomics}};
}

bool kernel_of(const json& j, SourceKernel& k, size_t variables) {
    const json *params = nullptr, *shared = nullptr, *used = nullptr;
    if (!j.is_object() || !field(j, "name", k.name) || !field(j, "line", k.line) || !list(j, "params", params) ||
        !list(j, "shared", shared) || !list(j, "variables", used) || !field(j, "uses_barriers", k.uses_barriers) ||
        !field(j, "uses_warp_ops", k.uses_warp_ops) || !field(j, "uses_atomics", k.uses_atomics))
        return false;
    for (const json& p : *params) {
        SourceParam s;
        if (!p.is_object() || !field(p, "name", s.name) || !field(p, "type_text", s.type_text) ||
            !field(p, "pointer", s.pointer) || !field(p, "is_const", s.is_const) ||
            !value_type_of(p.value("element", json()), s.element) ||
            !value_type_of(p.value("scalar", json()), s.scalar))
            return false;
        k.params.push_back(std::move(s));
    }
    for (const json& a : *shared) {
        SourceSharedArray s;
        const json* shape = nullptr;
        if (!a.is_object() || !field(a, "name", s.name) || !field(a, "line", s.line) ||
            !value_type_of(a.value("element", json()), s.element) || !list(a, "shape", shape) || shape->size() > 3 ||
            !field(a, "dynamic", s.dynamic) || !field(a, "function", s.function) || !field(a, "slot", s.slot) ||
            s.slot >= source_hooks::kSlots)
            return false;
        for (const json& e : *shape) {
            if (!e.is_number_unsigned()) return false;
            s.shape.push_back(e.get<uint64_t>());
        }
        k.shared.push_back(std::move(s));
    }
    for (const json& v : *used) {
        if (!v.is_number_unsigned() || v.get<uint64_t>() >= variables) return false;
        k.variables.push_back(v.get<size_t>());
    }
    return true;
}

}  // namespace

json compile_to_json(const SourceCompile& c, uint64_t id) {
    json diagnostics = json::array(), kernels = json::array(), variables = json::array();
    for (const SourceDiagnostic& d : c.diagnostics)
        diagnostics.push_back({{"file", d.file},
                               {"line", d.line},
                               {"column", d.column},
                               {"error", d.error},
                               {"message", d.message},
                               {"text", d.text}});
    json out = {{"id", id}, {"diagnostics", diagnostics}, {"text", c.text}, {"milliseconds", c.milliseconds}};
    if (!c.source) return out;
    for (const SourceKernel& k : c.source->kernels) kernels.push_back(kernel_json(k));
    for (const SourceVariable& v : c.source->variables)
        variables.push_back({{"name", v.name},
                             {"line", v.line},
                             {"constant", v.constant},
                             {"element", value_type_json(v.element)},
                             {"elements", v.elements},
                             {"slot", v.slot},
                             {"initial", hex_of(v.initial)}});
    out["source"] = {
        {"file_name", c.source->file_name}, {"text", c.source->text}, {"kernels", kernels}, {"variables", variables}};
    return out;
}

std::optional<SourceCompile> compile_from_json(const json& j, uint64_t& id) {
    SourceCompile c;
    const json* diagnostics = nullptr;
    if (!field(j, "id", id) || !list(j, "diagnostics", diagnostics) || !field(j, "text", c.text) ||
        !field(j, "milliseconds", c.milliseconds))
        return std::nullopt;
    for (const json& d : *diagnostics) {
        SourceDiagnostic s;
        if (!d.is_object() || !field(d, "file", s.file) || !field(d, "line", s.line) || !field(d, "column", s.column) ||
            !field(d, "error", s.error) || !field(d, "message", s.message) || !field(d, "text", s.text))
            return std::nullopt;
        c.diagnostics.push_back(std::move(s));
    }
    const auto it = j.find("source");
    if (it == j.end()) return c;
    const json& s = *it;
    auto source = std::make_shared<CompiledSource>();
    const json *kernels = nullptr, *variables = nullptr;
    if (!s.is_object() || !field(s, "file_name", source->file_name) || !field(s, "text", source->text) ||
        !list(s, "kernels", kernels) || !list(s, "variables", variables))
        return std::nullopt;
    for (const json& v : *variables) {
        SourceVariable x;
        std::string initial;
        if (!v.is_object() || !field(v, "name", x.name) || !field(v, "line", x.line) ||
            !field(v, "constant", x.constant) || !value_type_of(v.value("element", json()), x.element) ||
            !field(v, "elements", x.elements) || !field(v, "slot", x.slot) || x.slot >= source_hooks::kSlots ||
            x.elements > (uint64_t(1) << 24) || !field(v, "initial", initial) || !bytes_of_hex(initial, x.initial) ||
            x.initial.size() != x.elements * value_bytes(x.element))
            return std::nullopt;
        source->variables.push_back(std::move(x));
    }
    for (const json& k : *kernels) {
        SourceKernel kernel;
        if (!kernel_of(k, kernel, source->variables.size())) return std::nullopt;
        source->kernels.push_back(std::move(kernel));
    }
    if (source->kernels.empty()) return std::nullopt;
    c.source = std::move(source);
    return c;
}

// ---- runs -----------------------------------------------------------------------------------

json run_to_json(const RunRequest& r) {
    const auto dim = [](const Dim3& d) { return json::array({d.x, d.y, d.z}); };
    return {{"compile", r.compile},
            {"kernel", r.kernel},
            {"bindings", r.bindings},
            {"dynamic_shared_bytes", r.dynamic_shared_bytes},
            {"seconds", r.limits.seconds},
            {"memory_bytes", r.limits.memory_bytes},
            {"params", r.params},
            {"grid", dim(r.launch.grid)},
            {"block", dim(r.launch.block)},
            {"record_reads", r.record_reads},
            {"record_elements", r.record_elements},
            {"keep_records", r.keep_records},
            {"record_requests", r.record_requests},
            {"keep_requests", r.keep_requests == SIZE_MAX ? -1 : int64_t(r.keep_requests)},
            {"keep_op", int(r.keep_op)},
            {"cost_array", r.cost_array == SIZE_MAX ? -1 : int64_t(r.cost_array)},
            {"requests_array", r.requests_array == SIZE_MAX ? -1 : int64_t(r.requests_array)},
            {"global_element_bytes", r.global_element_bytes},
            {"max_accesses", r.max_accesses},
            {"shared_block", r.shared_block},
            {"phase", r.phase},
            {"watch_array", r.watch_array == SIZE_MAX ? -1 : int64_t(r.watch_array)},
            {"watch_element", r.watch_element}};
}

std::optional<RunRequest> run_from_json(const json& j) {
    RunRequest r;
    const json *bindings = nullptr, *params = nullptr;
    const auto dim = [&](const char* name, Dim3& d) {
        const auto it = j.find(name);
        if (it == j.end() || !it->is_array() || it->size() != 3) return false;
        for (const json& e : *it)
            if (!e.is_number_unsigned() || e.get<uint64_t>() == 0 || e.get<uint64_t>() > UINT32_MAX) return false;
        d = {(*it)[0].get<uint32_t>(), (*it)[1].get<uint32_t>(), (*it)[2].get<uint32_t>()};
        return true;
    };
    int64_t keep = -1, watch = -1, cost_array = -1, requests_array = -1;
    int op = 0;
    if (!field(j, "compile", r.compile) || !field(j, "kernel", r.kernel) || !list(j, "bindings", bindings) ||
        !field(j, "dynamic_shared_bytes", r.dynamic_shared_bytes) || !field(j, "seconds", r.limits.seconds) ||
        !field(j, "memory_bytes", r.limits.memory_bytes) || !list(j, "params", params) || !dim("grid", r.launch.grid) ||
        !dim("block", r.launch.block) || !field(j, "record_reads", r.record_reads) ||
        !field(j, "record_elements", r.record_elements) || !field(j, "keep_records", r.keep_records) ||
        !field(j, "record_requests", r.record_requests) || !field(j, "keep_requests", keep) ||
        !field(j, "keep_op", op) || !field(j, "cost_array", cost_array) ||
        !field(j, "requests_array", requests_array) || op < 0 || op > 1 ||
        !field(j, "global_element_bytes", r.global_element_bytes) || !field(j, "max_accesses", r.max_accesses) ||
        !field(j, "shared_block", r.shared_block) || !field(j, "phase", r.phase) || !field(j, "watch_array", watch) ||
        !field(j, "watch_element", r.watch_element) || !(r.limits.seconds > 0))
        return std::nullopt;
    r.keep_requests = keep < 0 ? SIZE_MAX : size_t(keep);
    r.cost_array = cost_array < 0 ? SIZE_MAX : size_t(cost_array);
    r.requests_array = requests_array < 0 ? SIZE_MAX : size_t(requests_array);
    r.watch_array = watch < 0 ? SIZE_MAX : size_t(watch);
    r.keep_op = AccessOp(op);
    for (const json& b : *bindings) {
        if (!b.is_string()) return std::nullopt;
        r.bindings.push_back(b.get<std::string>());
    }
    for (const json& p : *params) {
        if (!p.is_number_unsigned()) return std::nullopt;
        r.params.push_back(p.get<uint64_t>());
    }
    return r;
}

ModelLaunch model_launch_of(const RunRequest& r, const KernelSpec& spec) {
    ModelLaunch model_launch;
    model_launch.spec = &spec;
    model_launch.params = r.params;
    model_launch.launch = r.launch;
    model_launch.record_reads = r.record_reads;
    model_launch.record_elements = r.record_elements;
    model_launch.keep_records = r.keep_records;
    model_launch.watch_array = r.watch_array;
    model_launch.watch_element = r.watch_element;
    model_launch.record_requests = r.record_requests;
    model_launch.keep_requests = r.keep_requests;
    model_launch.cost_array = r.cost_array;
    model_launch.requests_array = r.requests_array;
    model_launch.keep_op = r.keep_op;
    model_launch.global_element_bytes = r.global_element_bytes;
    model_launch.max_accesses = r.max_accesses;
    model_launch.shared_block = r.shared_block;
    model_launch.phase = r.phase;
    model_launch.workers = 1;
    return model_launch;
}

json gpu_compile_to_json(const NvrtcCompile& c) {
    return {{"unavailable", c.unavailable}, {"version", c.version}, {"arch", c.arch},
            {"compiled", c.compiled},       {"log", c.log},         {"milliseconds", c.milliseconds},
            {"ptx_bytes", c.ptx_bytes}};
}

std::optional<NvrtcCompile> gpu_compile_from_json(const json& j) {
    NvrtcCompile c;
    if (!field(j, "unavailable", c.unavailable) || !field(j, "version", c.version) || !field(j, "arch", c.arch) ||
        !field(j, "compiled", c.compiled) || !field(j, "log", c.log) || !field(j, "milliseconds", c.milliseconds) ||
        !field(j, "ptx_bytes", c.ptx_bytes))
        return std::nullopt;
    return c;
}

json ended_to_json(const ChildEnd& end) {
    return {{"signalled", end.signalled},  {"signal", end.signal},       {"line", end.line},
            {"printed", end.printed.text}, {"calls", end.printed.calls}, {"kept_calls", end.printed.kept_calls}};
}

json run_failed_to_json(const std::string& why) { return {{"error", why}}; }

Outcome<ChildEnd> ended_from_json(const json& j) {
    if (std::string why; field(j, "error", why)) return failed(why.empty() ? "the kernel host could not run it" : why);
    ChildEnd e;
    if (!field(j, "signalled", e.signalled) || !field(j, "signal", e.signal) || !field(j, "line", e.line) ||
        !field(j, "printed", e.printed.text) || e.printed.text.size() > KernelPrint::kMaxBytes ||
        !field(j, "calls", e.printed.calls) || !field(j, "kept_calls", e.printed.kept_calls) ||
        e.printed.kept_calls > e.printed.calls)
        return failed("the kernel host answered with something that is not a run's end", Failure::Internal);
    return {e, {}};
}

}  // namespace threadmap::kernel_host
