// Stats panel; see stats_panel.hpp.
#include "app/panels/stats_panel.hpp"

#include <imgui.h>

#include <string>

#include "app/panels/panel_widgets.hpp"

namespace threadmap {

void draw_stats_panel(AppState& state) {
    if (!state.picture) return;
    const LaunchStats& s = state.picture->result.stats;
    // A model kernel's map is of one of its arrays: its active threads are those that wrote
    // (or read) that array, which says nothing of idleness (a reduction's one writer per
    // block), so there is no idle share.
    const std::optional<ModelKernel>& model = state.picture->launch.model;
    const float idle = s.threads_launched ? float(double(s.threads_idle) / double(s.threads_launched)) : 0;
    if (!model) {  // the share above its bar: written over the amber fill it read at 1.9:1 on a projector
        text_wrapped("%.1f%% of threads idle", idle * 100);
        ImGui::ProgressBar(idle, ImVec2(-1, ImGui::GetFontSize() * 0.5f), "");
    }
    if (ImGui::BeginTable("stats", 2, ImGuiTableFlags_RowBg)) {
        // The numbers as wide as they need, the labels wrapped in the rest: in a panel 200 pixels
        // wide (1280×720) "threads that wrote As (its block)" was cut to "threads that \".
        ImGui::TableSetupColumn("what", ImGuiTableColumnFlags_WidthStretch);
        ImGui::TableSetupColumn("count", ImGuiTableColumnFlags_WidthFixed);
        const auto row = [](const char* label, uint64_t v) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextWrapped("%s", label);
            ImGui::TableNextColumn();
            ImGui::Text("%llu", static_cast<unsigned long long>(v));
        };
        row("threads launched", s.threads_launched);
        if (!model) {
            row("threads active", s.threads_active);
            row("threads idle", s.threads_idle);
        } else {
            const std::string array = state.picture->launch.mapped_array();
            const std::string in_block = model->shared() ? " (its block)" : "";
            const std::string did = (model->reads ? "threads that read " : "threads that wrote ") + array;
            row((did + in_block).c_str(), s.threads_active);
            row(("threads that did not" + in_block).c_str(), s.threads_idle);
        }
        row("blocks", s.blocks);
        row("warps", s.warps);
        row("partial warps", s.partial_warps);
        row("elements", s.elements);
        row("elements untouched", s.elements_untouched);
        row(model && model->reads ? "read by 2+ threads" : "written by 2+ threads", s.elements_multi);
        ImGui::EndTable();
    }
    if (s.elements_multi > 0 && !model)
        text_wrapped(
            "Several threads write the same element: on a GPU that is a data race "
            "(the emulator runs them one after another).");
    if (s.elements_multi > 0 && model && !model->reads)
        text_wrapped("Several threads write the same element: the Findings tab says whether that is a race.");
    if (state.picture->layout.ghosts_not_drawn > 0)
        text_wrapped("%llu idle threads lie past the drawn area.",
                     static_cast<unsigned long long>(state.picture->layout.ghosts_not_drawn));
}

}  // namespace threadmap
