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

const char* const kBack = "Panels (F11)";

std::string cover_text(const Dim3& cover) { return "cover: " + to_string(cover); }

// Where the bar's parts go in `width` pixels. On one line, the lesson's title takes what the
// others leave; where that is under 8 text heights, it gives way to its list's arrow (the lesson
// card under the bar names the lesson) and the fields and the colour combo shrink towards what
// keeps their numbers whole. Where even that does not fit (a 1280-px window at UI scale 1.52:
// the bar ran off the window), two lines: the lesson, the colour mode and the way back, then the
// launch.
struct BarPlan {
    bool two_lines = false;
    bool title_shown = true;
    float title_w = 0, block_w = 0, grid_w = 0, combo_w = 0;
};

BarPlan plan_bar(const ResolvedLaunch& resolved, float width) {
    const ImGuiStyle& style = ImGui::GetStyle();
    const float font = ImGui::GetFontSize(), frame = ImGui::GetFrameHeight(), sp = style.ItemSpacing.x;
    // Three fields, each wide enough for its number (four digits at least) and a little more: a
    // raised scale's rounding cut the last digit of 32768 at exactly its width.
    const auto fields_min = [&](const Dim3& d) {
        float w = 2 * sp;
        for (uint32_t v : {d.x, d.y, d.z})
            w += ImGui::CalcTextSize(std::string(std::max<size_t>(4, std::to_string(v).size()), '0').c_str()).x +
                 2 * style.FramePadding.x + font * 0.3f;
        return w;
    };
    const Dim3 cover = covering_grid_of(resolved);
    const float cover_w = cover == resolved.launch.grid ? 0 : button_width(cover_text(cover)) + sp;
    const float names = ImGui::CalcTextSize("blockDim").x + ImGui::CalcTextSize("gridDim").x + 2 * sp;
    const float block_min = fields_min(resolved.launch.block), grid_min = fields_min(resolved.launch.grid);
    const float most = font * 11, combo_min = font * 6, title_min = font * 8;
    BarPlan plan;
    const float room = width - (2 * frame + 2 * sp + names + cover_w + button_width(kBack) + 4 * font + 2 * sp);
    if (room >= 3 * most + title_min) {  // everything at its width, the title the rest
        plan.title_w = room - 3 * most;
        plan.block_w = plan.grid_w = plan.combo_w = most;
        return plan;
    }
    plan.title_shown = false;
    const float least = frame + sp + block_min + grid_min + combo_min;
    if (room >= least) {  // the title's arrow, the rest shrunk towards their least
        const float shrink =
            std::clamp((room - least) / std::max(3 * most - block_min - grid_min - combo_min, 1.0f), 0.0f, 1.0f);
        plan.block_w = block_min + std::max(most - block_min, 0.0f) * shrink;
        plan.grid_w = grid_min + std::max(most - grid_min, 0.0f) * shrink;
        plan.combo_w = combo_min + (most - combo_min) * shrink;
        return plan;
    }
    plan.two_lines = true;
    plan.combo_w = most;
    plan.title_w = width - (2 * frame + 2 * sp + 2 * font + most + button_width(kBack));
    plan.title_shown = plan.title_w >= title_min;
    const float fields_room = (width - names - font - cover_w) / 2;  // the second line, its fields alike
    plan.block_w = std::max(block_min, std::min(most, fields_room));
    plan.grid_w = std::max(grid_min, std::min(most, fields_room));
    return plan;
}

}  // namespace

float launch_bar_height(const ResolvedLaunch& resolved, float width) {
    const float lines = plan_bar(resolved, width).two_lines ? 2 : 1;
    const ImGuiStyle& style = ImGui::GetStyle();
    return lines * ImGui::GetFrameHeight() + (lines - 1) * style.ItemSpacing.y + 2 * style.WindowPadding.y;
}

namespace {

// The lesson's list between its previous and next arrows.
void lesson_picker(AppState& state, const BarPlan& plan) {
    if (ImGui::ArrowButton("##previous-lesson", ImGuiDir_Left)) step_lesson(state, -1);
    remember_rect(state, "lesson:previous");
    ImGui::SameLine();
    const Lesson* current = find_lesson(state.edit.preset);
    if (plan.title_shown) ImGui::SetNextItemWidth(plan.title_w);
    if (ImGui::BeginCombo("##lesson", current ? current->title.c_str() : "(your own launch)",
                          plan.title_shown ? 0 : ImGuiComboFlags_NoPreview)) {
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
}

// blockDim, gridDim and the covering grid's button; true when the launch changed.
bool launch_fields(AppState& state, const BarPlan& plan) {
    ResolvedLaunch& resolved = state.edit;
    bool changed = false;
    ImGui::TextColored(block_dim_color(), "blockDim");
    ImGui::SameLine();
    changed |= dim3_fields(state, "blockDim", resolved.launch.block, plan.block_w);
    ImGui::SameLine(0, ImGui::GetFontSize());
    ImGui::TextColored(grid_dim_color(), "gridDim");
    ImGui::SameLine();
    changed |= dim3_fields(state, "gridDim", resolved.launch.grid, plan.grid_w);
    if (const Dim3 cover = covering_grid_of(resolved); !(cover == resolved.launch.grid)) {
        ImGui::SameLine();
        if (ImGui::Button(cover_text(cover).c_str())) {
            resolved.launch.grid = cover;
            changed = true;
        }
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", covering_grid_words(resolved).c_str());
        remember_rect(state, "fix-grid");
    }
    return changed;
}

// The colour mode and the way back to the panels.
void display_controls(AppState& state, const BarPlan& plan) {
    color_mode_combo(state, plan.combo_w);
    ImGui::SameLine(0, ImGui::GetFontSize());
    if (ImGui::Button(kBack)) state.settings.presentation = false;
    remember_rect(state, "presentation");
}

}  // namespace

void draw_launch_bar(AppState& state) {
    const float font = ImGui::GetFontSize();
    const BarPlan plan = plan_bar(state.edit, ImGui::GetContentRegionAvail().x);
    lesson_picker(state, plan);
    ImGui::SameLine(0, font);
    bool changed = false;
    if (plan.two_lines) {  // the launch on a line of its own
        display_controls(state, plan);
        changed = launch_fields(state, plan);
    } else {
        changed = launch_fields(state, plan);
        ImGui::SameLine(0, font);
        display_controls(state, plan);
    }
    if (changed) mark_launch_edited(state);
}

}  // namespace threadmap
