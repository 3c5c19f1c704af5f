// Code panel; see code_panel.hpp.
#include "app/panels/code_panel.hpp"

#include <imgui.h>

#include "app/window_state/kernel_code.hpp"
#include "app/launch/lessons.hpp"
#include "app/panels/panel_widgets.hpp"
#include "app/launch/source_launch.hpp"

namespace threadmap {

namespace {

// Code keeps its lines: in a box of its own that scrolls sideways, the column's width whatever
// the longest line (a projector's narrow column would cut them).
void show(const std::vector<CodeLine>& lines) {
    const ImGuiStyle& style = ImGui::GetStyle();
    const float height =
        float(lines.size()) * ImGui::GetTextLineHeightWithSpacing() + style.ScrollbarSize + style.WindowPadding.y;
    ImGui::BeginChild("code", ImVec2(0, height), false, ImGuiWindowFlags_HorizontalScrollbar);
    for (const auto& l : lines) {
        if (l.guard)
            ImGui::TextColored(guard_color(), "%s   <- guard", l.text.c_str());
        else if (l.launch)
            ImGui::TextColored(grid_dim_color(), "%s", l.text.c_str());
        else if (l.note)
            text_wrapped("%s", l.text.c_str());
        else
            ImGui::TextUnformatted(l.text.c_str());
    }
    ImGui::EndChild();
}

}  // namespace

void draw_code_panel(AppState& state) {
    const ResolvedLaunch& resolved = state.picture ? state.picture->launch : state.edit;
    if (source_kernels_available()) {
        if (ImGui::Button("Edit this kernel")) edit_launch_kernel(state);
        remember_rect(state, "code:edit");
        const char* what = "its CUDA C++ in the Editor tab, to change and run";
        same_line_if_fits(ImGui::CalcTextSize(what).x);
        disabled_note(what);
    }
    if (!resolved.model && !resolved.workload.kernel) {  // no launch resolved (a lesson that failed to open)
        ImGui::TextDisabled("no kernel chosen");
        return;
    }
    if (resolved.model || !has_tutorial_text(resolved.workload)) {
        // The kernel model's kernels (and a fast body the tutorial does not teach): their CUDA
        // C++, whose lines the findings name.
        const KernelSpec& spec = resolved.spec();
        text_wrapped("%s: %s", spec.name.c_str(), spec.summary.c_str());
        show(model_kernel_code(spec, resolved.launch));
        return;
    }
    CodeOptions o;
    o.program = state.timing.program;
    o.pinned = state.timing.pinned;
    const Lesson* lesson = find_lesson(resolved.preset);
    o.store_in_loop = lesson && lesson->store_in_loop && lesson->workload == resolved.workload;
    text_wrapped("The Timing tab models this program: %s.", describe(o.program).c_str());
    if (ImGui::BeginTabBar("languages")) {
        if (ImGui::BeginTabItem("numba (Python)")) {
            show(numba_code(resolved.workload, resolved.launch, o));
            ImGui::EndTabItem();
        }
        if (ImGui::BeginTabItem("CUDA C++")) {
            show(cuda_code(resolved.workload, resolved.launch, o));
            ImGui::EndTabItem();
        }
        ImGui::EndTabBar();
    }
    disabled_note("numba: kernel[blocks per grid, threads per block]; CUDA: <<<gridDim, blockDim>>>");
}

}  // namespace threadmap
