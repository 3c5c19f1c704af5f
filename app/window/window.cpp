// The window's frame loop; see window.hpp. The platform (GLFW, GL, ImGui) is a
// WindowSession, exports are in window_exports, timings for benchmarks in frame_clock.
#include "app/window/window.hpp"

#include <imgui.h>

#include <malloc.h>

#include <csignal>
#include <ctime>
#include <cstdio>
#include <memory>

#include "app/launch/backend_choice.hpp"
#include "viz/draw/cell_grid_renderer.hpp"
#include "viz/draw/cuda_interop.hpp"
#include "viz/draw/frame.hpp"
#include "viz/draw/gl.hpp"
#include "app/window/frame_clock.hpp"
#include "kernels/source/kernel_host_client.hpp"
#include "app/window_state/launch_update.hpp"
#include "app/window/main_layout.hpp"
#include "app/window/replay.hpp"
#include "app/launch/input_file.hpp"
#include "app/window_state/settings.hpp"
#include "viz/draw/ui_font.hpp"
#include "app/window_state/session_actions.hpp"
#include "app/window/window_exports.hpp"
#include "app/window/window_session.hpp"

namespace threadmap {

namespace {

// "no CUDA device: cudaGetDeviceCount failed with error 35 (cudaErrorInsufficientDriver: …)"
// → "no usable NVIDIA GPU; threadmap devices says why": on a laptop without one this is the normal
// case, not an error, so the status bar says so in a learner's words and names where the
// CUDA runtime's own reason is.
std::string short_reason(const std::string& reason) {
    if (reason.find("cudaError") == std::string::npos) return reason;
    return "no usable NVIDIA GPU; threadmap devices says why";
}

// The script the window follows, if any: --replay, or --screenshot/--quit-after-frames.
Outcome<std::optional<Replay>> scripted_input(const WindowOptions& o) {
    if (!o.replay.empty()) {  // --quit-after-frames and --screenshot end a script that does not quit
        auto replay = Replay::load(o.replay);
        if (!replay.value) return failure_of(replay);
        replay.value->end_after(o.quit_after_frames > 0 ? o.quit_after_frames : Replay::kDefaultEndFrames,
                                o.screenshot);
        return {std::move(replay.value), {}};
    }
    if (!o.screenshot.empty())
        return {Replay::screenshot_then_quit(o.screenshot, std::max(o.quit_after_frames, 1)), {}};
    if (o.quit_after_frames > 0) return {Replay::quit_after(o.quit_after_frames), {}};
    return {std::optional<Replay>(), {}};
}

void choose_backend_once(AppState& state, const std::string& requested) {
    if (const BackendResult b = choose_backend(requested); b.value) {
        state.backend = b.value;
        state.backend_line = b.value->cuda ? "Backend: " + b.value->name
                                           : "Backend: CPU emulator (" + short_reason(b.value->reason) + ")";
    } else {
        state.backend = cpu_backend(b.error);
        state.backend_line = "Backend: CPU emulator (" + b.error + ")";
    }
}

volatile std::sig_atomic_t g_quit_signal = 0;
volatile std::sig_atomic_t g_first_signal_s = 0;  // CLOCK_MONOTONIC seconds of the first

// SIGTERM (a session logging out, `timeout`), SIGINT (Ctrl+C in the terminal) and SIGHUP end
// the window as its close button does: settings saved, the frame report written. A signal
// again more than a second later ends a process that is stuck; one sooner is the same
// request (GNU timeout sends SIGTERM twice at once: to the process and to its group — the
// handler once reset itself on the first, and the second killed the window mid-quit).
void on_quit_signal(int signal) {
    timespec now{};
    clock_gettime(CLOCK_MONOTONIC, &now);  // async-signal-safe, as are signal and raise
    if (!g_quit_signal) {
        g_quit_signal = 1;
        g_first_signal_s = std::sig_atomic_t(now.tv_sec);
    } else if (now.tv_sec - g_first_signal_s > 1) {
        std::signal(signal, SIG_DFL);
        std::raise(signal);
    }
}

void quit_on_signals() {
    struct sigaction action = {};
    action.sa_handler = on_quit_signal;
    sigemptyset(&action.sa_mask);
    for (int signal : {SIGTERM, SIGINT, SIGHUP}) sigaction(signal, &action, nullptr);
}

// After a map, an export or a timing run is done, the memory its buffers took goes back to
// the system when it is much: glibc keeps freed memory in its arenas (worker threads have their
// own), and after a launch at the caps that is hundreds of MB the learner's laptop would not get
// back. A few MB stay for the next map: handed back after every map, they were faulted in again
// by the next (transpose-bank-conflicts: ~1,000 page faults a blockDim change, 2026-12-07).
void return_freed_memory() {
#if defined(__GLIBC__)
    constexpr size_t kKeptFreeBytes = size_t(64) << 20;
    if (mallinfo2().fordblks > kKeptFreeBytes) malloc_trim(0);
#endif
}

// The state a window opens on: the settings (none kept for tests and benchmarks), the command
// line's figure options over them (a prepared demo), the lesson or kernel to show, the editor's
// text. True on a first start (no settings file yet).
bool open_state(AppState& state, const WindowOptions& o) {
    const bool first_start = o.keep_settings || !path_exists(config_dir() + "/settings.json");
    if (!o.keep_settings) {
        LoadedSettings loaded = load_settings();
        state.settings = loaded.settings;
        state.message = loaded.note;
    }
    if (o.theme) state.settings.theme = *o.theme;
    if (o.presentation) state.settings.presentation = true;
    start_editor(state.editor, o.keep_settings ? "" : editor_file_path());
    if (o.launch) {
        if (!o.launch->preset.empty()) select_lesson(state, o.launch->preset);  // its Timing setup too
        state.edit = *o.launch;  // with the command line's changes to the lesson
        if (o.source) open_in_editor(state, o.source_text, o.source->entry, o.source->binds, o.source->dynamic_shared);
    } else {
        select_lesson(state, state.settings.last_preset);
    }
    if (o.color) state.settings.color_mode = *o.color;               // over the lesson's view
    if (!o.tab.empty()) state.open_view = centre_view_named(o.tab);  // checked when the session was read
    return first_start;
}

// The UI scale follows the window to a monitor of another density; the fonts are rebuilt
// whenever the scale changed.
void follow_content_scale(AppState& state, WindowSession& window, float now_scale, float& content_scale) {
    if (now_scale != content_scale) {
        state.settings.ui_scale = std::clamp(state.settings.ui_scale * now_scale / content_scale, Settings::kMinUiScale,
                                             Settings::kMaxUiScale);
        content_scale = now_scale;
        state.requests.rescale = true;
    }
    if (state.requests.rescale) {
        window.rebuild_fonts(kBaseFontPx * state.settings.ui_scale, state.settings.ui_scale, state.theme().light);
        state.requests.rescale = false;
    }
}

// What one frame shows: the UI over the map, with the replay's input (a failed replay step
// ends the window with exit code 2).
void draw_frame(AppState& state, WindowSession& window, const FramebufferSize& size, MapFrame& frame,
                std::optional<Replay>& replay, int& exit_code) {
    window.begin_imgui_frame();
    if (replay) replay->inject(state);
    ImGui::NewFrame();
    handle_shortcuts(state);
    draw_main_layout(state, frame);
    ImGui::Render();

    frame.framebuffer_scale = size.scale;
    frame.framebuffer_height = size.height;
    begin_window_frame(size.width, size.height, state.theme().window);
    window.render_imgui();
    if (const Outcome<void> gl = take_gl_failure(); !gl.done()) {  // a GL that fails cannot show the truth
        std::fprintf(stderr, "threadmap: the window cannot draw: %s\n", gl.error.c_str());
        exit_code = 1;
        state.requests.quit = true;
        return;
    }
    if (!replay) return;
    const Outcome<void> stepped = replay->after_render(state, size.width, size.height);
    if (!stepped.done()) {
        std::fprintf(stderr, "threadmap: %s\n", stepped.error.c_str());
        exit_code = 2;
        state.requests.quit = true;
    }
}

// The picture brought up to date (a change applied, a worker's map collected) and its colours
// put in the GL buffer the shader reads.
void update_and_paint(AppState& state, CellGridRenderer& renderer, CudaGlPainter& painter, uint32_t max_side,
                      uint64_t max_cells) {
    update_picture(state, max_side, max_cells);
    // The first map, computed on a worker, gets its colour buffer now: at the window's start,
    // in its first frame (long anyway), not 35 ms more in the frame it lands in. Only while
    // no map is shown (growing the buffer drops what it holds), and not with a GPU, whose
    // interop registers the buffer: GL must not reallocate it under CUDA.
    if (state.picture_job && !state.picture && !(state.backend && state.backend->cuda))
        renderer.reserve_cells(element_count(state.picture_job->launch.workload));
    if (state.pending.upload) {
        state.paint_line = paint_picture(*state.picture, renderer, painter);
        state.pending.upload = false;
    }
}

// What the frame's panels and input asked for: files dropped or opened, sessions, exports, a
// new window size.
void handle_frame_requests(AppState& state, WindowSession& window, const CellGridRenderer& renderer, MapFrame& frame,
                           const FramebufferSize& size) {
    for (std::string& path : window.take_dropped_files()) state.requests.open_files.push_back(std::move(path));
    handle_session_requests(state);
    handle_export_requests(state, renderer, frame, size, window);
    if (state.requests.resize) {
        window.set_size(state.requests.resize->first, state.requests.resize->second);
        state.requests.resize.reset();
    }
}

// An idle window draws a frame when input comes, else every kSeconds (a text field's caret
// blinks): with a software GL, as on a laptop without a GPU driver, a frame costs a core for
// 10-15 ms, and 60 of them a second would keep a core busy showing nothing new. A few frames
// go on after each input first, as ImGui settles some widgets a frame or two after the input
// that changed them (a popup opening, a window fitting its contents).
class IdleFrames {
  public:
    static constexpr double kSeconds = 0.25;
    // After a frame: whether the loop may wait for input before the next.
    bool may_wait(uint64_t input_events, bool working) {
        if (working || input_events != seen_) {
            seen_ = input_events;
            quiet_ = 0;
            return false;
        }
        return ++quiet_ > kSettleFrames;
    }

  private:
    static constexpr int kSettleFrames = 3;
    uint64_t seen_ = 0;
    int quiet_ = 0;
};

// Whether the window has work that wants frames: a computation to collect or a kernel text to
// compile once the typing pauses (busy), a script to step through (every script ends by
// quitting), a mouse button held (a held − or + button repeats with no new input).
bool working(const AppState& state, const std::optional<Replay>& replay) {
    return state.busy() || replay || ImGui::IsAnyMouseDown();
}

// The frame loop, until the window closes, the learner quits or a signal asks to: the
// picture updated, the frame drawn, requests handled. Returns the window's exit code.
int run_frames(AppState& state, WindowSession& window, const WindowOptions& o, std::optional<Replay>& replay,
               bool first_start) {
    float content_scale = window.content_scale();
    if (first_start && content_scale != 1)
        state.settings.ui_scale = std::clamp(content_scale, Settings::kMinUiScale, Settings::kMaxUiScale);
    const auto renderer = std::make_unique<CellGridRenderer>();
    CudaGlPainter painter;  // declared after the renderer: unregisters its buffer first
    const uint32_t max_side = uint32_t(CellGridRenderer::max_texture_side());
    const uint64_t max_cells = CellGridRenderer::max_cells();
    choose_backend_once(state, o.backend);
    MapFrame frame;
    frame.renderer = renderer.get();
    state.wake_ui = &WindowSession::wake;
    FrameClock clock;
    int exit_code = 0;
    quit_on_signals();
    bool was_busy = false;
    IdleFrames idle;
    while (!window.should_close() && !state.requests.quit && !g_quit_signal) {
        const auto size = window.poll();
        if (!size) continue;  // minimised
        clock.frame_begins();
        follow_content_scale(state, window, size->content_scale, content_scale);
        clock.before_update(state);
        const bool updating = state.pending.any_update();
        update_and_paint(state, *renderer, painter, max_side, max_cells);
        clock.after_update(state, updating);
        draw_frame(state, window, *size, frame, replay, exit_code);
        handle_frame_requests(state, window, *renderer, frame, *size);
        window.swap();
        if (!o.frame_report.empty()) finish_gpu_work();
        clock.frame_shown(state);
        if (was_busy && !state.busy()) return_freed_memory();
        was_busy = state.busy();
        // While a map computes, frames come at most 20 a second (sooner on input, and at once
        // when the map is ready: the job wakes the loop): the computation gets the cores the
        // frames would take (with a software GL, as on a machine without a GPU driver, a frame
        // costs a core for 15 ms: the tiled-matmul lesson's change took 132 ms at 60 a second).
        if (state.picture_job)
            window.wait_events_until_next_frame(1.0 / 20);
        else if (idle.may_wait(window.input_events(), working(state, replay)))
            window.wait_for_input(IdleFrames::kSeconds);
    }
    if (!o.frame_report.empty()) {
        const auto written = clock.write_report(o.frame_report, state);
        if (!written.done()) std::fprintf(stderr, "threadmap: %s\n", written.error.c_str());
    }
    return exit_code;
}

}  // namespace

int run_window(const WindowOptions& o) {
    auto script = scripted_input(o);
    if (!script.value) {
        std::fprintf(stderr, "threadmap: %s\n", script.error.c_str());
        return 2;
    }
    AppState state;
    const bool first_start = open_state(state, o);
    const std::string ini = config_dir() + "/imgui.ini";
    auto session = WindowSession::open(o.width, o.height, o.frame_report.empty(),  // benchmarks time frames, not vsync
                                       o.keep_settings ? nullptr : ini.c_str());
    if (!session.value) {
        std::fprintf(stderr, "threadmap: %s\n", session.error.c_str());
        return 1;
    }
    const int exit_code = run_frames(state, **session.value, o, *script.value, first_start);
    // A compile, a GPU compile or a run in flight in the kernel host ends now: the jobs waiting
    // on it return at once, so the window closes without waiting for their limits.
    stop_kernel_host();
    if (!o.keep_settings) {
        const auto saved = save_settings(state.settings);
        if (!saved.done()) std::fprintf(stderr, "threadmap: %s\n", saved.error.c_str());
        const auto unsaved = save_editor_text(state.editor);
        if (!unsaved.done()) std::fprintf(stderr, "threadmap: %s\n", unsaved.error.c_str());
    }
    return exit_code;
}

}  // namespace threadmap
