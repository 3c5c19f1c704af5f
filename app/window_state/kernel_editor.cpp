// The kernel editor's actions; see kernel_editor.hpp.
#include "app/window_state/kernel_editor.hpp"

#include <algorithm>

#include <cstdlib>
#include <filesystem>

#include "app/window_state/app_state.hpp"
#include "app/launch/input_file.hpp"
#include "kernels/source/kernel_host_client.hpp"
#include "kernels/source/seed_source.hpp"
#include "app/launch/lessons.hpp"
#include "app/window_state/settings.hpp"
#include "app/launch/source_launch.hpp"

namespace threadmap {

namespace {

// What a first start shows: the seed's kernel, one comment line above it.
std::string first_kernel() {
    return std::string("// Your kernel: edit it and press Ctrl+Enter (or pause typing) to see what it does.\n") +
           kSeedIncrementSource;
}

std::string param_bind(const std::pair<std::string, std::string>& param, const std::vector<std::string>& names,
                       const std::vector<std::string>& values) {
    for (size_t i = 0; i < names.size() && i < values.size(); ++i)
        if (names[i] == param.first) return values[i];
    return "";
}

// The spec's own binding of a parameter named like one of its arrays or parameters, at `launch`.
std::string bind_from_launch(const std::string& name, bool pointer, const ModelKernel& k, const LaunchConfig& launch) {
    const KernelSpec& spec = *k.spec;
    if (pointer) {
        const size_t a = spec.array_index(name);
        if (a == spec.arrays.size()) return "";
        std::string s = value_type_name(spec.arrays[a].type);
        for (uint64_t e : spec.arrays[a].shape(k.params, launch)) s += "[" + std::to_string(e) + "]";
        return s + (spec.arrays[a].role == ArrayRole::Input ? ":random" : ":zeros");
    }
    // The histograms' text calls the bin count nbins (bins is the array).
    const size_t p = spec.param_index(name == "nbins" ? "bins" : name);
    return p < k.params.size() ? std::to_string(k.params[p]) : "";
}

// The editor's bindings as --bind texts, and its dynamic shared memory.
std::vector<std::string> editor_binds(const KernelEditor& editor) {
    std::vector<std::string> binds;
    for (size_t i = 0; i < editor.params.size() && i < editor.binds.size(); ++i)
        if (!editor.binds[i].empty()) binds.push_back(editor.params[i].first + "=" + editor.binds[i]);
    return binds;
}

uint64_t editor_dynamic_shared(const KernelEditor& editor) {
    const auto bytes =
        parse_count(editor.dynamic_shared.empty() ? "0" : editor.dynamic_shared, "dynamic shared memory");
    return bytes.value.value_or(0);
}

}  // namespace

std::string editor_file_path() {
    const char* xdg = std::getenv("XDG_DATA_HOME");
    const char* home = std::getenv("HOME");
    const std::string base = xdg && *xdg ? xdg : std::string(home ? home : ".") + "/.local/share";
    return base + "/threadmap/kernel.cu";
}

void start_editor(KernelEditor& editor, const std::string& save_path) {
    editor.save_path = save_path;
    editor.from_launch.reset();
    editor.text = first_kernel();
    editor.params = {{"a", "float *"}, {"n", "int"}};
    editor.binds = {"float[500]:zeros", "500"};
    if (save_path.empty() || !path_exists(save_path)) return;
    const auto saved = read_input_file(save_path, kMaxSourceBytes, "kernel source");
    if (saved.value) editor.text = *saved.value;
}

void run_and_save_editor(AppState& state) {
    run_editor(state);
    if (Outcome<void> saved = save_editor_text(state.editor); !saved.done()) state.message = saved.error;
}

void run_editor_after_pause(AppState& state) {
    if (state.editor.edited && std::chrono::steady_clock::now() - state.editor.last_edit > KernelEditor::kPause)
        run_and_save_editor(state);
}

void run_editor(AppState& state) {
    KernelEditor& editor = state.editor;
    editor.edited = false;
    if (editor.compile_job.valid()) {  // the newest text compiles once this one is done
        editor.compile_again = true;
        return;
    }
    editor.compile_job = std::async(
        std::launch::async, [text = editor.text, entry = editor.entry, binds = editor_binds(editor),
                             dynamic_shared = editor_dynamic_shared(editor), limits = kernel_limits(state.settings),
                             from_launch = std::exchange(editor.from_launch, std::nullopt)]() mutable {
            KernelEditor::Compiled c;
            if (from_launch) {  // the parameters come from a first compile; each is bound as the launch has it
                const SourceAttempt first = compile_and_bind(text, "kernel.cu", "", {}, 0, limits);
                c.launch_params = first.params;
                c.launch_binds.emplace();
                binds.clear();
                for (const auto& [name, type] : first.params) {
                    c.launch_binds->push_back(bind_from_launch(name, type.find('*') != std::string::npos,
                                                               from_launch->kernel, from_launch->launch));
                    if (!c.launch_binds->back().empty()) binds.push_back(name + "=" + c.launch_binds->back());
                }
            }
            c.attempt = compile_and_bind(text, "kernel.cu", entry, binds, dynamic_shared, limits);
            c.entry = entry;
            c.text = text;
            const std::vector<std::string>& kernels = c.attempt.kernels;
            const bool chosen = std::find(kernels.begin(), kernels.end(), entry) != kernels.end();
            if (c.attempt.compiled && !kernels.empty() && !chosen && (kernels.size() > 1 || !entry.empty())) {
                // Several kernels and none chosen yet (or the chosen one renamed): the first, until
                // the learner picks another.
                c.entry = kernels.front();
                c.attempt = compile_and_bind(text, "kernel.cu", c.entry, binds, dynamic_shared, limits);
            }
            return c;
        });
}

namespace {

// What a finished compile changes: the editor's messages and fields, and the map when it bound.
void apply_editor_compile(AppState& state, KernelEditor::Compiled c) {
    KernelEditor& editor = state.editor;
    SourceAttempt& a = c.attempt;
    editor.entry = c.entry;
    if (a.compiled) editor.kernels = a.kernels;
    editor.compile_ms = a.compile_ms;
    editor.error_line = a.error_line;
    editor.messages = a.loaded ? "" : a.messages;
    editor.warnings = a.warnings;
    editor.warning_lines = a.compiled ? a.warning_lines : std::vector<int>{};
    if (a.compiled) {  // the fields follow the kernel's parameters, keeping what was typed
        std::vector<std::string> names;
        for (const auto& p : editor.params) names.push_back(p.first);
        std::vector<std::string> next;
        for (const auto& p : a.params) next.push_back(param_bind(p, names, editor.binds));
        editor.params = a.params;
        editor.binds = next;
    }
    const std::optional<KernelEditor::SessionLaunch> session = std::exchange(editor.session, std::nullopt);
    if (!a.loaded) return;  // the last good map stays
    ModelKernel k;
    k.spec = a.loaded->spec;
    k.owner = a.loaded->owner;
    k.array = k.spec->mapped_array();
    if (session) {  // an opened session's launch and array, now that its text compiled
        state.edit.launch = {session->grid, session->block};
        if (const size_t array = k.spec->array_index(session->array); array < k.spec->arrays.size()) {
            k.array = array;
            k.reads = session->reads;
        }
    } else if (const auto& before = state.edit.model; before && before->spec) {
        // The map stays on the array the learner chose (by name: the window's array list,
        // --array), read or written, and its block's copy; the kernel's output when the text
        // has no such array.
        const size_t array = k.spec->array_index(before->spec->arrays[before->array].name);
        if (array < k.spec->arrays.size()) {
            k.array = array;
            k.reads = before->reads;
            k.shared_block = before->shared_block;
        }
    }
    state.edit.preset.clear();
    state.edit.lesson.clear();  // the learner's own kernel
    state.edit.model = std::move(k);
    state.edit.workload = model_workload(*state.edit.model, state.edit.launch);
    state.pending.apply = true;
    editor.running = true;
}

}  // namespace

void poll_editor_compile(AppState& state) {
    using namespace std::chrono_literals;
    KernelEditor& editor = state.editor;
    if (!editor.compile_job.valid() || editor.compile_job.wait_for(0s) != std::future_status::ready) return;
    KernelEditor::Compiled compiled = editor.compile_job.get();
    if (compiled.launch_binds) {  // the launch's bindings, which the fields then keep as typed ones
        editor.params = compiled.launch_params;
        editor.binds = *compiled.launch_binds;
    }
    // A compile of a text since replaced, with the new one waiting: its parameters would replace
    // the new text's bindings (a kernel opened while the last compiled), so only the new one counts.
    if (!(editor.compile_again && compiled.text != editor.text)) apply_editor_compile(state, std::move(compiled));
    if (std::exchange(editor.compile_again, false)) run_editor(state);
}

void open_in_editor(AppState& state, const std::string& text, const std::string& entry,
                    const std::vector<std::string>& binds, const std::string& dynamic_shared) {
    KernelEditor& editor = state.editor;
    editor.text = text;
    editor.entry = entry;
    editor.unsaved = true;
    editor.from_launch.reset();  // its own bindings, not an earlier "edit"'s launch
    editor.params.clear();
    editor.binds.clear();
    for (const std::string& b : binds) {  // run_editor sets the types from the signature
        const size_t eq = b.find('=');
        editor.params.emplace_back(b.substr(0, eq), "");
        editor.binds.push_back(eq == std::string::npos ? "" : b.substr(eq + 1));
    }
    editor.dynamic_shared = dynamic_shared.empty() ? "0" : dynamic_shared;
    state.open_view = CentreView::Editor;
    run_editor(state);
}

void edit_launch_kernel(AppState& state) {
    const ResolvedLaunch& resolved = state.edit;
    const Lesson* lesson = find_lesson(resolved.preset);
    KernelEditor& editor = state.editor;
    if (lesson && lesson->own_kernel) {  // a lesson's own kernel: its text and bindings
        const LessonKernelText& own = *lesson->own_kernel;
        open_in_editor(state, own.text, own.entry, own.binds, "0");
        return;
    }
    if (resolved.model &&
        resolved.model->owner) {  // already a learner's kernel (the editor's): its text and bindings stay
        state.open_view = CentreView::Editor;
        return;
    }
    const ModelKernel k =
        resolved.model ? *resolved.model : tutorial_model_kernel(resolved.workload, lesson && lesson->store_in_loop);
    editor.text = k.spec->cuda_source;
    editor.entry.clear();
    editor.unsaved = true;
    // Its parameters are bound as the launch has them by the compile job (a compile here, on
    // the UI thread, froze the window: 50-95 ms warm, the kernel host's start cold).
    editor.params.clear();
    editor.binds.clear();
    editor.from_launch = KernelEditor::LaunchBinding{k, resolved.launch};
    editor.dynamic_shared = "0";
    for (const ArraySpec& a : k.spec->arrays)  // an extern __shared__ array: its bytes at this launch
        if (a.space == MemorySpace::Shared &&
            k.spec->cuda_source.find("extern __shared__ float " + a.name) != std::string::npos)
            editor.dynamic_shared = std::to_string(a.shape(k.params, resolved.launch)[0] * value_bytes(a.type));
    state.open_view = CentreView::Editor;
    run_editor(state);
}

ExpectationCompile editor_expectation(const AppState& state, const std::string& expect) {
    const KernelEditor& editor = state.editor;
    return [text = editor.text, entry = editor.entry, binds = editor_binds(editor),
            dynamic_shared = editor_dynamic_shared(editor), limits = kernel_limits(state.settings), expect] {
        return expectation_launch(compile_and_bind(text, "kernel.cu", entry, binds, dynamic_shared, limits, expect));
    };
}

void start_gpu_compile(KernelEditor& editor) {
    if (editor.gpu_job.valid()) return;
    editor.gpu_text = editor.text;
    editor.gpu_job = std::async(
        std::launch::async, [text = editor.text] { return nvrtc_compile_in_host(text, "kernel.cu", "compute_90"); });
}

void poll_gpu_compile(KernelEditor& editor) {
    using namespace std::chrono_literals;
    if (editor.gpu_job.valid() && editor.gpu_job.wait_for(0s) == std::future_status::ready)
        editor.gpu = editor.gpu_job.get();
}

Outcome<void> save_editor_text(KernelEditor& editor) {
    if (!editor.unsaved || editor.save_path.empty()) return done();
    editor.unsaved = false;
    std::error_code ec;
    std::filesystem::create_directories(std::filesystem::path(editor.save_path).parent_path(), ec);
    if (auto w = write_file_atomically(editor.save_path, editor.text); !w.done())
        return failed("kernel text not saved: " + w.error);
    return done();
}

}  // namespace threadmap
