// The window's state: plain structs with defaults, passed by reference to each panel.
// Nothing here draws; panels read and change it, window.cpp turns changes into maps.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <vector>
#include <optional>
#include <string>

#include <glm/glm.hpp>

#include "app/launch/backend_choice.hpp"
#include "app/window_state/kernel_editor.hpp"
#include "app/window_state/launch_sweep_job.hpp"
#include "app/window_state/touchers_job.hpp"
#include "app/window_state/map_picture.hpp"
#include "app/window_state/picture_cache.hpp"
#include "app/launch/centre_view.hpp"
#include "viz/color/theme.hpp"
#include "app/window_state/timing_state.hpp"
#include "viz/layout/view_transform.hpp"
#include "kernels/core/outcome.hpp"

namespace threadmap {

// Work on the picture, done by update_picture at the start of the next frame.
struct PictureWork {
    bool apply = true;      // the launch changed: check it and rebuild the map
    bool recolor = false;   // colour mode or palette changed
    bool relayout = false;  // blocks per row changed: the same map in new rows
    bool upload = false;    // new colours for the GL buffer
    bool any_update() const { return apply || recolor || relayout; }
};

// Requests a panel or shortcut makes for the window to act on once.
struct FrameRequests {
    bool fit = true;             // fit the view to the map
    bool export_map = false;     // Ctrl+S
    bool export_window = false;  // Ctrl+Shift+S
    bool rescale = true;         // rebuild fonts and sizes (UI scale changed)
    bool quit = false;
    bool focus_go_to = false;                   // Ctrl+G: the inspector's "go to element" field takes the keyboard
    std::string run_timing_for;                 // a timing lesson's run, once the map of its launch is there: its name
    std::optional<std::pair<int, int>> resize;  // a replay's `resize`: the window's new size
    bool save_session = false;                  // the Display panel's Save session
    bool show_current_lesson = false;           // the Lessons tab opened: scroll its list to the open lesson
    std::vector<std::string> open_files;        // dropped on the window (or a replay's `drop`)
};

// Saved in $XDG_CONFIG_HOME/threadmap/settings.json (see settings.hpp).
struct Settings {
    float ui_scale = 1.0f;  // Ctrl + / Ctrl − and the slider; 1 = 17 px text
    static constexpr float kMinUiScale = 0.5f, kMaxUiScale = 3.0f;
    bool colorblind_palette = false;   // Okabe-Ito instead of Tableau 10
    std::string color_mode = "block";  // a colour mode name
    int export_scale = 1;              // 1, 2 or 4
    std::string export_dir = ".";      // where exports go
    float left_width = 300;            // controls and lessons column, pixels at scale 1
    float right_width = 320;           // inspector, stats and code column
    // Presentation mode (F11, --presentation): no side columns, a launch bar above the picture.
    bool presentation = false;
    bool lesson_card_open = true;  // the lesson card above the map shows what to look for
    std::string theme = "dark";    // dark | light (--theme)
    std::string last_preset = "seed-increment";
    // Seconds a run of a learner's kernel may take before it is stopped (the editor's field,
    // `--time-limit` on the command line).
    double kernel_seconds = 5.0;
    static constexpr double kMinKernelSeconds = 0.1, kMaxKernelSeconds = 3600;
    // MiB a run of a learner's kernel may take before it is stopped (`--memory-limit`).
    double kernel_memory_mb = 2048;
    static constexpr double kMinKernelMemoryMb = 64, kMaxKernelMemoryMb = 65536;
};

// A map being computed off the UI thread (emulating a launch at the caps takes seconds);
// the last map stays on screen meanwhile, and a new change cancels it.
struct PictureJob {
    std::future<PictureResult> result;
    std::shared_ptr<std::atomic<bool>> cancel;
    // Set by the job as it returns its map: the result is then at most a return away.
    std::shared_ptr<std::atomic<bool>> done;
    ResolvedLaunch launch;  // what it computes
    std::chrono::steady_clock::time_point started;
    PictureOptions options;  // the layout and colours it makes
};

struct AppState {
    Settings settings;
    ResolvedLaunch edit;  // what the controls show, valid or not
    // The lesson the learner is in: the last one opened, kept while they change its launch (its
    // "Look for" asks them to: "Change blockDim to 2, 1, 1") or edit its kernel, so that its card
    // and the Lessons tab stay on it; empty once another kernel is picked. `edit.preset` is the
    // lesson only while the launch is the lesson's own.
    std::string lesson;
    std::string launch_error;               // why `edit` cannot run; the last valid map stays on screen
    std::optional<MapPicture> picture;      // the last valid map
    PictureWork pending;                    // what the next update_picture does
    std::optional<PictureJob> picture_job;  // the map being computed, if any
    // Called from the picture job's thread as it ends, with its map or a failure or cancellation
    // (the window wakes its frame loop, which waits between frames while a map computes);
    // empty: nothing to wake.
    std::function<void()> wake_ui;
    std::vector<std::future<PictureResult>> retiring;  // cancelled jobs finishing their current block
    std::optional<MapPicture> spare;                   // a replaced map whose buffers the next job refills
    // Until a large map is replaced, buffers of its size being faulted in on a worker
    // (spare_buffers): the next job refills them.
    std::future<PictureResult> warming_spare;
    PictureOptions picture_options;  // what `picture` was built with (its build, not its colours)
    PictureCache kept_pictures;      // replaced maps, shown again when their launch comes back
    // How the map on screen last changed, for the status bar: computed for its launch, kept from
    // before and shown again (kept_pictures), or only laid out or coloured anew (a UI scale, a
    // colour mode), which is no new map.
    enum class MapChange : uint8_t { Computed, Kept, Redrawn };
    MapChange last_map_change = MapChange::Computed;
    FrameRequests requests;           // one-frame requests from panels and shortcuts
    RowWidth row_width;               // 1D rows: whole blocks, or a wrapped block's warps
    bool auto_blocks_per_row = true;  // 1D rows follow the view's shape until the learner sets them

    View view;
    bool view_is_fit = false;                // untouched since the last fit: follows the panel's size
    std::optional<glm::ivec2> hovered_cell;  // (column, row) of the map under the mouse
    std::optional<glm::ivec2> pinned_cell;   // clicked; shown until clicked again
    int editor_hovered_line = 0;  // the Editor's source line under the mouse (0: none): the map outlines its findings
    // A finding clicked on an array the map does not show (a __shared__ tile, an input): the
    // controls switch to that array, and its element is pinned when that map arrives.
    struct FindingTarget {
        size_t array;      // of the kernel's spec
        Dim3 block;        // a __shared__ array: the block whose copy
        uint64_t element;  // row-major in the array's shape
    };
    std::optional<FindingTarget> finding_target;
    // A lesson's element to pin once its map is there (its view's "pin": [i] or [row, column]).
    struct LessonPin {
        std::string lesson;
        std::vector<uint64_t> index;
    };
    std::optional<LessonPin> lesson_pin;

    std::optional<BackendChoice> backend;  // where launches run (none: the emulator)
    std::string backend_line;              // status bar: the backend in use and why
    std::string paint_line;                // status bar: where colours are painted (GPU interop or host) and why
    std::string message;                   // status bar: the last export or settings message
    double last_update_ms = 0;             // time from a launch change to its new colours
    double last_redraw_ms = 0;             // of the last recolour or relayout (MapChange::Redrawn)
    // Per kernel, with its memory view or without: what its last picture took per thread-step
    // (ms), which says whether the next one is computed within a frame (launch_update.cpp).
    std::map<std::string, double> picture_cost;

    TimingState timing;                       // the timing panel: runs, recordings, the sweep
    KernelEditor editor;                      // the learner's own kernel (the Editor tab)
    LaunchSweepJob launch_sweep;              // "Where does it break?" (the Findings tab)
    TouchersJob touchers;                     // the inspector's threads that touched the pinned element
    std::optional<CentreView> open_view;      // select this tab of the centre once (a lesson chose it)
    CentreView shown_view = CentreView::Map;  // the centre tab drawn last (a saved session's)
    // The right column's open tab (main_layout.cpp's info_tabs).
    enum class InfoTab { Stats, Findings, Code, Lessons } info_tab = InfoTab::Stats;
    // The warp inspector stepped (arrow keys) from the request of `cell` to request `request`
    // of the picture's memory (another of the same warp).
    struct WarpStep {
        glm::ivec2 cell;
        uint32_t request;
    };
    std::optional<WarpStep> warp_step;
    // The Memory table's clicked line: the elements of the map that its kept requests touch
    // (at most kMaxElements), outlined on the picture `picture` (MapPicture::serial).
    struct MemoryLine {
        static constexpr size_t kMaxElements = size_t(1) << 16;
        int line = 0;
        uint64_t picture = 0;
        std::vector<uint64_t> elements;
    };
    std::optional<MemoryLine> memory_line;
    bool memory_view_open = false;  // the Memory tab was drawn last frame: maps come with their memory view

    // PNG exports being encoded and written off the UI thread (window_exports).
    struct ExportJob {
        std::string path;
        std::string note;  // e.g. why the scale is smaller than asked
        std::future<Outcome<void>> written;
    };
    std::vector<ExportJob> exports;

    // Where the map was drawn this frame (window pixels), for input and exports.
    ViewRect map_rect;
    ViewRect legend_rect;  // the legend's column beside the map
    // The lesson's "Look for" was drawn in the map's margin last frame (either layout), so the
    // lesson card leaves it out.
    bool look_for_in_margin = false;
    // Where the comparison picture (MapPicture::compare) was drawn this frame and its fitted
    // view; its rectangle is empty when none was.
    ViewRect compare_rect;
    View compare_view;
    std::vector<ViewRect> labels_over_cells;  // the map's labels drawn over its cells (names, blocks, indices)
    std::string go_to_text, go_to_error;      // the inspector's "go to element" field and why it failed
    Margins fit_margins;                      // pixels the fitted picture leaves for its names and rulers
    // Screen rectangles of named widgets this frame, so scripted input can find them.
    std::map<std::string, ViewRect> widget_rects;

    ColorMode color_mode() const;
    // The GPU blocks are placed on (SM and wave colours, the Occupancy tab): the Timing tab's
    // device profile, one choice for the window.
    std::optional<OccupancyGpu> occupancy_gpu() const;
    Palette palette() const { return settings.colorblind_palette ? Palette::ColorBlindSafe : Palette::Standard; }
    const Theme& theme() const { return theme_of(parse_theme(settings.theme).value_or(ThemeName::Dark)); }
    std::optional<glm::ivec2> inspected_cell() const { return pinned_cell ? pinned_cell : hovered_cell; }
    // Work that will change what is on screen without input: a map to build, a timing run, a
    // sweep, an export or the lesson's figures in flight, the Editor's text to compile once the
    // typing pauses.
    bool busy() const {
        return pending.any_update() || pending.upload || picture_job.has_value() || timing.run.valid() ||
               timing.sweep_job.valid() || launch_sweep.running() || touchers.running() || editor.gpu_job.valid() ||
               editor.edited || editor.compile_job.valid() || !exports.empty() || lesson_figures_pending();
    }
    // A lesson's figures computed beside the window, by lesson (lesson_text_now starts them;
    // the state's end waits for them, before the process's statics go).
    mutable std::map<std::string, std::future<void>> lesson_figure_jobs;
    bool lesson_figures_pending() const;  // the open lesson's card still says "…"
};

// A lesson's text as the window shows it now: its figures filled in, or "…" while a job beside
// the window computes them (a heavy lesson's take up to 0.7 s: the frame does not wait).
struct Lesson;
std::string lesson_text_now(const AppState& state, const Lesson& lesson, const std::string& text);

// Loads a lesson into the controls (the map follows on the next frame), opening on its view.
void select_lesson(AppState& state, const std::string& name);
// A lesson's view (on opening it, and the lesson card's "Show me"): the array it maps, its
// colour mode, tab, pinned element and, for a timing lesson, a run.
void show_lesson_view(AppState& state, const Lesson& lesson);

// Whether the map is of the target's array (of its block, for a __shared__ one).
bool shows(const MapPicture& picture, const AppState::FindingTarget& target);

// Whether the map shows the Editor's kernel (its findings' lines are the Editor's lines).
bool map_shows_editor_kernel(const AppState& state);

// Pins the map's cell of `element` (of the mapped array) and centres the view on it, zoomed in.
void pin_element(AppState& state, uint64_t element);

}  // namespace threadmap
