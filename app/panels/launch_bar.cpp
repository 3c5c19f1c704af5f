// Launch bar; see launch_bar.hpp.
#include "app/panels/launch_bar.hpp"

#include <imgui.h>

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

    // The lesson's title takes what the other controls leave.
    const ImGuiStyle& style = ImGui::GetStyle();
    const Dim3 cover = covering_grid_of(resolved);
    const std::string cover_text = "cover: " + to_string(cover);
    const char* back = "Panels (F11)";
    const float others = 2 * ImGui::GetFrameHeight() + ImGui::CalcTextSize("blockDimgridDim").x + 2 * font * 11 +
                         font * 11 + button_width(back) +
                         (cover == resolved.launch.grid ? 0 : button_width(cover_text)) + 4 * font +
                         12 * style.ItemSpacing.x;
    const float title_w = std::max(font * 8, ImGui::GetContentRegionAvail().x - others);

    if (ImGui::ArrowButton("##previous-lesson", ImGuiDir_Left)) step_lesson(state, -1);
    remember_rect(state, "lesson:previous");
    ImGui::SameLine();
    const Lesson* current = find_lesson(resolved.preset);
    ImGui::SetNextItemWidth(title_w);
    if (ImGui::BeginCombo("##lesson", current ? current->title.c_str() : "(your own launch)")) {
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
    changed |= dim3_fields(state, "blockDim", resolved.launch.block, font * 11);
    ImGui::SameLine(0, font);
    ImGui::TextColored(grid_dim_color(), "gridDim");
    ImGui::SameLine();
    changed |= dim3_fields(state, "gridDim", resolved.launch.grid, font * 11);
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
    color_mode_combo(state, font * 11);
    ImGui::SameLine(0, font);
    if (ImGui::Button(back)) state.settings.presentation = false;
    remember_rect(state, "presentation");
    if (changed) mark_launch_edited(state);
}

}  // namespace threadmap
