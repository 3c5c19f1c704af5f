// Inspector panel; see inspector_panel.hpp.
#include "app/panels/inspector_panel.hpp"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <utility>

#include "app/window_state/inspector_text.hpp"
#include "app/panels/panel_widgets.hpp"

namespace threadmap {

namespace {

// "Go to element": i (a 1D array) or i, j (a matrix); Enter centres the map on it and pins it.
void go_to_element(AppState& state) {
    if (!state.picture) return;
    const std::vector<uint64_t> shape = map_shape(state.picture->launch.workload);
    const std::string label = place_label("go to element", ImGui::GetFontSize() * 8);
    if (std::exchange(state.requests.focus_go_to, false)) ImGui::SetKeyboardFocusHere();
    const bool entered = ImGui::InputTextWithHint(label.c_str(), shape.size() == 2 ? "row, column" : "index",
                                                  &state.go_to_text, ImGuiInputTextFlags_EnterReturnsTrue);
    remember_rect(state, "go-to-element");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Ctrl+G");
    if (entered) {
        const auto element = parse_element(state.go_to_text, shape);
        state.go_to_error = element.error;
        if (element.value) pin_element(state, *element.value);
    }
    if (!state.go_to_error.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, error_color());
        text_wrapped("%s", state.go_to_error.c_str());
        ImGui::PopStyleColor();
    }
}

// Every thread that touched the pinned element, as the kernel model finds them: how many
// first (the list can be long), then the first WatchedElement::kListed in the order they ran.
void draw_touchers(AppState& state) {
    const MapPicture& picture = *state.picture;
    const auto element = picture.layout.element_at(uint32_t(state.pinned_cell->x), uint32_t(state.pinned_cell->y));
    want_touchers(state.touchers, picture, element);
    if (!element) return;
    const TouchersJob& job = state.touchers;
    ImGui::Spacing();
    remember_rect(state, "touchers");
    if (job.running()) {
        ImGui::TextDisabled("Finding every thread that touched it...");
        return;
    }
    if (!job.error.empty()) {
        text_wrapped("Which threads touched it was not found: %s", job.error.c_str());
        return;
    }
    if (!job.result) return;
    const WatchedElement& w = *job.result;
    if (w.threads == 0) {
        text_wrapped("No thread loads, stores or makes an atomic on it.");
        return;
    }
    text_wrapped("Touched by %llu thread%s (%llu access%s)%s:", (unsigned long long)w.threads,
                 w.threads == 1 ? "" : "s", (unsigned long long)w.accesses, w.accesses == 1 ? "" : "es",
                 w.threads > w.listed.size() ? ", the first in the order they ran" : "");
    for (const ElementToucher& t : w.listed) {
        ImGui::Bullet();
        text_wrapped("%s", toucher_text(t, picture.launch.launch).c_str());
    }
}

}  // namespace

void draw_inspector_panel(AppState& state) {
    go_to_element(state);
    if (state.picture && !state.pinned_cell) want_touchers(state.touchers, *state.picture, std::nullopt);
    const auto cell = state.inspected_cell();
    if (!state.picture || !cell) {
        text_wrapped("Hover over a cell of the map to see which thread wrote it; click to pin it.");
        return;
    }
    const CellDescription d = describe_cell(*state.picture, cell->x, cell->y);
    if (d.heading.empty()) {
        ImGui::TextDisabled("(no element and no thread here)");
        return;
    }
    text_wrapped("%s%s", d.heading.c_str(), state.pinned_cell ? "   [pinned: click it again to release]" : "");
    if (ImGui::BeginTable("cell", 2, ImGuiTableFlags_RowBg)) {
        // Half the width each, both wrapping: a fixed label column ("blockDim (threads per
        // block)") would leave the values a few pixels in a narrow inspector.
        ImGui::TableSetupColumn("what", ImGuiTableColumnFlags_WidthStretch, 1.0f);
        ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch, 1.0f);
        for (const auto& [label, value] : d.fields) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            const bool block_dim = label.rfind("blockDim", 0) == 0, grid_dim = label.rfind("gridDim", 0) == 0;
            if (block_dim || grid_dim)
                ImGui::PushStyleColor(ImGuiCol_Text, block_dim ? block_dim_color() : grid_dim_color());
            text_wrapped("%s", label.c_str());
            if (block_dim || grid_dim) ImGui::PopStyleColor();
            ImGui::TableNextColumn();
            text_wrapped("%s", value.c_str());
        }
        ImGui::EndTable();
    }
    for (const auto& f : d.formulas) text_wrapped("%s", f.c_str());
    if (state.pinned_cell) draw_touchers(state);
    ImGui::Spacing();
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    text_wrapped("blockDim is the shape of one block; gridDim is how many blocks the grid has.");
    ImGui::PopStyleColor();
}

}  // namespace threadmap
