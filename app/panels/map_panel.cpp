// Map panel; see map_panel.hpp.
#include "map_panel.hpp"

#include <imgui.h>

#include <cmath>

#include "legend.hpp"

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
        if (ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) state.fit_requested = true;
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
        state.fit_requested = true;
}

}  // namespace

void draw_map_panel(AppState& state, MapFrame& frame) {
    const ImVec2 pos = ImGui::GetCursorScreenPos();
    const ImVec2 size(std::max(ImGui::GetContentRegionAvail().x, 1.0f), std::max(ImGui::GetContentRegionAvail().y, 1.0f));
    const ViewRect r{pos.x, pos.y, size.x, size.y};
    ImGui::InvisibleButton("map", size,
                           ImGuiButtonFlags_MouseButtonLeft | ImGuiButtonFlags_MouseButtonRight |
                               ImGuiButtonFlags_MouseButtonMiddle);
    if (!state.picture) {
        state.map_rect = r;
        return;
    }
    const MapLayout& m = state.picture->layout;
    // A fitted view refits when the panel changes size (window resized, UI scale changed),
    // and leaves the legend's column on the right free.
    const float font = ImGui::GetFontSize();
    const float legend_w = std::min(font * 16, size.x * 0.4f);
    const bool resized = state.map_rect.w != r.w || state.map_rect.h != r.h;
    if (state.fit_requested || (state.view_is_fit && resized)) {
        state.view = fit(scene_bounds(m), {r.x, r.y, std::max(r.w - legend_w - font, r.w * 0.5), r.h});
        state.fit_requested = false;
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

    // Legend in the top-right corner, on a dark box sized after drawing it.
    const float w = legend_w;
    const float x = pos.x + size.x - w - font * 0.6f, y = pos.y + font * 0.6f;
    dl->ChannelsSplit(2);
    dl->ChannelsSetCurrent(1);
    const float h = draw_legend(dl, make_legend(state.picture->color.mode, state.picture->color.palette, m.launch),
                                ImGui::GetFont(), font * 0.9f, x, y, w);
    dl->ChannelsSetCurrent(0);
    dl->AddRectFilled(ImVec2(x - font * 0.4f, y - font * 0.4f), ImVec2(x + w + font * 0.2f, y + h + font * 0.2f),
                      IM_COL32(10, 10, 12, 215), font * 0.3f);
    dl->ChannelsMerge();
    dl->PopClipRect();
}

}  // namespace threadmap
