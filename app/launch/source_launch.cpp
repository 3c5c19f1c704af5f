// Learners' kernels from the options; see source_launch.hpp.
#include "app/launch/source_launch.hpp"

#include "app/launch/input_file.hpp"
#include "app/launch/lessons.hpp"

#if THREADMAP_HAS_SOURCE
#include <algorithm>
#include <cmath>

#include "kernels/source/kernel_host_client.hpp"
#include "kernels/source/source_binding.hpp"
#endif

namespace threadmap {

#if THREADMAP_HAS_SOURCE

bool source_kernels_available() { return true; }

namespace {

// Clang's messages about an expectation compiled after the text, its lines (from `first`)
// named as lines of --expect ("--expect:1:12: error: …") rather than past the file's end.
std::string expectation_messages(const std::string& messages, const std::string& file_name, int first) {
    std::string out;
    size_t at = 0;
    while (at < messages.size()) {
        size_t end = messages.find('\n', at);
        end = end == std::string::npos ? messages.size() : end + 1;
        std::string line = messages.substr(at, end - at);
        const std::string prefix = file_name + ":";
        if (line.rfind(prefix, 0) == 0) {
            const size_t colon = line.find(':', prefix.size());
            const int n = std::atoi(line.c_str() + prefix.size());
            if (colon != std::string::npos && n >= first)
                line = "--expect:" + std::to_string(n - first + 1) + line.substr(colon);
        }
        out += line;
        at = end;
    }
    return out;
}

// Clang's messages of a compile, and the first error's and every warning's line in the file.
void take_messages(SourceAttempt& a, const SourceCompile& compiled, const std::string& file_name) {
    a.compile_ms = compiled.milliseconds;
    a.messages = compiled.text;
    while (!a.messages.empty() && a.messages.back() == '\n') a.messages.pop_back();
    for (const SourceDiagnostic& d : compiled.diagnostics) {
        if (d.file != file_name || d.line <= 0) continue;
        if (!d.error)
            a.warning_lines.push_back(d.line);
        else if (!a.error_line)
            a.error_line = d.line;
    }
}

// The kernel to run: `entry`, or the file's only one; with its parameters and the variables
// it uses (__constant__, __device__: a field left empty keeps their declaration's values).
const SourceKernel* choose_kernel(SourceAttempt& a, const CompiledSource& s, const std::string& entry,
                                  const std::string& file_name) {
    std::string names;
    for (const SourceKernel& k : s.kernels) {
        a.kernels.push_back(k.name);
        names += (names.empty() ? "" : ", ") + k.name;
    }
    const SourceKernel* kernel = nullptr;
    if (!entry.empty()) {
        kernel = s.find(entry);
        if (!kernel) {
            a.messages = file_name + " has no __global__ kernel '" + entry + "' (it has " + names + ")";
            return nullptr;
        }
    } else if (s.kernels.size() == 1) {
        kernel = &s.kernels[0];
    } else {
        a.messages = file_name + " has several kernels (" + names + "): choose one with --entry";
        return nullptr;
    }
    for (const SourceParam& p : kernel->params) a.params.emplace_back(p.name, p.type_text);
    for (size_t index : kernel->variables) {
        const SourceVariable& c = s.variables[index];
        a.params.emplace_back(c.name, std::string(c.constant ? "__constant__ " : "__device__ ") +
                                          value_type_name(c.element) + "[" + std::to_string(c.elements) + "]");
    }
    return kernel;
}

// The expectation beside the bound kernel: the same parameters, the statement as the body,
// after the learner's text (its helpers are in scope); #line makes its messages name --expect.
void add_expectation(SourceAttempt& a, const std::string& text, const std::string& file_name,
                     const SourceKernel& kernel, const std::vector<SourceBinding>& bindings,
                     const std::shared_ptr<const BoundKernel>& bound, const RunLimits& limits,
                     const std::string& expect) {
    std::string params;
    for (const SourceParam& p : kernel.params) params += (params.empty() ? "" : ", ") + p.type_text + " " + p.name;
    const std::string with_expectation =
        text + "\n__global__ void threadmap_expected(" + params + ") {\n" + expect + "\n}\n";
    const SourceCompile e = compile_in_host(with_expectation, file_name);
    const SourceKernel* expected = e.source ? e.source->find("threadmap_expected") : nullptr;
    if (!expected) {
        a.loaded.reset();
        a.messages = "--expect did not compile:\n" +
                     expectation_messages(e.text, file_name, int(std::count(text.begin(), text.end(), '\n')) + 3);
        while (!a.messages.empty() && a.messages.back() == '\n') a.messages.pop_back();
        return;
    }
    auto bound_expected = bind_in_host(e.source, *expected, bindings, 0, limits);
    if (!bound_expected.value) {
        a.loaded.reset();
        a.messages = "--expect: " + bound_expected.error;
        return;
    }
    const auto both =
        std::make_shared<std::pair<std::shared_ptr<const BoundKernel>, std::shared_ptr<const BoundKernel>>>(
            bound, *bound_expected.value);
    a.loaded = LoadedSource{&both->first->spec, both, &both->second->spec, a.warnings};
}

}  // namespace

SourceAttempt compile_and_bind(const std::string& text, const std::string& file_name, const std::string& entry,
                               const std::vector<std::string>& binds, uint64_t dynamic_shared, const RunLimits& limits,
                               const std::string& expect) {
    SourceAttempt a;
    const SourceCompile compiled = compile_in_host(text, file_name);
    take_messages(a, compiled, file_name);
    if (!compiled.source) {
        a.messages = file_name + " did not compile:\n" + a.messages;
        return a;
    }
    a.compiled = true;
    a.warnings = a.messages;  // what Clang printed about a text that compiled
    const SourceKernel* kernel = choose_kernel(a, *compiled.source, entry, file_name);
    if (!kernel) return a;
    std::vector<SourceBinding> bindings;
    for (const std::string& t : binds) {
        auto b = parse_binding(t);
        if (!b.value) {
            a.messages = b.error;
            return a;
        }
        bindings.push_back(*b.value);
    }
    auto bound = bind_in_host(compiled.source, *kernel, bindings, dynamic_shared, limits);
    if (!bound.value) {
        a.messages = bound.error;
        return a;
    }
    a.loaded = LoadedSource{&(*bound.value)->spec, *bound.value, nullptr, a.warnings};
    if (!expect.empty()) add_expectation(a, text, file_name, *kernel, bindings, *bound.value, limits, expect);
    return a;
}

namespace {

// The options' --time-limit and --dynamic-shared over `text`, compiled and bound.
Outcome<LoadedSource> load_text(const std::string& text, const std::string& file_name, const std::string& entry,
                                const std::vector<std::string>& binds, const LaunchOptions& o) {
    if (!o.expect.empty() && !o.sweep_expected)
        return {std::nullopt, "--expect goes with check --sweep-launches (its results are compared with it)"};
    RunLimits limits;
    if (!o.time_limit.empty()) {
        char* end = nullptr;
        limits.seconds = std::strtod(o.time_limit.c_str(), &end);
        if (*end != '\0' || !(limits.seconds > 0) || limits.seconds > 3600)
            return {std::nullopt, "--time-limit expects seconds between 0 and 3600, got '" + o.time_limit + "'"};
    }
    if (!o.memory_limit.empty()) {
        char* end = nullptr;
        const double mib = std::strtod(o.memory_limit.c_str(), &end);
        if (*end != '\0' || !(mib >= 64) || mib > 65536)
            return {std::nullopt, "--memory-limit expects MiB between 64 and 65536, got '" + o.memory_limit + "'"};
        limits.memory_bytes = uint64_t(mib) << 20;
    }
    uint64_t dynamic_shared = 0;
    if (!o.dynamic_shared.empty()) {
        const auto bytes = parse_count(o.dynamic_shared, "--dynamic-shared");
        if (!bytes.value) return failure_of(bytes);
        dynamic_shared = *bytes.value;
    }
    SourceAttempt a = compile_and_bind(text, file_name, entry, binds, dynamic_shared, limits, o.expect);
    if (!a.loaded) return {std::nullopt, a.messages};
    return {*a.loaded, {}};
}

std::string bound_name(const std::string& bind) { return bind.substr(0, bind.find('=')); }

}  // namespace

Outcome<LoadedSource> load_source_kernel(const LaunchOptions& o) {
    if (!o.source_text.empty()) {  // a session's text
        if (o.source_text.size() > kMaxSourceBytes) return {std::nullopt, o.source + ": the kernel's text is too long"};
        return load_text(o.source_text, o.source, o.entry, o.binds, o);
    }
    const auto text = read_input_file(o.source, kMaxSourceBytes, "kernel source");
    if (!text.value) return failure_of(text);
    return load_text(*text.value, o.source, o.entry, o.binds, o);
}

Outcome<LoadedSource> load_lesson_kernel(const LessonKernelText& k, const std::string& file_name,
                                         const LaunchOptions& o) {
    std::vector<std::string> binds = o.binds;  // a --bind replaces the lesson's binding of its name
    for (const std::string& b : k.binds)
        if (std::none_of(o.binds.begin(), o.binds.end(),
                         [&](const std::string& given) { return bound_name(given) == bound_name(b); }))
            binds.push_back(b);
    LaunchOptions with = o;  // the sweep compares with the lesson's right result unless --expect gives one
    if (with.expect.empty() && with.sweep_expected) with.expect = k.expect;
    return load_text(k.text, file_name, o.entry.empty() ? k.entry : o.entry, binds, with);
}

#else

bool source_kernels_available() { return false; }

namespace {
constexpr const char* kNoClang =
    "this threadmap was built without Clang 15 (Debian's libclang-15-dev, llvm-15-dev, libclang-cpp15-dev and "
    "libseccomp-dev), so it cannot compile learners' kernels: run scripts/setup.sh and rebuild";
}

SourceAttempt compile_and_bind(const std::string&, const std::string&, const std::string&,
                               const std::vector<std::string>&, uint64_t, const RunLimits&, const std::string&) {
    SourceAttempt a;
    a.messages = kNoClang;
    return a;
}

Outcome<LoadedSource> load_source_kernel(const LaunchOptions&) { return {std::nullopt, kNoClang}; }
Outcome<LoadedSource> load_lesson_kernel(const LessonKernelText&, const std::string&, const LaunchOptions&) {
    return {std::nullopt, kNoClang};
}

#endif

Outcome<ModelLaunch> expectation_launch(const SourceAttempt& a) {
    if (!a.loaded || !a.loaded->expected) return {std::nullopt, a.messages};
    ModelLaunch model_launch;
    model_launch.spec = a.loaded->expected;
    model_launch.launch = {{1, 1, 1}, {1, 1, 1}};
    model_launch.keep = a.loaded->owner;
    return {std::move(model_launch), {}};
}

}  // namespace threadmap
