// Findings panel; see findings_panel.hpp.
#include "findings_panel.hpp"

#include <imgui.h>

#include <algorithm>

#include "findings_report.hpp"
#include "panel_widgets.hpp"

namespace threadmap {

namespace {

// The finding's element in the mapped array, if it is one (not another array, not past the end).
std::optional<uint64_t> mapped_element(const MapPicture& p, const Finding& f) {
    if (f.array != p.findings.output || f.index.empty()) return std::nullopt;
    // A __shared__ array's map is one block's copy: findings of other blocks are not on it.
    const auto& model = p.launch.model;
    if (model && model->shared() && (f.threads.empty() || !(f.threads.front().block == model->shared_block)))
        return std::nullopt;
    const Workload& w = p.launch.workload;
    const uint64_t e = f.index.size() == 2 ? f.index[0] * w.cols + f.index[1] : f.index[0];
    return e < element_count(w) ? std::optional<uint64_t>(e) : std::nullopt;
}

void go_to(AppState& state, uint64_t element) {
    const MapLayout& layout = state.picture->layout;
    uint32_t x = 0, y = 0;
    layout.cell_of(element, x, y);
    state.pinned_cell = glm::ivec2(int(x), int(y));
    state.view.center = {x + 0.5, y + 0.5};
    state.view.zoom = std::max(state.view.zoom, 24.0);
    state.view_is_fit = false;
}

}  // namespace

void draw_findings_panel(AppState& state) {
    if (!state.picture) return;
    const PictureFindings& f = state.picture->findings;
    if (!f.not_checked.empty()) {
        ImGui::TextWrapped("%s", f.not_checked.c_str());
        return;
    }
    ImGui::TextWrapped("%s.", findings_summary(f.counts).c_str());
    disabled_note("The emulator's model of CUDA's rules, not a GPU's observation.");
    colour_map_button(state, ("Colour " + f.output + " by findings").c_str(), "findings", "findings");
    if (f.list.empty()) return;
    disabled_note("Click one on " + f.output + " to see its element.");
    ImGui::Separator();
    for (size_t i = 0; i < f.list.size(); ++i) {
        const Finding& finding = f.list[i];
        const auto element = mapped_element(*state.picture, finding);
        ImGui::PushID(int(i));
        const std::string label = std::string(finding_kind_name(finding.kind)) + ": " + finding.message;
        if (element) {  // a selectable the height of the wrapped text, the text drawn over it
            const ImVec2 at = ImGui::GetCursorPos();
            const float h = ImGui::CalcTextSize(label.c_str(), nullptr, false, ImGui::GetContentRegionAvail().x).y;
            if (ImGui::Selectable("##finding", false, 0, ImVec2(0, h))) go_to(state, *element);
            remember_rect(state, "finding:" + std::to_string(i));
            ImGui::SetCursorPos(at);
        }
        ImGui::TextWrapped("%s", label.c_str());
        ImGui::Separator();
        ImGui::PopID();
    }
    uint64_t total = 0;
    for (uint64_t c : f.counts) total += c;
    if (total > f.list.size())
        ImGui::TextDisabled("... and %llu more (threadmap check --format json lists up to 1000)",
                            static_cast<unsigned long long>(total - f.list.size()));
}

}  // namespace threadmap
