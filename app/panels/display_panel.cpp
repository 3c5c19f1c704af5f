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

// The colour modes, related ones on one row (short labels, the full title as a tooltip): the
// list stays short enough to leave the export controls in view on a laptop's screen.
struct ModeRow {
    const char* lead;  // before the buttons, or null
    std::vector<std::pair<ColorMode, const char*>> modes;
    const char* tail;  // after them, or null
};

const std::vector<ModeRow>& mode_rows() {
    static const std::vector<ModeRow> rows = {
        {nullptr, {{ColorMode::Block, "blockIdx"}}, nullptr},
        {"threadIdx", {{ColorMode::ThreadX, ".x"}, {ColorMode::ThreadY, ".y"}, {ColorMode::ThreadZ, ".z"}}, nullptr},
        {nullptr, {{ColorMode::Global, "global index, cuda.grid (x fastest)"}}, nullptr},
        {nullptr, {{ColorMode::Warp, "warp"}, {ColorMode::Lane, "lane"}, {ColorMode::Coverage, "coverage"}}, nullptr},
        {nullptr, {{ColorMode::Sm, "SM"}, {ColorMode::Wave, "wave"}}, "(one possible order)"},
        {"per request",
         {{ColorMode::Sectors, "sectors"}, {ColorMode::Banks, "banks"}, {ColorMode::Lanes, "lanes"}},
         nullptr},
        {nullptr, {{ColorMode::Findings, "findings of the kernel model"}}, nullptr},
    };
    return rows;
}

// A radio button per colour mode, related ones on one row, and the palette.
void color_mode_buttons(AppState& state) {
    Settings& s = state.settings;
    ImGui::TextUnformatted("colour by");
    for (const ModeRow& row : mode_rows()) {
        if (row.lead) {
            ImGui::TextUnformatted(row.lead);
            ImGui::SameLine();
        }
        for (size_t k = 0; k < row.modes.size(); ++k) {
            const auto [m, label] = row.modes[k];
            const std::string name(color_mode_name(m));
            if (k) ImGui::SameLine();
            if (ImGui::RadioButton(label, state.color_mode() == m)) {
                s.color_mode = name;
                state.pending.recolor = true;
            }
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", color_mode_title(m).c_str());
            remember_rect(state, "color:" + name);
        }
        if (row.tail) {
            ImGui::SameLine();
            ImGui::TextDisabled("%s", row.tail);
        }
    }
    if (ImGui::Checkbox("colour-blind-safe palette", &s.colorblind_palette)) state.pending.recolor = true;
}

// A 1D map's whole blocks per row (a wrapped block counts as one: the field takes it from
// there), the learner's number or automatic.
void blocks_per_row_field(AppState& state) {
    int per_row = int(std::max(state.picture->layout.blocks_per_row, 1u));
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7);
    if (ImGui::InputInt("blocks per row", &per_row)) {  // the learner's choice wins over auto
        state.row_width = {uint32_t(std::clamp(per_row, 1, 4096)), 0};
        state.auto_blocks_per_row = false;
        state.pending.relayout = true;
        state.requests.fit = true;
    }
    remember_rect(state, "blocks-per-row");
    ImGui::SameLine();
    if (ImGui::Checkbox("auto", &state.auto_blocks_per_row)) state.requests.fit = true;
    remember_rect(state, "blocks-per-row-auto");
}

// PNG exports (map with its legend, or the whole window) at a scale, and the session file.
void export_buttons(AppState& state) {
    Settings& s = state.settings;
    ImGui::TextUnformatted("export PNG");
    for (int k : {1, 2, 4}) {
        ImGui::SameLine();
        if (ImGui::RadioButton((std::to_string(k) + "x").c_str(), s.export_scale == k)) s.export_scale = k;
        remember_rect(state, "export-scale:" + std::to_string(k));
    }
    char dir[512];
    std::snprintf(dir, sizeof dir, "%s", s.export_dir.c_str());
    if (ImGui::InputText("folder", dir, sizeof dir)) s.export_dir = dir;
    remember_rect(state, "folder");
    if (ImGui::Button("map + legend (Ctrl+S)")) state.requests.export_map = true;
    remember_rect(state, "export-map");
    ImGui::SameLine();
    if (ImGui::Button("whole window (Ctrl+Shift+S)")) state.requests.export_window = true;
    remember_rect(state, "export-window");
    // What is on screen as a file to hand a class: threadmap FILE (or a drop on the window) opens it.
    if (ImGui::Button("Save session (.threadmap)")) state.requests.save_session = true;
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
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7);
    if (ImGui::SliderFloat("UI scale", &s.ui_scale, Settings::kMinUiScale, Settings::kMaxUiScale, "%.2f"))
        state.requests.rescale = true;
    ImGui::SameLine();
    ImGui::TextDisabled("Ctrl +/-");
    bool light = state.theme().light;
    if (ImGui::Checkbox("light theme (a lit room, a projector)", &light)) {
        s.theme = light ? "light" : "dark";
        state.requests.rescale = true;  // the style's colours are rebuilt with the fonts
    }
    remember_rect(state, "theme");

    ImGui::Separator();
    export_buttons(state);
}

}  // namespace threadmap
