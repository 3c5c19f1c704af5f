// Figure composition; see figure.hpp.
#include "viz/draw/figure.hpp"

#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cmath>

#include "viz/draw/frame.hpp"
#include "viz/draw/map_annotations.hpp"
#include "viz/draw/missing_product.hpp"
#include "viz/draw/overlay.hpp"
#include "viz/layout/map_labels.hpp"

namespace threadmap {

std::string launch_caption(const std::string& kernel, const std::string& array, const MapLayout& layout,
                           ColorMode mode) {
    const Workload& workload = layout.workload;
    const std::string shape =
        is_model(workload)
            ? array + " " +
                  (is_2d(workload) ? shape_text(workload.rows, workload.cols) : "[" + std::to_string(workload.n) + "]")
        : is_matrix(workload.kernel)
            ? "C " + shape_text(workload.rows, workload.cols) + " = A " + shape_text(workload.a_rows, workload.inner) +
                  " · B " + shape_text(workload.inner, workload.b_cols)
            : std::to_string(workload.n) + " elements";
    return kernel + " · " + shape + " · gridDim " + to_string(layout.launch.grid) + " · blockDim " +
           to_string(layout.launch.block) + " · colour: " + color_mode_title(mode);
}

namespace {

// The caption's text width: the figure's, less its padding.
float caption_wrap(const FigureSpec& s) { return std::max(1.0f, float(s.width) - 2 * s.font_px * 0.8f); }

// The caption's lines as drawn: wrapped to the figure's width where ImGui has a font (when
// drawing), else one per '\n' (a long caption wraps onto more lines, which the map gives up).
float caption_height(const FigureSpec& s) {
    int lines = 1 + int(std::count(s.caption.begin(), s.caption.end(), '\n'));
    if (ImGui::GetCurrentContext() && Overlay::font()) {
        const ImVec2 size = Overlay::font()->CalcTextSizeA(s.font_px, FLT_MAX, caption_wrap(s), s.caption.c_str());
        lines = std::max(lines, int(std::lround(size.y / s.font_px)));
    }
    return s.font_px * 0.8f * 1.5f + float(lines) * s.font_px * 1.3f;
}

float legend_width(const FigureSpec& s) { return s.show_legend ? std::min(float(s.width) * 0.32f, s.font_px * 17) : 0; }

}  // namespace

namespace {

// The maps' area: all of it for one map, halves (with a gap) for a map and its comparison.
ViewRect maps_area(const FigureSpec& s) {
    const float pad = s.font_px * 0.8f, caption_h = caption_height(s);
    return {pad, caption_h, std::max(1.0, double(s.width) - legend_width(s) - 2 * pad),
            std::max(1.0, double(s.height) - caption_h - pad)};
}

double half_width(const FigureSpec& s, const ViewRect& area) { return std::max(1.0, (area.w - s.font_px * 1.5) / 2); }

}  // namespace

ViewRect figure_map_area(const FigureSpec& s) {
    ViewRect area = maps_area(s);
    if (s.compare) area.w = half_width(s, area);
    return area;
}

ViewRect figure_compare_area(const FigureSpec& s) {
    if (!s.compare) return {};
    const ViewRect area = maps_area(s);
    const double half = half_width(s, area);
    return {area.x + area.w - half, area.y, half, area.h};
}

namespace {
float label_px(const FigureSpec& s) { return s.font_px * 0.85f; }
}  // namespace

View figure_view(const FigureSpec& s) {
    const MapLabels labels = map_labels(*s.layout, s.array);
    return fit(scene_bounds(*s.layout), figure_map_area(s), ruler_margins(label_px(s), *s.layout, labels));
}

void draw_figure(const CellGridRenderer& renderer, const FigureSpec& s) {
    const float pad = s.font_px * 0.8f, caption_h = caption_height(s), legend_w = legend_width(s);
    const ViewRect map = figure_map_area(s);

    const Theme& theme = theme_of(s.theme);
    clear_bound_framebuffer(s.width, s.height, theme.window);
    const MapLabels labels = map_labels(*s.layout, s.array);
    const View view = figure_view(s);
    renderer.draw_scene(*s.layout, view, {map, s.height, theme.scene}, std::nullopt);

    Overlay overlay(s.width, s.height);
    ImDrawList* dl = overlay.list();
    dl->AddText(overlay.font(), s.font_px, ImVec2(pad, pad), IM_COL32(theme.text.r, theme.text.g, theme.text.b, 255),
                s.caption.c_str(), nullptr, caption_wrap(s));
    if (const auto missing = missing_product(s.layout->workload))
        draw_missing_product(dl, *missing, view, map, overlay.font(), s.font_px * 0.85f, theme.backing);
    LabelStyle style = label_style(overlay.font(), label_px(s), theme);
    style.cell_color = s.cell_color;
    draw_map_labels(dl, *s.layout, labels, view, map, style);
    if (s.compare && s.compare_layout &&
        s.compare_renderer) {  // the same launch of the comparison kernel, at its right
        const ViewRect area = figure_compare_area(s);
        const MapLabels compare_labels = map_labels(*s.compare_layout, s.compare_array);
        const View v =
            fit(scene_bounds(*s.compare_layout), area, ruler_margins(label_px(s), *s.compare_layout, compare_labels));
        s.compare_renderer->draw_scene(*s.compare_layout, v, {area, s.height, theme.scene}, std::nullopt);
        style.cell_color = s.compare_cell_color;
        draw_map_labels(dl, *s.compare_layout, compare_labels, v, area, style);
    }
    if (s.show_legend)
        draw_legend(dl, s.legend, overlay.font(), s.font_px * 0.85f, float(s.width) - legend_w, caption_h,
                    legend_w - pad, theme);
    overlay.render();
}

}  // namespace threadmap
