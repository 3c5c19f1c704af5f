// Exports from the window; see window_exports.hpp.
#include "window_exports.hpp"

#include <imgui.h>

#include <algorithm>
#include <ctime>

#include "export_names.hpp"
#include "figure.hpp"
#include "frame.hpp"
#include "gl_resources.hpp"
#include "image_export.hpp"
#include "ui_font.hpp"

namespace threadmap {

namespace {

std::string export_path(const AppState& state, bool whole_window) {
    return state.settings.export_dir + "/" +
           export_file_name(state.picture->launch, state.settings.color_mode, whole_window, std::time(nullptr));
}

void export_map(AppState& state, const CellGridRenderer& renderer) {
    const int k = state.settings.export_scale;
    const MapPicture& p = *state.picture;
    FigureSpec spec;
    spec.layout = &p.layout;
    spec.legend = make_legend(p.color.mode, p.color.palette, p.layout.launch);
    spec.caption = launch_caption(p.layout, p.color.mode);
    spec.width = std::max(640, int(state.map_rect.w + state.legend_rect.w)) * k;
    spec.height = std::max(360, int(state.map_rect.h)) * k;
    spec.font_px = kBaseFontPx * state.settings.ui_scale * float(k);
    RenderTarget target(spec.width, spec.height);
    target.bind();
    draw_figure(renderer, spec);
    const std::string path = export_path(state, false);
    const auto written = write_png(read_framebuffer(spec.width, spec.height), path);
    state.message = written.done() ? "saved " + path : written.error;
}

void export_window(AppState& state, MapFrame& frame, const FramebufferSize& fb, WindowSession& session) {
    const int k = state.settings.export_scale;
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
    const std::string path = export_path(state, true);
    const auto written = write_png(read_framebuffer(fb.width * k, fb.height * k), path);
    state.message = written.done() ? "saved " + path : written.error;
}

}  // namespace

void handle_export_requests(AppState& state, const CellGridRenderer& renderer, MapFrame& frame,
                            const FramebufferSize& size, WindowSession& session) {
    FrameRequests& r = state.requests;
    if (state.picture && (r.export_map || r.export_window)) {
        if (r.export_map) export_map(state, renderer);
        if (r.export_window) export_window(state, frame, size, session);
        begin_window_frame(size.width, size.height, kWindowBackground);  // back to the window
        session.render_imgui();
    }
    r.export_map = r.export_window = false;
}

}  // namespace threadmap
