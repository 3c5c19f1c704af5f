// Exports from the window; see window_exports.hpp.
#include "app/window/window_exports.hpp"

#include <imgui.h>

#include <algorithm>
#include <ctime>
#include <future>

#include "app/window_state/export_budget.hpp"
#include "app/window_state/export_names.hpp"
#include "viz/draw/figure.hpp"
#include "viz/draw/gl.hpp"
#include "viz/draw/frame.hpp"
#include "viz/draw/gl_resources.hpp"
#include "viz/draw/image_export.hpp"
#include "viz/draw/ui_font.hpp"

namespace threadmap {

namespace {

std::string export_path(const AppState& state, bool whole_window) {
    return state.settings.export_dir + "/" +
           export_file_name(state.picture->launch, state.settings.color_mode, whole_window, std::time(nullptr));
}

// At most this many exports encode at once: each holds its pixels (up to the budget).
constexpr size_t kExportsInFlight = 2;

// The scale an export of width × height (1×) is made at, or 0 with the status bar saying why.
int export_scale(AppState& state, int width, int height, std::string& note) {
    if (state.exports.size() >= kExportsInFlight) {
        state.message = "not exported: " + std::to_string(kExportsInFlight) + " exports are still being saved";
        return 0;
    }
    const ExportScale fit =
        fit_export_scale(width, height, state.settings.export_scale, CellGridRenderer::max_texture_side());
    note = fit.note;
    if (fit.scale == 0) state.message = fit.note;
    return fit.scale;
}

// The pixels are read here (GL); the PNG is encoded and written on another thread.
void save_in_background(AppState& state, Image image, const std::string& path, const std::string& note) {
    state.message = "saving " + path + " ...";
    state.exports.push_back({path, note, std::async(std::launch::async, [image = std::move(image), path] {
                                 return write_png(image, path);
                             })});
}

// Whether the export's pixels were drawn; if GL failed on the way, the status bar says why.
bool drawn(AppState& state) {
    const Outcome<void> gl = take_gl_failure();
    if (!gl.done()) state.message = "export failed: " + gl.error;
    return gl.done();
}

void export_map(AppState& state, const CellGridRenderer& renderer) {
    const MapPicture& picture = *state.picture;
    FigureSpec spec;
    spec.width = std::max(640, int(state.map_rect.w + state.legend_rect.w));
    spec.height = std::max(360, int(state.map_rect.h));
    std::string note;
    const int k = export_scale(state, spec.width, spec.height, note);
    if (k == 0) return;
    spec.width *= k;
    spec.height *= k;
    spec.layout = &picture.layout;
    spec.cell_color = cell_colors(picture);
    spec.legend = picture_legend(picture);
    spec.array = picture.launch.array_caption();
    spec.theme = state.theme().name;
    spec.caption = launch_caption(picture.launch.kernel_name(), picture.launch.array_caption(), picture.layout,
                                  picture.color.mode);
    spec.font_px = kBaseFontPx * state.settings.ui_scale * float(k);
    RenderTarget target(spec.width, spec.height);
    target.bind();
    draw_figure(renderer, spec);
    if (drawn(state))
        save_in_background(state, read_framebuffer(spec.width, spec.height), export_path(state, false), note);
}

void export_window(AppState& state, MapFrame& frame, const FramebufferSize& fb, WindowSession& session) {
    std::string note;
    const int k = export_scale(state, fb.width, fb.height, note);
    if (k == 0) return;
    ImDrawData* data = ImGui::GetDrawData();
    RenderTarget target(fb.width * k, fb.height * k);
    target.bind();
    frame.framebuffer_scale = fb.scale * float(k);
    frame.framebuffer_height = fb.height * k;
    const ImVec2 before = data->FramebufferScale;
    data->FramebufferScale = ImVec2(before.x * float(k), before.y * float(k));
    session.render_imgui();
    data->FramebufferScale = before;
    frame.framebuffer_scale = fb.scale;
    frame.framebuffer_height = fb.height;
    if (drawn(state))
        save_in_background(state, read_framebuffer(fb.width * k, fb.height * k), export_path(state, true), note);
}

// Exports that finished: the status bar says where they went, or why they failed.
void collect_finished_exports(AppState& state) {
    auto& jobs = state.exports;
    for (auto it = jobs.begin(); it != jobs.end();) {
        if (it->written.wait_for(std::chrono::seconds(0)) != std::future_status::ready) {
            ++it;
            continue;
        }
        const auto written = it->written.get();
        state.message =
            written.done() ? "saved " + it->path + (it->note.empty() ? "" : " (" + it->note + ")") : written.error;
        it = jobs.erase(it);
    }
}

}  // namespace

void handle_export_requests(AppState& state, const CellGridRenderer& renderer, MapFrame& frame,
                            const FramebufferSize& size, WindowSession& session) {
    collect_finished_exports(state);
    FrameRequests& r = state.requests;
    if (state.picture && (r.export_map || r.export_window)) {
        if (r.export_map) export_map(state, renderer);
        if (r.export_window) export_window(state, frame, size, session);
        begin_window_frame(size.width, size.height, state.theme().window);  // back to the window
        session.render_imgui();
    }
    r.export_map = r.export_window = false;
}

}  // namespace threadmap
