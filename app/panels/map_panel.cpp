// Map panel; see map_panel.hpp.
#include "map_panel.hpp"

#include <imgui.h>

#include <cmath>

#include "legend.hpp"
#include "missing_product.hpp"
#include "warp_overlay.hpp"

namespace threadmap {

namespace {

void draw_map_callback(const ImDrawList*, const ImDrawCmd* cmd) {
    const auto* f = static_cast<const MapFrame*>(cmd->UserCallbackData);
    if (!f->layout) return;
    const float s = f->framebuffer_scale;
    View view = f->view;
    view.zoom *= s;
    const ViewRect r{f->rect.x * s, f->rect.y * s, f->rect.w * s, f->rect.h * s};
    f->renderer->draw_scene(*f->layout, view, {r, f->framebuffer_height}, f->hovered_element);
}

void outline_cell(ImDrawList* dl, const View& v, const ViewRect& r, glm::ivec2 c, ImU32 color, float thickness) {
    const glm::dvec2 a = world_to_screen(v, r, glm::dvec2(c)), b = world_to_screen(v, r, glm::dvec2(c) + 1.0);
    const float grow = thickness;
    dl->AddRect(ImVec2(float(a.x) - grow, float(a.y) - grow), ImVec2(float(b.x) + grow, float(b.y) + grow), color, 0, 0,
                thickness);
}

void handle_input(AppState& state, const ViewRect& r) {
    ImGuiIO& io = ImGui::GetIO();
    const MapLayout& m = state.picture->layout;
    const glm::dvec2 mouse(io.MousePos.x, io.MousePos.y);
    if (ImGui::IsItemHovered()) {
        state.hovered_cell = cell_at(state.view, r, mouse, int(m.width), int(m.height));
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

}  // namespace

void draw_map_panel(AppState& state, MapFrame& frame) {
    // The map on the left, the legend in its own column on the right: never over cells.
    const float font = ImGui::GetFontSize();
    const ImVec2 panel_pos = ImGui::GetCursorScreenPos();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float legend_w = std::floor(std::min(font * 16, std::max(avail.x, 1.0f) * 0.4f));
    const ImVec2 pos = panel_pos;
    // Whole pixels: the renderer's viewport is in whole pixels, and cells must land where
    // the view says they are.
    const ImVec2 size(std::max(std::floor(avail.x - legend_w - font * 0.6f), 1.0f), std::max(avail.y, 1.0f));
    const ViewRect r{pos.x, pos.y, size.x, size.y};
    ImGui::InvisibleButton(
        "map", size,
        ImGuiButtonFlags_MouseButtonLeft | ImGuiButtonFlags_MouseButtonRight | ImGuiButtonFlags_MouseButtonMiddle);
    if (!state.picture) {
        state.map_rect = r;
        return;
    }
    const MapLayout& m = state.picture->layout;
    // 1D rows follow the view's shape (until the learner sets them); the new rows come with
    // the next frame's update.
    if (state.auto_blocks_per_row && !m.is_matrix()) {
        const uint32_t wanted = blocks_per_row_for_aspect(m.workload, m.launch, r.w / r.h);
        if (wanted != state.blocks_per_row) {
            state.blocks_per_row = wanted;
            state.pending.relayout = true;
            state.requests.fit = state.requests.fit || state.view_is_fit;
        }
    }
    // A fitted view refits when the panel changes size (window resized, UI scale changed).
    const bool resized = state.map_rect.w != r.w || state.map_rect.h != r.h;
    if ((state.requests.fit || (state.view_is_fit && resized)) && !state.pending.relayout) {
        state.view = fit(scene_bounds(m), r, font * 0.6);
        state.requests.fit = false;
        state.view_is_fit = true;
    }
    state.map_rect = r;
    const View before = state.view;
    handle_input(state, r);
    if (state.view.zoom != before.zoom || state.view.center != before.center) state.view_is_fit = false;

    ImDrawList* dl = ImGui::GetWindowDrawList();
    frame.layout = &m;
    frame.view = state.view;
    frame.rect = r;
    frame.hovered_element.reset();
    if (const auto c = state.inspected_cell(); c && m.element_at(uint32_t(c->x), uint32_t(c->y)))
        frame.hovered_element = *c;
    dl->AddCallback(draw_map_callback, &frame);
    dl->AddCallback(ImDrawCallback_ResetRenderState, nullptr);

    dl->PushClipRect(ImVec2(pos.x, pos.y), ImVec2(pos.x + size.x, pos.y + size.y), true);
    if (state.hovered_cell) outline_cell(dl, state.view, r, *state.hovered_cell, IM_COL32(255, 255, 255, 220), 1.5f);
    if (state.pinned_cell) outline_cell(dl, state.view, r, *state.pinned_cell, IM_COL32(255, 230, 60, 255), 2.5f);
    if (const auto missing = missing_product(m.workload))
        draw_missing_product(dl, *missing, state.view, r, ImGui::GetFont(), font * 0.9f);
    draw_warp_overlay(dl, state, r);
    dl->PopClipRect();

    // The legend's column, right of the map.
    const float x = pos.x + size.x + font * 0.6f, y = pos.y + font * 0.6f;
    state.legend_rect = {x, y, legend_w - font * 0.2f, size.y - font * 0.6f};
    draw_legend(dl, picture_legend(*state.picture), ImGui::GetFont(), font * 0.9f, x, y, legend_w - font * 0.2f);
}

}  // namespace threadmap
