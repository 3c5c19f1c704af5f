// Display panel; see display_panel.hpp.
#include "app/panels/display_panel.hpp"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <utility>
#include <vector>

#include "viz/draw/legend.hpp"
#include "app/panels/panel_widgets.hpp"

namespace threadmap {

namespace {

// The colour modes, related ones on one row (short labels, the full title as a tooltip and the
// legend's: "SM of the block (one possible order)"): the list stays short enough to leave the
// export controls in view on a laptop's screen.
struct ModeRow {
    const char* lead;  // before the buttons, or null
    std::vector<std::pair<ColorMode, const char*>> modes;
};

const std::vector<ModeRow>& mode_rows() {
    static const std::vector<ModeRow> rows = {
        {nullptr, {{ColorMode::Block, "blockIdx"}}},
        {"threadIdx", {{ColorMode::ThreadX, ".x"}, {ColorMode::ThreadY, ".y"}, {ColorMode::ThreadZ, ".z"}}},
        {nullptr, {{ColorMode::Global, "global index (cuda.grid)"}}},
        {nullptr, {{ColorMode::Warp, "warp"}, {ColorMode::Lane, "lane"}, {ColorMode::Coverage, "coverage"}}},
        {nullptr, {{ColorMode::Sm, "SM"}, {ColorMode::Wave, "wave"}}},
        {"per request", {{ColorMode::Sectors, "sectors"}, {ColorMode::Banks, "banks"}, {ColorMode::Lanes, "lanes"}}},
        {nullptr, {{ColorMode::Findings, "findings of the kernel model"}}},
    };
    return rows;
}

// A radio button per colour mode, related ones on one row where the column is wide enough, and
// the palette.
void color_mode_buttons(AppState& state) {
    Settings& s = state.settings;
    ImGui::TextUnformatted("colour by");
    const float spacing = ImGui::GetStyle().ItemSpacing.x;
    for (const ModeRow& row : mode_rows()) {
        if (row.lead) {  // beside its buttons where they all fit the line, else on a line of its own above
            float buttons = 0;
            for (const auto& [m, label] : row.modes) buttons += spacing + box_item_width(label);
            ImGui::AlignTextToFramePadding();
            ImGui::TextUnformatted(row.lead);
            if (ImGui::CalcTextSize(row.lead).x + buttons <= ImGui::GetContentRegionAvail().x) ImGui::SameLine();
        }
        for (size_t k = 0; k < row.modes.size(); ++k) {
            const auto [m, label] = row.modes[k];
            const std::string name(color_mode_name(m));
            if (k) same_line_if_fits(box_item_width(label));
            if (wrapped_radio(label, name.c_str(), state.color_mode() == m)) {
                s.color_mode = name;
                state.pending.recolor = true;
            }
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", color_mode_title(m).c_str());
            remember_rect(state, "color:" + name);
        }
    }
    if (wrapped_checkbox("colour-blind-safe palette", "palette", &s.colorblind_palette)) state.pending.recolor = true;
    remember_rect(state, "palette");
}

// A 1D map's whole blocks per row (a wrapped block counts as one: the field takes it from
// there), the learner's number or automatic.
void blocks_per_row_field(AppState& state) {
    int per_row = int(std::max(state.picture->layout.blocks_per_row, 1u));
    if (ImGui::InputInt(place_label("blocks per row", ImGui::GetFontSize() * 7).c_str(),
                        &per_row)) {  // the learner's choice wins over auto
        state.row_width = {uint32_t(std::clamp(per_row, 1, 4096)), 0};
        state.auto_blocks_per_row = false;
        state.pending.relayout = true;
        state.requests.fit = true;
    }
    remember_rect(state, "blocks-per-row");
    same_line_if_fits(box_item_width("auto"));
    if (ImGui::Checkbox("auto", &state.auto_blocks_per_row)) state.requests.fit = true;
    remember_rect(state, "blocks-per-row-auto");
}

// PNG exports (map with its legend, or the whole window) at a scale, and the session file.
void export_buttons(AppState& state) {
    Settings& s = state.settings;
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("export PNG");
    const float scales = 3 * (ImGui::GetStyle().ItemSpacing.x + box_item_width("4x"));
    const bool beside = ImGui::CalcTextSize("export PNG").x + scales <= ImGui::GetContentRegionAvail().x;
    for (int k : {1, 2, 4}) {
        const std::string label = std::to_string(k) + "x";
        if (beside || k > 1) ImGui::SameLine();
        if (ImGui::RadioButton(label.c_str(), s.export_scale == k)) s.export_scale = k;
        remember_rect(state, "export-scale:" + std::to_string(k));
    }
    char dir[512];
    std::snprintf(dir, sizeof dir, "%s", s.export_dir.c_str());
    if (ImGui::InputText(place_label("folder", ImGui::GetFontSize() * 8).c_str(), dir, sizeof dir)) s.export_dir = dir;
    remember_rect(state, "folder");
    if (wrapped_button("map + legend (Ctrl+S)", "export-map")) state.requests.export_map = true;
    remember_rect(state, "export-map");
    const char* whole = "whole window (Ctrl+Shift+S)";
    same_line_if_fits(button_width(whole));
    if (wrapped_button(whole, "export-window")) state.requests.export_window = true;
    remember_rect(state, "export-window");
    // What is on screen as a file to hand a class: threadmap FILE (or a drop on the window) opens it.
    if (wrapped_button("Save session (.threadmap)", "save-session")) state.requests.save_session = true;
    remember_rect(state, "save-session");
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "The lesson or kernel (your text with its bindings), the launch, colour mode and tab, into "
            "the folder above. Open it with threadmap FILE, or drop it on the window.");
}

}  // namespace

void draw_display_panel(AppState& state) {
    Settings& s = state.settings;
    color_mode_buttons(state);
    if (state.picture && !state.picture->layout.is_matrix()) blocks_per_row_field(state);

    ImGui::Separator();
    if (ImGui::SliderFloat(place_label("UI scale", ImGui::GetFontSize() * 7).c_str(), &s.ui_scale,
                           Settings::kMinUiScale, Settings::kMaxUiScale, "%.2f"))
        state.requests.rescale = true;
    remember_rect(state, "ui-scale");
    same_line_if_fits(ImGui::CalcTextSize("Ctrl +/-").x);
    ImGui::TextDisabled("Ctrl +/-");
    bool light = state.theme().light;
    if (wrapped_checkbox("light theme (for a lit room)", "theme", &light)) {
        s.theme = light ? "light" : "dark";
        state.requests.rescale = true;  // the style's colours are rebuilt with the fonts
    }
    remember_rect(state, "theme");

    ImGui::Separator();
    export_buttons(state);
}

}  // namespace threadmap
