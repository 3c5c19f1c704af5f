// Learners' kernels from the options; see source_launch.hpp.
#include "source_launch.hpp"

#include "input_file.hpp"

#if THREADMAP_HAS_SOURCE
#include <cmath>

#include "isolated_run.hpp"
#include "source_binding.hpp"
#include "source_compiler.hpp"
#endif

namespace threadmap {

namespace {
constexpr uint64_t kMaxSourceBytes = 1u << 20;  // a course's kernel file is a few KB
}

#if THREADMAP_HAS_SOURCE

bool source_kernels_available() { return true; }

Outcome<LoadedSource> load_source_kernel(const LaunchOptions& o) {
    double seconds = kDefaultKernelSeconds;
    if (!o.time_limit.empty()) {
        char* end = nullptr;
        seconds = std::strtod(o.time_limit.c_str(), &end);
        if (*end != '\0' || !(seconds > 0) || seconds > 3600)
            return {std::nullopt, "--time-limit expects seconds between 0 and 3600, got '" + o.time_limit + "'"};
    }
    uint64_t dynamic_shared = 0;
    if (!o.dynamic_shared.empty()) {
        const auto bytes = parse_count(o.dynamic_shared, "--dynamic-shared");
        if (!bytes.value) return {std::nullopt, bytes.error};
        dynamic_shared = *bytes.value;
    }
    std::vector<SourceBinding> bindings;
    for (const std::string& text : o.binds) {
        auto b = parse_binding(text);
        if (!b.value) return {std::nullopt, b.error};
        bindings.push_back(*b.value);
    }
    const auto text = read_input_file(o.source, kMaxSourceBytes, "kernel source");
    if (!text.value) return {std::nullopt, text.error};
    const SourceCompile compiled = compile_source(*text.value, o.source);
    if (!compiled.source) {
        std::string why = compiled.text;
        while (!why.empty() && why.back() == '\n') why.pop_back();
        return {std::nullopt, o.source + " did not compile:\n" + why};
    }
    const CompiledSource& s = *compiled.source;
    const SourceKernel* kernel = nullptr;
    std::string names;
    for (const SourceKernel& k : s.kernels) names += (names.empty() ? "" : ", ") + k.name;
    if (!o.entry.empty()) {
        kernel = s.find(o.entry);
        if (!kernel)
            return {std::nullopt, o.source + " has no __global__ kernel '" + o.entry + "' (it has " + names + ")"};
    } else if (s.kernels.size() == 1) {
        kernel = &s.kernels[0];
    } else {
        return {std::nullopt, o.source + " has several kernels (" + names + "): choose one with --entry"};
    }
    auto bound = bind_kernel(compiled.source, *kernel, bindings, {true, seconds, dynamic_shared});
    if (!bound.value) return {std::nullopt, bound.error};
    return {LoadedSource{&(*bound.value)->spec, *bound.value}, {}};
}

#else

bool source_kernels_available() { return false; }

Outcome<LoadedSource> load_source_kernel(const LaunchOptions&) {
    return {std::nullopt,
            "this threadmap was built without Clang 15 (Debian's libclang-15-dev, llvm-15-dev, libclang-cpp15-dev "
            "and libseccomp-dev), so it cannot compile --source kernels: run scripts/setup.sh and rebuild"};
}

#endif

}  // namespace threadmap
