// Map panel; see map_panel.hpp.
#include "app/panels/map_panel.hpp"

#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cmath>

#include "app/window_state/finding_target.hpp"
#include "app/panels/lesson_card.hpp"
#include "app/panels/panel_widgets.hpp"
#include "viz/draw/legend.hpp"
#include "viz/draw/map_annotations.hpp"
#include "viz/layout/window_layout.hpp"
#include "viz/draw/missing_product.hpp"
#include "app/panels/warp_overlay.hpp"

namespace threadmap {

namespace {

void draw_map_callback(const ImDrawList*, const ImDrawCmd* cmd) {
    const auto* f = static_cast<const MapFrame*>(cmd->UserCallbackData);
    if (!f->layout) return;
    const float s = f->framebuffer_scale;
    View view = f->view;
    view.zoom *= s;
    const ViewRect r{f->rect.x * s, f->rect.y * s, f->rect.w * s, f->rect.h * s};
    f->renderer->draw_scene(*f->layout, view, {r, f->framebuffer_height, f->background}, f->hovered_element);
}

void outline_cell(ImDrawList* dl, const View& v, const ViewRect& r, glm::ivec2 c, ImU32 color, float thickness) {
    const glm::dvec2 a = world_to_screen(v, r, glm::dvec2(c)), b = world_to_screen(v, r, glm::dvec2(c) + 1.0);
    const float grow = thickness;
    dl->AddRect(ImVec2(float(a.x) - grow, float(a.y) - grow), ImVec2(float(b.x) + grow, float(b.y) + grow), color, 0, 0,
                thickness);
}

void handle_input(AppState& state, const ViewRect& r) {
    ImGuiIO& io = ImGui::GetIO();
    const MapLayout& layout = state.picture->layout;
    const glm::dvec2 mouse(io.MousePos.x, io.MousePos.y);
    if (ImGui::IsItemHovered()) {
        state.hovered_cell = cell_at(state.view, r, mouse, int(layout.width), int(layout.height));
        if (io.MouseWheel != 0) state.view = zoom_at(state.view, r, mouse, std::pow(1.25, double(io.MouseWheel)));
        if (ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) state.requests.fit = true;
    } else {
        state.hovered_cell.reset();
    }
    for (ImGuiMouseButton b : {ImGuiMouseButton_Left, ImGuiMouseButton_Right, ImGuiMouseButton_Middle})
        if (ImGui::IsItemActive() && ImGui::IsMouseDragging(b, 2.0f))
            state.view = pan_by(state.view, glm::dvec2(io.MouseDelta.x, io.MouseDelta.y));
    // A click that did not drag pins the cell under it (or releases the pin).
    if (ImGui::IsItemDeactivated() && ImGui::GetMouseDragDelta(ImGuiMouseButton_Left, 0).x == 0 &&
        ImGui::GetMouseDragDelta(ImGuiMouseButton_Left, 0).y == 0 && ImGui::IsItemHovered()) {
        if (state.pinned_cell && state.hovered_cell && *state.pinned_cell == *state.hovered_cell)
            state.pinned_cell.reset();
        else
            state.pinned_cell = state.hovered_cell;
    }
    if (ImGui::IsItemHovered() && !io.WantTextInput && ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Space)))
        state.requests.fit = true;
    if (!io.WantTextInput) {  // the warp inspector: the warp's previous or next request
        if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_RightArrow))) step_warp_request(state, +1);
        if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_LeftArrow))) step_warp_request(state, -1);
    }
}

// The outlined cells: the Editor's hovered line's findings, the Memory table's clicked line,
// the hovered cell and the pinned one (drawn last, on top).
void outline_cells(ImDrawList* dl, const AppState& state, const ViewRect& r) {
    const MapLayout& layout = state.picture->layout;
    // The Editor's hovered line: the cells of its findings (an out-of-bounds write past C, a race).
    if (state.editor_hovered_line && map_shows_editor_kernel(state))
        for (const glm::ivec2 c : finding_cells_of_line(*state.picture, state.editor_hovered_line))
            outline_cell(dl, state.view, r, c, IM_COL32(80, 200, 255, 255), 2.0f);
    if (state.hovered_cell) outline_cell(dl, state.view, r, *state.hovered_cell, IM_COL32(255, 255, 255, 220), 1.5f);
    // The Memory table's clicked line: every element its requests touch, where cells are big
    // enough to outline (the view zooms to its first request).
    if (const auto& ml = state.memory_line; ml && ml->picture == state.picture->serial && state.view.zoom >= 4)
        for (uint64_t e : ml->elements) {
            uint32_t x = 0, y = 0;
            layout.cell_of(e, x, y);
            const glm::dvec2 at = world_to_screen(state.view, r, {x + 0.5, y + 0.5});
            if (at.x >= r.x && at.y >= r.y && at.x <= r.x + r.w && at.y <= r.y + r.h)
                outline_cell(dl, state.view, r, {int(x), int(y)}, IM_COL32(80, 200, 255, 230), 1.0f);
        }
    if (state.pinned_cell) outline_cell(dl, state.view, r, *state.pinned_cell, IM_COL32(255, 230, 60, 255), 2.5f);
}

// 1D rows follow the area's shape (until the learner sets them; the new rows come with the next
// frame's update), and a fitted view refits the map's rectangle `r` when it changes size
// (window resized, UI scale changed).
void follow_area(AppState& state, const ViewRect& r, const Margins& margins) {
    const MapLayout& layout = state.picture->layout;
    if (state.auto_blocks_per_row && !layout.is_matrix()) {
        // The shape of the map's rectangle, the legend beside or under it already set apart.
        const double shape = std::max(r.w - margins.across(), 1.0) / std::max(r.h - margins.down(), 1.0);
        const RowWidth wanted = row_width_for_aspect(layout.workload, layout.launch, shape);
        if (!(wanted == state.row_width)) {
            state.row_width = wanted;
            state.pending.relayout = true;
            state.requests.fit = state.requests.fit || state.view_is_fit;
        }
    }
    const bool resized = state.map_rect.w != r.w || state.map_rect.h != r.h;
    if ((state.requests.fit || (state.view_is_fit && resized)) && !state.pending.relayout) {
        state.view = fit(scene_bounds(layout), r, margins);
        state.requests.fit = false;
        state.view_is_fit = true;
    }
    state.map_rect = r;
}

// The cells themselves, drawn by the renderer when ImGui's draw list reaches this point.
void queue_cells(ImDrawList* dl, MapFrame& frame, const AppState& state, const ViewRect& r) {
    const MapLayout& layout = state.picture->layout;
    frame.background = state.theme().scene;
    frame.layout = &layout;
    frame.view = state.view;
    frame.rect = r;
    frame.hovered_element.reset();
    if (const auto c = state.inspected_cell(); c && layout.element_at(uint32_t(c->x), uint32_t(c->y)))
        frame.hovered_element = *c;
    dl->AddCallback(draw_map_callback, &frame);
    dl->AddCallback(ImDrawCallback_ResetRenderState, nullptr);
}

// The legend in the map's margin, or over the picture on a background of its own.
void draw_legend_in_margin(ImDrawList* dl, AppState& state, const Legend& legend, const LegendPlace& place,
                           float legend_font, float legend_pad) {
    const Theme& theme = state.theme();
    const ViewRect& lr = place.legend;
    state.legend_rect = lr;
    if (place.over) {
        dl->AddRectFilled(ImVec2(float(lr.x), float(lr.y)), ImVec2(float(lr.x + lr.w), float(lr.y + lr.h)),
                          IM_COL32(theme.backing.r, theme.backing.g, theme.backing.b, 230),
                          ImGui::GetFontSize() * 0.3f);
        state.labels_over_cells.push_back(lr);
    }
    draw_legend(dl, legend, ImGui::GetFont(), legend_font, float(lr.x) + legend_pad, float(lr.y) + legend_pad,
                float(lr.w) - 2 * legend_pad, theme, place.across);
}

// The two pictures' sentences: which kernel each is, and the comparison's legend figure.
std::string left_sentence(const MapPicture& picture) {
    // A launch the learner changed keeps the lesson's comparison, but is no longer its view.
    return keep_numbers_whole(
        "Left: " + picture_sentence(picture, picture.launch.preset.empty() ? "your launch" : "the lesson's view"));
}
std::string right_sentence(const MapPicture& picture) {  // both wrapped, their tuples whole
    return keep_numbers_whole("Right: " + picture_sentence(*picture.compare, "the same launch and view"));
}

// Splits the pictures' rectangle `map` in two halves with a gap, less a band under them for
// their sentences: `map` becomes the map's, and the comparison's is returned.
ViewRect share_with_compare(ViewRect& map, float font, const MapPicture& picture) {
    const double gap = font * 1.5, half = std::max((map.w - gap) / 2, 1.0);
    const auto lines = [&](const std::string& s) {
        return double(ImGui::GetFont()->CalcTextSizeA(font, FLT_MAX, float(half), s.c_str()).y);
    };
    const double band = std::max(lines(left_sentence(picture)), lines(right_sentence(picture))) + font * 0.6;
    map = {map.x, map.y, half, std::max(map.h - band, 1.0)};
    return {map.x + half + gap, map.y, half, map.h};
}

// The lesson's comparison kernel beside the map (in `area`, the map being in `left`): its picture
// of the same launch and view as one image (square cells) with its name, shape and rulers, and
// under both pictures which kernel each is; not interactive.
void draw_compare(ImDrawList* dl, AppState& state, MapFrame& frame, const ViewRect& left, const ViewRect& area) {
    MapPicture& picture = *state.picture->compare;
    const bool same = frame.compare_serial == picture.serial && frame.compare_width == picture.layout.width &&
                      frame.compare_memory == picture.memory.computed &&
                      frame.compare_color.mode == picture.color.mode &&
                      frame.compare_color.palette == picture.color.palette;
    if (!same) {
        const Outcome<const ThreadMap*> map = host_map(picture);
        if (!map.value) {  // no picture rather than a wrong one
            state.message = map.error;
            return;
        }
        frame.compare_image.paint(picture.layout, **map.value, picture.color, element_figures(picture));
        frame.compare_serial = picture.serial;
        frame.compare_memory = picture.memory.computed;
        frame.compare_color = picture.color;
        frame.compare_width = picture.layout.width;
    }
    const float font = ImGui::GetFontSize();
    const Theme& theme = state.theme();
    const MapLabels labels = map_labels(picture.layout, picture.launch.array_caption());
    const ViewRect r{std::floor(area.x), left.y, std::floor(area.w), left.h};  // whole pixels, as the map's
    const View v = fit(scene_bounds(picture.layout), r, ruler_margins(font, picture.layout, labels));
    state.compare_rect = r;
    state.compare_view = v;
    const Rgba8 scene = theme.scene;
    dl->AddRectFilled(ImVec2(float(r.x), float(r.y)), ImVec2(float(r.x + r.w), float(r.y + r.h)),
                      IM_COL32(scene.r, scene.g, scene.b, 255));
    const glm::dvec2 a = world_to_screen(v, r, {0, 0}),
                     b = world_to_screen(v, r, {picture.layout.width, picture.layout.height});
    dl->AddImage(reinterpret_cast<ImTextureID>(uintptr_t(frame.compare_image.texture())),
                 ImVec2(float(a.x), float(a.y)), ImVec2(float(b.x), float(b.y)));
    LabelStyle style = label_style(ImGui::GetFont(), font, theme);
    style.cell_color = cell_colors(picture);
    const auto over = draw_map_labels(dl, picture.layout, labels, v, r, style);
    state.labels_over_cells.insert(state.labels_over_cells.end(), over.begin(), over.end());
    const auto sentence = [&](const ViewRect& under, const std::string& text) {
        dl->AddText(ImGui::GetFont(), font, ImVec2(float(under.x), float(under.y + under.h + font * 0.3)),
                    ImGui::GetColorU32(ImGuiCol_Text), text.c_str(), nullptr, float(under.w));
    };
    sentence(left, left_sentence(*state.picture));
    sentence(r, right_sentence(*state.picture));
}

// Where the panel's parts go: the map's rectangle and the legend's (window_layout's
// place_legend), a lesson's comparison right of the map, the picture's labels and margins.
struct PanelPlan {
    std::optional<Legend> legend;
    LegendPlace place;
    std::optional<ViewRect> compare;  // a lesson's comparison, right of the map
    MapLabels labels;                 // the picture's names and rulers
    Margins margins;                  // what the fitted picture leaves for its names and rulers
    float legend_font = 0, legend_pad = 0;
};

// Where the legend would be drawn over the fitted picture's cells (not an empty corner of its
// scene), it is made smaller and placed again: first without the lesson's point, which then
// stays in the card (the Editor beside a narrow map put it over two thirds of the map), then
// listing fewer of its example colours, down to three (the blockIdx legend's ten at UI scale
// 1.5); where even that leaves it over the cells, it is whole again.
template <class Place, class OverCells>
void keep_legend_off_cells(PanelPlan& plan, const Place& place, const OverCells& over_cells) {
    if (!plan.legend->lead.empty() && over_cells()) {
        plan.legend->lead.clear();
        plan.place = place();
    }
    const Legend full = *plan.legend;
    for (size_t keep = full.examples / 2; keep >= 3 && over_cells(); keep = keep * 2 / 3) {
        plan.legend = with_examples(full, keep);
        plan.place = place();
    }
    if (over_cells() && plan.legend->examples < full.examples) {
        plan.legend = full;
        plan.place = place();
    }
}

PanelPlan plan_panel(const AppState& state, const ViewRect& area, float font) {
    PanelPlan plan;
    plan.legend_font = font * 0.9f;
    plan.legend_pad = font * 0.4f;
    plan.place = {area, {}, true};
    plan.margins = Margins::all(font * 0.6);
    if (!state.picture) return plan;
    const MapPicture& picture = *state.picture;
    plan.legend = picture_legend(picture);
    if (picture.compare) plan.legend->note.clear();  // said under each picture instead
    // The lesson's point beside or under its picture, where the legend then still fits the
    // area's height (else it stays in the card); a comparison keeps it in the card.
    if (!picture.compare) plan.legend->lead = look_for_for_margin(state);
    const auto measure = [&](float wrap) {
        return legend_size(*plan.legend, ImGui::GetFont(), plan.legend_font, std::floor(font * wrap));
    };
    if (!plan.legend->lead.empty() && measure(16).y + 2 * plan.legend_pad > area.h) plan.legend->lead.clear();
    plan.labels = map_labels(picture.layout, picture.launch.array_caption());
    plan.margins = ruler_margins(font, picture.layout, plan.labels);
    // With a comparison the legend is placed for both pictures side by side (about twice as
    // wide, with the second's rulers), and they share what it leaves.
    WorldRect scene = scene_bounds(picture.layout);
    if (picture.compare) scene.x1 = scene.x0 + 2.25 * (scene.x1 - scene.x0);
    const bool reshapes = !picture.layout.is_matrix() && state.auto_blocks_per_row;
    const auto place = [&] {
        // A reshaping map may have its legend as a strip under it, as wide as the area.
        const double strip_h = reshapes && !picture.compare
                                   ? legend_size(*plan.legend, ImGui::GetFont(), plan.legend_font,
                                                 float(area.w - plan.margins.across()) - 2 * plan.legend_pad, true)
                                             .y +
                                         2 * plan.legend_pad
                                   : 0;
        // The legend's column as wide as 16 text heights, or narrower where that gives the picture
        // more (a projector's 1280 pixels: the first lesson's rows are width-bound).
        std::vector<LegendSize> sizes;
        for (const float wrap : {16.0f, 14.0f, 12.0f}) {
            const ImVec2 l = measure(wrap);
            sizes.push_back({l.x + 2 * plan.legend_pad, l.y + 2 * plan.legend_pad});
        }
        return best_legend_place(scene, area, sizes, plan.margins, reshapes, strip_h).place;
    };
    plan.place = place();
    const auto over_cells = [&] {
        const ViewRect& m = plan.place.map;
        return plan.place.over &&
               overlaps(plan.place.legend, screen_rect(fit(scene, m, plan.margins), m, scene_bounds(picture.layout)));
    };
    keep_legend_off_cells(plan, place, over_cells);
    if (picture.compare) plan.compare = share_with_compare(plan.place.map, font, picture);
    return plan;
}

}  // namespace

void draw_map_panel(AppState& state, MapFrame& frame) {
    // The map and its legend in the panel's area: the legend beside or under the fitted picture,
    // in its margin (window_layout's place_legend), over a corner only when a margin would cost
    // the picture more than a fifth of its size.
    const float font = ImGui::GetFontSize();
    const ImVec2 panel_pos = ImGui::GetCursorScreenPos();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const ViewRect area{panel_pos.x, panel_pos.y, std::max(avail.x, 1.0f), std::max(avail.y, 1.0f)};
    state.compare_rect = {};
    const PanelPlan plan = plan_panel(state, area, font);
    const LegendPlace& place = plan.place;
    const std::optional<ViewRect>& compare_area = plan.compare;
    const MapLabels& labels = plan.labels;
    // Whole pixels: the renderer's viewport is in whole pixels, and cells must land where
    // the view says they are.
    const ImVec2 pos(std::floor(float(place.map.x)), std::floor(float(place.map.y)));
    const ImVec2 size(std::max(std::floor(float(place.map.w)), 1.0f), std::max(std::floor(float(place.map.h)), 1.0f));
    const ViewRect r{pos.x, pos.y, size.x, size.y};
    ImGui::SetCursorScreenPos(pos);
    ImGui::InvisibleButton(
        "map", size,
        ImGuiButtonFlags_MouseButtonLeft | ImGuiButtonFlags_MouseButtonRight | ImGuiButtonFlags_MouseButtonMiddle);
    if (!state.picture) {
        state.map_rect = r;
        return;
    }
    const MapLayout& layout = state.picture->layout;
    follow_area(state, r, plan.margins);
    const View before = state.view;
    handle_input(state, r);
    if (state.view.zoom != before.zoom || state.view.center != before.center) state.view_is_fit = false;

    ImDrawList* dl = ImGui::GetWindowDrawList();
    const Theme& theme = state.theme();
    queue_cells(dl, frame, state, r);

    dl->PushClipRect(ImVec2(pos.x, pos.y), ImVec2(pos.x + size.x, pos.y + size.y), true);
    outline_cells(dl, state, r);
    std::vector<ViewRect> missing_texts;
    if (const auto missing = missing_product(layout.workload))
        missing_texts = draw_missing_product(dl, *missing, state.view, r, ImGui::GetFont(), font * 0.9f, theme.backing);
    LabelStyle style = label_style(ImGui::GetFont(), font, theme);
    style.cell_color = cell_colors(*state.picture);
    state.labels_over_cells = draw_map_labels(dl, layout, labels, state.view, r, style);
    state.labels_over_cells.insert(state.labels_over_cells.end(), missing_texts.begin(), missing_texts.end());
    state.fit_margins = plan.margins;
    draw_warp_overlay(dl, state, r);
    dl->PopClipRect();

    draw_legend_in_margin(dl, state, *plan.legend, place, plan.legend_font, plan.legend_pad);
    state.look_for_in_margin = !plan.legend->lead.empty();
    if (compare_area) draw_compare(dl, state, frame, r, *compare_area);
}

}  // namespace threadmap
