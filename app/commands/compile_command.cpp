// `threadmap compile`; see compile_command.hpp.
#include "app/commands/compile_command.hpp"

#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "kernels/builtin/registry.hpp"
#include "app/launch/input_file.hpp"
#include "app/launch/launch_options.hpp"
#include "app/launch/lessons.hpp"
#include "kernels/core/number_text.hpp"
#include "kernels/source/kernel_host_client.hpp"
#include "app/launch/source_launch.hpp"

namespace threadmap {

namespace {

struct NamedText {
    std::string text, file_name;
};

// The text the options name, or why none.
Outcome<NamedText> kernel_text(const CompileCommandOptions& o) {
    if (int(!o.source.empty()) + int(!o.kernel.empty()) + int(!o.preset.empty()) != 1)
        return {std::nullopt, "compile takes one of --source FILE, --kernel NAME or --preset NAME"};
    if (!o.source.empty()) {
        auto text = read_input_file(o.source, 1u << 20, "kernel source");
        if (!text.value) return failure_of(text);
        return {NamedText{std::move(*text.value), o.source}, {}};
    }
    const KernelSpec* spec = nullptr;
    if (!o.kernel.empty()) {
        spec = find_builtin_kernel(o.kernel);
        if (!spec) return {std::nullopt, "unknown kernel '" + o.kernel + "'; choose " + all_kernel_names(", ")};
    } else {
        const Lesson* lesson = find_lesson(o.preset);
        if (!lesson) return {std::nullopt, "unknown preset '" + o.preset + "'; the lessons are: " + lesson_names()};
        if (lesson->own_kernel) return {NamedText{lesson->own_kernel->text, lesson->name + ".cu"}, {}};
        spec =
            lesson->model ? lesson->model->spec : tutorial_model_kernel(lesson->workload, lesson->store_in_loop).spec;
    }
    return {NamedText{spec->cuda_source, spec->name + ".cu"}, {}};
}

}  // namespace

int run_compile_command(const CompileCommandOptions& o) {
    const auto named = kernel_text(o);
    if (!named.value) {
        std::fprintf(stderr, "threadmap: %s\n", named.error.c_str());
        return 2;
    }
    if (o.arch.rfind("compute_", 0) != 0 || o.arch.size() < 10 ||
        o.arch.find_first_not_of("0123456789", 8) != std::string::npos) {
        std::fprintf(stderr, "threadmap: --arch expects compute_XY (compute_90 for an H200), got '%s'\n",
                     o.arch.c_str());
        return 2;
    }
    const std::string& text = named.value->text;
    const std::string& file = named.value->file_name;
    // Clang as the kernel model uses it (a compile, no binding); its time includes, on the first
    // compile of a process, starting LLVM's JIT.
    const SourceAttempt clang = compile_and_bind(text, file, "", {}, 0, kKernelLimits);
    const NvrtcCompile nvrtc = nvrtc_compile_in_host(text, file, o.arch);
    const bool clang_ok = clang.compiled, nvrtc_ok = nvrtc.compiled || !nvrtc.unavailable.empty();
    if (o.format == "json") {
        nlohmann::json j = {{"file", file},
                            {"clang", {{"compiled", clang.compiled}, {"milliseconds", clang.compile_ms}}},
                            {"nvrtc",
                             {{"available", nvrtc.unavailable.empty()},
                              {"version", nvrtc.version},
                              {"arch", nvrtc.arch},
                              {"compiled", nvrtc.compiled},
                              {"milliseconds", nvrtc.milliseconds},
                              {"ptx_bytes", nvrtc.ptx_bytes},
                              {"log", nvrtc.log}}}};
        if (!clang.compiled) j["clang"]["messages"] = clang.messages;
        if (!clang.warnings.empty()) j["clang"]["warnings"] = clang.warnings;
        if (!nvrtc.unavailable.empty()) j["nvrtc"]["unavailable"] = nvrtc.unavailable;
        std::cout << j.dump(1) << "\n";
        return clang_ok && nvrtc_ok ? 0 : 2;
    }
    std::cout << file << "\n  Clang 15 (the kernel model, on this CPU): ";
    if (clang_ok)
        std::cout << "compiled in " << decimals(clang.compile_ms, 1) << " ms"
                  << (clang.warnings.empty() ? "" : "; its warnings:\n" + clang.warnings) << "\n";
    else  // Clang's messages begin with "FILE did not compile:"
        std::cout << clang.messages << "\n";
    std::cout << "  NVRTC " << nvrtc.version << (nvrtc.version.empty() ? "" : " ") << "(a GPU's run-time compiler, "
              << o.arch << "): ";
    if (!nvrtc.unavailable.empty())
        std::cout << "not run: " << nvrtc.unavailable << "\n";
    else if (nvrtc.compiled)
        std::cout << "compiled in " << decimals(nvrtc.milliseconds, 1) << " ms (" << nvrtc.ptx_bytes << " bytes of PTX)"
                  << (nvrtc.log.empty() ? "" : "; its warnings:\n" + nvrtc.log) << "\n";
    else
        std::cout << "does not compile:\n" << nvrtc.log << "\n";
    return clang_ok && nvrtc_ok ? 0 : 2;
}

}  // namespace threadmap
