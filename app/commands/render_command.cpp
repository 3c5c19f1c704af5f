// `threadmap render`; see render_command.hpp.
#include "app/commands/render_command.hpp"

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "app/launch/backend_choice.hpp"
#include "viz/draw/cuda_interop.hpp"
#include "app/launch/device_profiles.hpp"
#include "app/launch/lessons.hpp"
#include "viz/draw/figure.hpp"
#include "app/reports/findings_report.hpp"
#include "app/launch/session_file.hpp"
#include "app/reports/timing_report.hpp"
#include "app/window_state/timing_state.hpp"
#include "viz/draw/image_export.hpp"
#include "app/window_state/map_picture.hpp"
#include "app/launch/model_launch.hpp"
#include "viz/draw/offscreen_context.hpp"
#include "viz/draw/overlay.hpp"

namespace threadmap {

namespace {

constexpr int kMaxRenderSide = 8192;  // 8192×8192 RGBA is 256 MB: enough for any slide

// Says why on stderr and gives the exit code.
int fail(const std::string& why, int code) {
    std::fprintf(stderr, "threadmap render: %s\n", why.c_str());
    return code;
}

// The figure drawn into the bound target, written to `out` — unless GL failed on the way
// (a figure GL could not draw is not written).
int write_figure(int width, int height, const std::string& out) {
    if (const Outcome<void> gl = take_gl_failure(); !gl.done()) return fail(gl.error, 1);
    const auto written = write_png(read_framebuffer(width, height), out);
    return written.done() ? 0 : fail(written.error, 1);  // output that cannot be written
}

// The Timing panel's size sweep, run here to the end; none (and why, on stderr) for a kernel
// that has none with these clocks.
std::optional<SweepResult> panel_sweep(const ResolvedLaunch& resolved, const BackendChoice& backend,
                                       const DeviceProfile* model, const LessonRun& base) {
    TimingState t;
    t.source = model ? TimingSource::Modeled : TimingSource::Measured;
    t.pinned = base.pinned;
    t.program = base.program;
    for (size_t i = 0; model && i < device_profiles().size(); ++i)
        if (&device_profiles()[i] == model) t.profile = int(i);
    if (!start_sweep(t, resolved, backend)) {
        std::fprintf(stderr, "threadmap render: the figure has no size sweep. %s\n", t.message.c_str());
        return std::nullopt;
    }
    return t.sweep_job.get();
}

// Why the launch cannot be drawn, naming the session file it came from, if any (its launch's
// fields are the command line's options: "--n expects a whole number" is its launch.n).
std::string launch_problem(const RenderCommandOptions& o, const std::string& error) {
    return o.session.empty() ? error : o.session + ": its launch: " + error;
}

// `render --timing`: a run (measured, modeled or recorded) and, unless recorded, a sweep.
int render_timing(const RenderCommandOptions& o, int width, int height) {
    // A lesson's program and Timing setup, as the window and `bench` use them.
    const LessonRun base = lesson_run(find_lesson(o.launch.preset));
    const auto timing = timing_backend(o.launch.backend, o.device_profile, base.profile);
    if (!timing.value) return fail(timing.error, 2);
    const DeviceProfile* model = timing.value->model;
    LaunchOptions launch = o.launch;
    launch.backend = timing.value->backend;
    const PrepareResult prepared = prepare_launch(launch);
    if (!prepared.value) return fail(launch_problem(o, prepared.error), 2);
    const ResolvedLaunch& resolved = prepared.value->launch;
    Outcome<TimingReport> report;
    std::optional<SweepResult> sweep;
    if (!o.recording.empty()) {
        const TimingReport key = launch_key(resolved);
        report = load_recording(o.recording, &key);
        if (!report.value) return fail(report.error, 2);
    } else {
        const TimingRequest request{
            resolved, prepared.value->backend, model, base.pinned, base.resident, base.repeats, base.program};
        if (const Outcome<void> why = why_not_timed(request); !why.done()) return fail(why.error, 2);
        report = measure_timing(request);
        if (!report.value) return fail(report.error, 1);
        sweep = panel_sweep(resolved, prepared.value->backend, model, base);
    }
    double axis = 0;
    const TimingReport& t = *report.value;
    const std::vector<TimingBar> bars = timing_bars(t, base.resident, base.first_launch, axis);
    const std::vector<std::string> caption = {
        t.kernel + " " + nlohmann::json(t.shape).dump() + " · gridDim " + to_string(resolved.launch.grid) +
            " · blockDim " + to_string(resolved.launch.block),
        t.is_recording() ? "recorded on " + t.recorded_from : t.device + " · " + t.date};
    const auto context = OffscreenContext::open();
    if (!context.value) return fail(context.error, 1);
    const float font_px = std::max(12.0f, float(std::min(width, height)) / 48);
    HeadlessImGui imgui(width, height, font_px);
    RenderTarget target(width, height);
    target.bind();
    draw_timing_figure(width, height, font_px, caption, bars, axis, sweep ? &*sweep : nullptr,
                       theme_of(parse_theme(o.theme).value_or(ThemeName::Light)));
    return write_figure(width, height, o.out);
}

// The caption's second line: who touched the mapped array, and what the model found.
std::string stats_caption(const MapPicture& picture) {
    const auto& s = picture.result.stats;
    if (picture.launch.model)  // the kernel model's map of one array, and its findings
        return std::string(picture.launch.model->reads ? "who read" : "who wrote") + " each element; " +
               std::to_string(s.threads_launched) + " threads launched, " + std::to_string(s.threads_active) +
               (picture.launch.model->reads ? " read it" : " wrote to it") +
               (picture.launch.model->shared() ? " (in that block); " : "; ") + std::to_string(s.elements_untouched) +
               " elements untouched, " + std::to_string(s.elements_multi) +
               " touched by more than one thread; findings: " + findings_summary(picture.findings.counts) +
               " (kernel model)";
    else
        return std::to_string(s.threads_launched) + " threads launched, " + std::to_string(s.threads_active) +
               " active, " + std::to_string(s.threads_idle) + " idle; " + std::to_string(s.elements_untouched) +
               " elements untouched, " + std::to_string(s.elements_multi) + " written by more than one thread";
}

// The picture as the figure wants it: its colours, rows for the figure's map area, the GPU's
// limits, and a lesson's comparison (drawn at the right).
PictureOptions figure_options(const RenderCommandOptions& o, const ResolvedLaunch& launch, const BackendChoice& b,
                              ColorMode mode, const std::optional<OccupancyGpu>& gpu, std::optional<uint64_t> per_row,
                              const ViewRect& area) {
    PictureOptions po;
    po.check_findings = mode == ColorMode::Findings;  // a figure has no Findings tab
    po.findings_any_size = true;                      // and nobody waits on a frame
    po.mode = mode;
    po.palette = o.palette == "colorblind" ? Palette::ColorBlindSafe : Palette::Standard;
    po.rows = per_row ? RowWidth{uint32_t(*per_row), 0}
                      : row_width_for_aspect(launch.workload, launch.launch, area.w / area.h);
    po.max_side = uint32_t(CellGridRenderer::max_texture_side());
    po.max_cells = CellGridRenderer::max_cells();
    po.backend = b;
    po.gpu = gpu;
    po.compare = lesson_comparison(launch);
    return po;
}

// The map figure: the picture built as the window builds it, drawn with its legend and caption.
// The figure's frame: its size, font, theme and legend; the caption's two lines set the map's area.
FigureSpec figure_frame(const RenderCommandOptions& o, PixelSize size, float font_px) {
    FigureSpec spec;
    spec.caption = "launch\nstatistics";
    spec.show_legend = !o.no_legend;
    spec.theme = parse_theme(o.theme).value_or(ThemeName::Light);
    spec.width = size.width;
    spec.height = size.height;
    spec.font_px = font_px;
    return spec;
}

// What the figure shows of the picture: its cells, legend, array and the caption's lines.
void describe_picture(FigureSpec& spec, const MapPicture& picture, ColorMode mode) {
    spec.layout = &picture.layout;
    spec.legend = picture_legend(picture);
    spec.array = picture.launch.array_caption();
    spec.caption =
        launch_caption(picture.launch.kernel_name(), picture.launch.array_caption(), picture.layout, mode) + "\n";
    spec.caption += stats_caption(picture);
    if (picture.compare) spec.caption += "\nRight: " + picture_sentence(*picture.compare, "the same launch and view");
}

int render_map(const RenderCommandOptions& o, const PreparedLaunch& prepared, ColorMode mode,
               const std::optional<OccupancyGpu>& gpu, std::optional<uint64_t> per_row, PixelSize size) {
    const int width = size.width, height = size.height;
    const bool placed = mode == ColorMode::Sm || mode == ColorMode::Wave;
    const BackendChoice& b = prepared.backend;
    // CUDA interop needs GL on the GPU that made the map
    const auto context = OffscreenContext::open(b.cuda ? std::optional<int>(b.device) : std::nullopt);
    if (!context.value) return fail(context.error, 1);
    const float font_px = std::max(12.0f, float(std::min(width, height)) / 48);
    FigureSpec spec = figure_frame(o, size, font_px);
    ResolvedLaunch launch = prepared.launch;
    if (const Outcome<void> problem = open_on_lesson_view(launch, o.launch); !problem.done())
        return fail(problem.error, 2);
    spec.compare = lesson_comparison(launch).any();  // the map gets half the area
    const ViewRect area = figure_map_area(spec);
    const PictureOptions po = figure_options(o, launch, prepared.backend, mode, gpu, per_row, area);
    auto built = build_picture(launch, po);
    if (!built.value) return fail(built.error, 2);
    MapPicture& picture = *built.value;
    if (picture.launch.model)
        if (const Outcome<void> missing = missing_phase(picture.launch.model->phase, picture.phases); !missing.done())
            return fail(missing.error, 2);
    if (placed && !picture.occupancy_error.empty()) return fail(picture.occupancy_error, 2);

    HeadlessImGui imgui(width, height, font_px);
    CellGridRenderer renderer;
    CudaGlPainter painter;  // after the renderer: unregisters its buffer first
    // How the colours were made, for a GPU map: interop, or the host and why.
    const std::string painted = paint_picture(picture, renderer, painter);
    if (!painted.empty()) std::fprintf(stderr, "threadmap render: %s\n", painted.c_str());
    spec.cell_color = cell_colors(picture);
    CellGridRenderer compare_renderer;
    spec.compare = picture.compare != nullptr;
    if (picture.compare) {
        paint_picture(*picture.compare, compare_renderer, painter);
        spec.compare_cell_color = cell_colors(*picture.compare);
        spec.compare_layout = &picture.compare->layout;
        spec.compare_renderer = &compare_renderer;
        spec.compare_array = picture.compare->launch.array_caption();
    }
    RenderTarget target(width, height);
    target.bind();
    describe_picture(spec, picture, mode);
    draw_figure(renderer, spec);
    return write_figure(width, height, o.out);
}

}  // namespace

int run_render_command(RenderCommandOptions o) {
    if (!o.session.empty()) {  // the launch and colour a window saved: its map (--timing: its timings)
        const auto session = read_session(o.session);
        if (!session.value) return fail(session.error, 2);
        if (const auto taken = take_session_launch(o.launch, *session.value, o.session); !taken.done())
            return fail(taken.error, 2);
        if (o.color.empty()) o.color = session.value->color;
    }
    // A lesson opens on its view: its colour mode and mapped array, unless the options say otherwise.
    const Lesson* lesson = o.launch.preset.empty() ? nullptr : find_lesson(o.launch.preset);
    const std::string color = !o.color.empty()                        ? o.color
                              : lesson && !lesson->view.color.empty() ? lesson->view.color
                                                                      : "block";
    const auto mode = parse_color_mode(color);
    if (!mode) return fail("unknown colour mode '" + color + "'; choose " + color_mode_names(), 2);
    const auto size = parse_size(o.size, "--size", 64, 64, kMaxRenderSide);
    if (!size.value) return fail(size.error, 2);
    const int width = size.value->width, height = size.value->height;
    std::optional<uint64_t> per_row;  // empty: auto
    if (o.blocks_per_row != "auto") {
        const auto parsed = parse_count(o.blocks_per_row, "--blocks-per-row");
        if (!parsed.value) return fail(parsed.error, 2);
        per_row = parsed.value;
        if (*per_row < 1 || *per_row > 4096) return fail("--blocks-per-row must be auto or between 1 and 4096", 2);
    }
    if (o.timing) return render_timing(o, width, height);
    const bool placed = *mode == ColorMode::Sm || *mode == ColorMode::Wave;
    if (!o.recording.empty()) return fail("--recording goes with --timing", 2);
    if (!o.device_profile.empty() && !placed) return fail("--device-profile goes with --timing or --color sm|wave", 2);
    std::optional<OccupancyGpu> gpu;
    if (placed) {
        // An occupancy lesson's blocks are dealt to its own GPU, as `occupancy --preset` does.
        const std::string profile = !o.device_profile.empty() || !lesson ? o.device_profile : lesson->occupancy_profile;
        auto resolved = resolve_occupancy_gpu(profile, "", "", false);
        if (!resolved.value) return fail("--color " + color + ": " + resolved.error, 2);
        gpu = std::move(resolved.value);
    }
    const PrepareResult prepared = prepare_launch(o.launch);
    if (!prepared.value) return fail(launch_problem(o, prepared.error), 2);

    return render_map(o, *prepared.value, *mode, gpu, per_row, {width, height});
}

}  // namespace threadmap
