// Launch bar; see launch_bar.hpp.
#include "app/panels/launch_bar.hpp"

#include <imgui.h>

#include <algorithm>
#include <string>

#include "app/launch/lessons.hpp"
#include "app/panels/panel_widgets.hpp"

namespace threadmap {

namespace {

// The lesson before or after the current one (in the list's order), or the first.
void step_lesson(AppState& state, int direction) {
    const auto& all = lessons();
    if (all.empty()) return;
    const Lesson* current = find_lesson(state.edit.preset);
    size_t at = 0;
    if (current) at = size_t(current - all.data());
    const size_t next = current ? (at + all.size() + size_t(direction)) % all.size() : 0;
    select_lesson(state, all[next].name);
}

}  // namespace

float launch_bar_height() { return ImGui::GetFrameHeight() + 2 * ImGui::GetStyle().WindowPadding.y; }

void draw_launch_bar(AppState& state) {
    ResolvedLaunch& resolved = state.edit;
    const float font = ImGui::GetFontSize();
    bool changed = false;

    // The bar's fixed parts (the arrows, the names, the buttons, the gaps), then the flexible ones:
    // the fields, the colour combo and the lesson's title, which takes what the others leave.
    const ImGuiStyle& style = ImGui::GetStyle();
    const Dim3 cover = covering_grid_of(resolved);
    const std::string cover_text = "cover: " + to_string(cover);
    const char* back = "Panels (F11)";
    const float fixed = 2 * ImGui::GetFrameHeight() + ImGui::CalcTextSize("blockDimgridDim").x + button_width(back) +
                        (cover == resolved.launch.grid ? 0 : button_width(cover_text)) + 4 * font +
                        12 * style.ItemSpacing.x;
    const float room = ImGui::GetContentRegionAvail().x - fixed;
    // Where a projector's 1280 pixels at a raised UI scale do not hold them all (the bar ran off
    // the window at 1.32), the title goes first, to its list's arrow alone (the lesson card under
    // the bar names the lesson), then the fields and the combo shrink towards what keeps their
    // numbers whole (four digits at least) and a few words of the colour mode.
    const auto fields_min = [&](const Dim3& d) {
        float w = 2 * style.ItemSpacing.x;
        for (uint32_t v : {d.x, d.y, d.z})
            w += ImGui::CalcTextSize(std::string(std::max<size_t>(4, std::to_string(v).size()), '0').c_str()).x +
                 2 * style.FramePadding.x;
        return w;
    };
    const float block_min = fields_min(resolved.launch.block), grid_min = fields_min(resolved.launch.grid);
    const float combo_min = font * 6, most = font * 11, title_min = font * 8;
    const bool title_shown = room >= 3 * most + title_min;
    const float shrink = title_shown ? 1.0f
                                     : std::clamp((room - ImGui::GetFrameHeight() - block_min - grid_min - combo_min) /
                                                      (3 * most - block_min - grid_min - combo_min),
                                                  0.0f, 1.0f);
    const auto flexible = [&](float least) { return least + (most - least) * shrink; };
    const float title_w = room - 3 * most;

    if (ImGui::ArrowButton("##previous-lesson", ImGuiDir_Left)) step_lesson(state, -1);
    remember_rect(state, "lesson:previous");
    ImGui::SameLine();
    const Lesson* current = find_lesson(resolved.preset);
    if (title_shown) ImGui::SetNextItemWidth(title_w);
    if (ImGui::BeginCombo("##lesson", current ? current->title.c_str() : "(your own launch)",
                          title_shown ? 0 : ImGuiComboFlags_NoPreview)) {
        for (const auto& l : lessons()) {
            if (ImGui::Selectable(l.title.c_str(), current == &l)) select_lesson(state, l.name);
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", l.summary.c_str());
        }
        ImGui::EndCombo();
    }
    remember_rect(state, "lesson:combo");
    ImGui::SameLine();
    if (ImGui::ArrowButton("##next-lesson", ImGuiDir_Right)) step_lesson(state, +1);
    remember_rect(state, "lesson:next");

    ImGui::SameLine(0, font);
    ImGui::TextColored(block_dim_color(), "blockDim");
    ImGui::SameLine();
    changed |= dim3_fields(state, "blockDim", resolved.launch.block, flexible(block_min));
    ImGui::SameLine(0, font);
    ImGui::TextColored(grid_dim_color(), "gridDim");
    ImGui::SameLine();
    changed |= dim3_fields(state, "gridDim", resolved.launch.grid, flexible(grid_min));
    if (!(cover == resolved.launch.grid)) {
        ImGui::SameLine();
        if (ImGui::Button(cover_text.c_str())) {
            resolved.launch.grid = cover;
            changed = true;
        }
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("gridDim = the grid that covers the data for this blockDim");
        remember_rect(state, "fix-grid");
    }

    ImGui::SameLine(0, font);
    color_mode_combo(state, flexible(combo_min));
    ImGui::SameLine(0, font);
    if (ImGui::Button(back)) state.settings.presentation = false;
    remember_rect(state, "presentation");
    if (changed) mark_launch_edited(state);
}

}  // namespace threadmap
