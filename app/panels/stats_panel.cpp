// Stats panel; see stats_panel.hpp.
#include "app/panels/stats_panel.hpp"

#include <imgui.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "app/panels/panel_widgets.hpp"

namespace threadmap {

namespace {

// The widest word of the labels and the widest number, in pixels at the current font.
std::pair<float, float> widest_word_and_number(const std::vector<std::pair<std::string, uint64_t>>& rows) {
    float word = 0, number = 0;
    for (const auto& [label, value] : rows) {
        for (size_t at = 0; at < label.size();) {
            const size_t end = std::min(label.find(' ', at), label.size());
            word = std::max(word, ImGui::CalcTextSize(label.c_str() + at, label.c_str() + end).x);
            at = end + 1;
        }
        number = std::max(number, ImGui::CalcTextSize(std::to_string(value).c_str()).x);
    }
    return {word, number};
}

// Label and number side by side, the numbers as wide as they need and the labels wrapped in the
// rest: in a panel 200 pixels wide (1280×720) "threads that wrote As (its block)" was cut to
// "threads that \". Where even a label's longest word would not fit beside the numbers (a raised
// UI scale: "thread" / "s launch" / "ed"), each number goes under its label.
void draw_stats_table(const std::vector<std::pair<std::string, uint64_t>>& rows) {
    const auto [word, number] = widest_word_and_number(rows);
    const float spacing = ImGui::GetStyle().CellPadding.x * 4;
    const bool stacked = word + number + spacing > ImGui::GetContentRegionAvail().x;
    if (!ImGui::BeginTable("stats", stacked ? 1 : 2, ImGuiTableFlags_RowBg)) return;
    ImGui::TableSetupColumn("what", ImGuiTableColumnFlags_WidthStretch);
    if (!stacked) ImGui::TableSetupColumn("count", ImGuiTableColumnFlags_WidthFixed);
    for (const auto& [label, value] : rows) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextWrapped("%s", label.c_str());
        if (!stacked) ImGui::TableNextColumn();
        ImGui::Text("%llu", static_cast<unsigned long long>(value));
    }
    ImGui::EndTable();
}

}  // namespace

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
    std::vector<std::pair<std::string, uint64_t>> rows = {{"threads launched", s.threads_launched}};
    if (!model) {
        rows.push_back({"threads active", s.threads_active});
        rows.push_back({"threads idle", s.threads_idle});
    } else {
        const std::string array = state.picture->launch.mapped_array();
        const std::string in_block = model->shared() ? " (its block)" : "";
        // "an element of": a thread whose only write lies past the array's end (missing-guard's 12)
        // wrote none of them; "threads that did not" beside the map's writes past the end read as wrong.
        const std::string verb = model->reads ? "read" : "wrote";
        rows.push_back({"threads that " + verb + " an element of " + array + in_block, s.threads_active});
        rows.push_back({"threads that " + verb + " none of its elements" + in_block, s.threads_idle});
    }
    rows.push_back({"blocks", s.blocks});
    rows.push_back({"warps", s.warps});
    rows.push_back({"partial warps", s.partial_warps});
    rows.push_back({"elements", s.elements});
    rows.push_back({"elements untouched", s.elements_untouched});
    rows.push_back({model && model->reads ? "read by 2+ threads" : "written by 2+ threads", s.elements_multi});
    draw_stats_table(rows);
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
