// `--source FILE [--entry NAME] --bind … [--time-limit S]`, and the kernel editor's Run: a
// learner's kernel, compiled by the embedded Clang (kernels/source), chosen and bound, as a
// spec the kernel model runs in a locked-down child process. Built without Clang 15, it says so.
#pragma once

#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "kernels/source/child_run.hpp"
#include "app/launch/launch_options.hpp"
#include "kernels/model/model_emulator.hpp"

namespace threadmap {

struct LoadedSource {
    const KernelSpec* spec = nullptr;
    std::shared_ptr<const void> owner;  // keeps `spec` (and `expected`) and the compiled code alive
    // With an expectation (--expect): a one-thread kernel with the same parameters and
    // bindings whose body is the learner's statement; the arrays it leaves are the right ones.
    const KernelSpec* expected = nullptr;
    std::string warnings;  // Clang's warnings about the text, which compiled (`check` prints them)
};

// One compile and bind of a text, with everything the editor shows either way.
struct SourceAttempt {
    std::optional<LoadedSource> loaded;  // compiled and every parameter bound
    bool compiled = false;               // the text compiled (the binding may still be wrong)
    std::string messages;                // Clang's text, or what is wrong with the bindings
    std::string warnings;                // when it compiled: Clang's warnings (`if (i = n)`), or empty
    int error_line = 0;                  // the first error's line in the text (0: none)
    std::vector<int> warning_lines;      // the lines Clang warns about, in the text
    std::vector<std::string> kernels;    // the file's __global__ kernels
    // The chosen kernel's parameters: name and type as written ("const float *").
    std::vector<std::pair<std::string, std::string>> params;
    double compile_ms = 0;
};

// `binds`: NAME=… texts (parse_binding's syntax); `entry` empty: the only kernel. `expect`: a
// C++ statement over the kernel's parameters that computes the right results (one thread, so
// with its own loops: "for (int i = 0; i < n; ++i) y[i] = a * x[i] + y[i];"), compiled after
// the text as the body of a kernel named threadmap_expected; its errors name `--expect`.
SourceAttempt compile_and_bind(const std::string& text, const std::string& file_name, const std::string& entry,
                               const std::vector<std::string>& binds, uint64_t dynamic_shared, const RunLimits& limits,
                               const std::string& expect = "");

// Error: Clang's messages (file:line:column, with the caret lines), or what is missing.
Outcome<LoadedSource> load_source_kernel(const LaunchOptions& options);

// The one-thread launch of an attempt's expectation (compile_and_bind with `expect`), or the
// messages of why there is none.
Outcome<ModelLaunch> expectation_launch(const SourceAttempt& attempt);

// A lesson's own kernel (its text named `file_name`), with the options' --entry and --bind
// over the lesson's, and their --time-limit and --dynamic-shared; for a sweep, the options'
// --expect or else the lesson's.
struct LessonKernelText;
Outcome<LoadedSource> load_lesson_kernel(const LessonKernelText& kernel, const std::string& file_name,
                                         const LaunchOptions& options);

// Whether this threadmap can compile learners' kernels (built with Clang 15).
bool source_kernels_available();

// The largest kernel file read (a course's is a few KB).
inline constexpr uint64_t kMaxSourceBytes = 1u << 20;

// How long and with how much memory a run of a learner's kernel goes by default.
inline constexpr double kKernelSeconds = kDefaultKernelSeconds;
inline const RunLimits kKernelLimits{};

}  // namespace threadmap
