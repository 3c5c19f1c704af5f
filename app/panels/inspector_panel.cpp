// Inspector panel; see inspector_panel.hpp.
#include "inspector_panel.hpp"

#include <imgui.h>

#include "inspector_text.hpp"
#include "panel_widgets.hpp"

namespace threadmap {

void draw_inspector_panel(AppState& state) {
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
