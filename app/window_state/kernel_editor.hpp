// The kernel editor's state and actions (the panel, app/panels/editor_panel, draws it): the
// learner's CUDA C++ text, one binding per parameter of the kernel, and the result of the
// last compile. Run compiles and binds it and, when both succeed, makes it the launch the
// map shows (the controls' blockDim and gridDim stay); while the text does not compile the
// last good map stays. The text is saved in $XDG_DATA_HOME/threadmap/kernel.cu, so a crash
// or a restart never loses it.
#pragma once

#include <chrono>
#include <future>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "kernels/model/model_emulator.hpp"
#include "kernels/cuda/nvrtc_compiler.hpp"
#include "kernels/core/outcome.hpp"
#include "app/launch/source_launch.hpp"
#include "app/window_state/launch_sweep_job.hpp"

namespace threadmap {

struct AppState;

struct KernelEditor {
    std::string text;
    // A session's launch and mapped array for this text: applied by the first compile that
    // succeeds, so that a text that does not compile changes nothing on the map.
    struct SessionLaunch {
        Dim3 block, grid;
        std::string array;  // empty: the kernel's output
        bool reads = false;
    };
    std::optional<SessionLaunch> session;
    // The __global__ kernel to run, chosen in the panel when the text has several (empty or
    // gone from the text: the first), and the text's kernels at the last compile.
    std::string entry;
    std::vector<std::string> kernels;
    // The kernel's parameters (name, type as written) from the last compile, and the learner's
    // binding of each, parse_binding's text after "NAME=" ("float[500]:index", "500").
    std::vector<std::pair<std::string, std::string>> params;
    std::vector<std::string> binds;
    std::string dynamic_shared = "0";  // bytes per block, for an extern __shared__ array
    // The last compile: Clang's messages (or the binding problem), its first error's line.
    std::string messages;
    int error_line = 0;
    std::string warnings;  // when it compiled: Clang's warnings (shown, the kernel runs as written)
    std::vector<int> warning_lines;
    double compile_ms = 0;
    bool running = false;  // the kernel on the map is the editor's
    // A run after a short pause in typing.
    bool edited = false;
    std::chrono::steady_clock::time_point last_edit;
    static constexpr std::chrono::milliseconds kPause{700};
    std::string save_path;  // empty: not saved (tests, --no-settings)
    bool unsaved = false;
    // "Compile for a GPU": NVRTC's verdict on the text (off the UI thread: its first call loads
    // some 100 MB), and the text it compiled (the verdict is of an earlier text once edited).
    std::future<NvrtcCompile> gpu_job;
    std::optional<NvrtcCompile> gpu;
    std::string gpu_text;
    // Run's compile and bind, off the UI thread (a hostile text may take the compile's whole
    // time limit; the first compile starts the kernel host): the attempt and the kernel it
    // chose, which poll_editor_compile applies. Run while one is in flight compiles again after it.
    struct Compiled {
        SourceAttempt attempt;
        std::string entry;
        std::string text;  // the text compiled
        // Bound from a launch (from_launch): the parameters a first compile found, and each
        // one's binding at that launch.
        std::optional<std::vector<std::string>> launch_binds;
        std::vector<std::pair<std::string, std::string>> launch_params;
    };
    std::future<Compiled> compile_job;
    bool compile_again = false;
    // A built-in kernel's text opened here (the Code tab's "edit"): the next compile binds each
    // parameter as this launch has it, which only a first compile of the text can name.
    struct LaunchBinding {
        ModelKernel kernel;
        LaunchConfig launch;
    };
    std::optional<LaunchBinding> from_launch;
};

// The editor's kernel with `expect` as its expected result (check --expect): a one-thread
// launch of it, or Clang's message about the statement.
ExpectationCompile editor_expectation(const AppState& state, const std::string& expect);

// Starts NVRTC on the editor's text (unless it runs); poll_gpu_compile collects it.
void start_gpu_compile(KernelEditor& editor);
void poll_gpu_compile(KernelEditor& editor);

// Where the editor's text is kept: $XDG_DATA_HOME/threadmap/kernel.cu (default
// ~/.local/share/threadmap/kernel.cu).
std::string editor_file_path();

// The seed's increment_by_one, bound to 500 elements: what a first start shows.
void start_editor(KernelEditor& editor, const std::string& save_path);

// Starts compiling and binding the text (off the UI thread); poll_editor_compile applies the
// result: on success the map shows it.
void run_editor(AppState& state);
// run_editor, and the text saved where the Editor keeps it (a failure on the status line).
void run_and_save_editor(AppState& state);
// After a pause in typing (KernelEditor::kPause), the text runs, whichever tab is open: the
// learner may have gone to the map to watch it. Once a frame.
void run_editor_after_pause(AppState& state);
void poll_editor_compile(AppState& state);

// Opens the kernel on the map (its CUDA text) in the editor, each parameter bound as the
// launch has it, and runs it.
void edit_launch_kernel(AppState& state);

// Puts `text` in the editor with these bindings (NAME=… texts, as --bind takes them), the
// kernel `entry` (empty: the first) and the dynamic shared bytes, and runs it: a lesson's own
// kernel, or the window's --source file (which is read, never written: the editor keeps its
// text in its own file).
void open_in_editor(AppState& state, const std::string& text, const std::string& entry,
                    const std::vector<std::string>& binds, const std::string& dynamic_shared);

// Saves the text if it changed (each frame; writes happen on a change only).
Outcome<void> save_editor_text(KernelEditor& editor);

}  // namespace threadmap
