// Inspector panel; see inspector_panel.hpp.
#include "inspector_panel.hpp"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <utility>

#include "inspector_text.hpp"
#include "panel_widgets.hpp"

namespace threadmap {

namespace {

// "Go to element": i (a 1D array) or i, j (a matrix); Enter centres the map on it and pins it.
void go_to_element(AppState& state) {
    if (!state.picture) return;
    const std::vector<uint64_t> shape = map_shape(state.picture->launch.workload);
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
    if (std::exchange(state.requests.focus_go_to, false)) ImGui::SetKeyboardFocusHere();
    const bool entered = ImGui::InputTextWithHint("go to element (Ctrl+G)", shape.size() == 2 ? "row, column" : "index",
                                                  &state.go_to_text, ImGuiInputTextFlags_EnterReturnsTrue);
    remember_rect(state, "go-to-element");
    if (entered) {
        const auto element = parse_element(state.go_to_text, shape);
        state.go_to_error = element.error;
        if (element.value) pin_element(state, *element.value);
    }
    if (!state.go_to_error.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, kErrorColor);
        ImGui::TextWrapped("%s", state.go_to_error.c_str());
        ImGui::PopStyleColor();
    }
}

}  // namespace

void draw_inspector_panel(AppState& state) {
    go_to_element(state);
    const auto cell = state.inspected_cell();
    if (!state.picture || !cell) {
        ImGui::TextWrapped("Hover over a cell of the map to see which thread wrote it; click to pin it.");
        return;
    }
    const CellDescription d = describe_cell(*state.picture, cell->x, cell->y);
    if (d.heading.empty()) {
        ImGui::TextDisabled("(no element and no thread here)");
        return;
    }
    ImGui::TextWrapped("%s%s", d.heading.c_str(), state.pinned_cell ? "   [pinned: click it again to release]" : "");
    if (ImGui::BeginTable("cell", 2, ImGuiTableFlags_RowBg)) {
        ImGui::TableSetupColumn("what", ImGuiTableColumnFlags_WidthFixed);
        ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch);
        for (const auto& [label, value] : d.fields) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            const bool block_dim = label.rfind("blockDim", 0) == 0, grid_dim = label.rfind("gridDim", 0) == 0;
            if (block_dim || grid_dim)
                ImGui::TextColored(block_dim ? kBlockDimColor : kGridDimColor, "%s", label.c_str());
            else
                ImGui::TextUnformatted(label.c_str());
            ImGui::TableNextColumn();
            ImGui::TextWrapped("%s", value.c_str());
        }
        ImGui::EndTable();
    }
    for (const auto& f : d.formulas) ImGui::TextWrapped("%s", f.c_str());
    ImGui::Spacing();
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("blockDim is the shape of one block; gridDim is how many blocks the grid has.");
    ImGui::PopStyleColor();
}

}  // namespace threadmap
