// Code panel; see code_panel.hpp.
#include "app/panels/code_panel.hpp"

#include <imgui.h>

#include <algorithm>
#include <cctype>
#include <string>

#include "app/window_state/kernel_code.hpp"
#include "app/launch/lessons.hpp"
#include "app/panels/panel_widgets.hpp"
#include "app/launch/source_launch.hpp"

namespace threadmap {

namespace {

// Where a line of code's number (if it has one) and its code start: past the leading spaces,
// and past the number and the spaces after it.
struct LineParts {
    size_t number = std::string::npos;  // npos: no line number
    size_t number_end = 0, code = 0;
};
LineParts parts_of(const std::string& text) {
    LineParts p;
    p.code = std::min(text.find_first_not_of(' '), text.size());
    if (p.code == text.size() || !std::isdigit(static_cast<unsigned char>(text[p.code]))) return p;
    p.number = p.code;
    p.number_end = std::min(text.find_first_not_of("0123456789", p.number), text.size());
    p.code = std::min(text.find_first_not_of(' ', p.number_end), text.size());
    return p;
}

// `text` with the spaces before its line number as wide as its digits (U+2007, a figure space):
// padded with spaces, numbers from 10 on sat a space right of those below 10.
std::string with_figure_spaces(const std::string& text) {
    const size_t number = parts_of(text).number;
    if (number == std::string::npos) return text;
    std::string padded;
    for (size_t i = 0; i < number; ++i) padded += "\u2007";
    return padded + text.substr(number);
}

// A line of code in the column's width: where it does not fit (a projector's column shows some 22
// characters, and the line a lesson is about was off-screen), it goes on over the next lines,
// indented past where its code starts, so that its line number and nesting stay readable.
void code_line(const std::string& text) {
    const float width = ImGui::GetContentRegionAvail().x;
    if (const std::string shown = with_figure_spaces(text); ImGui::CalcTextSize(shown.c_str()).x <= width)
        return ImGui::TextUnformatted(shown.c_str());
    // Indentation deeper than a third of the column (a parameter list aligned under its
    // parenthesis) shrinks to it: else the line number stood alone on its line.
    std::string line = text;
    LineParts p = parts_of(line);
    while (p.code > p.number_end + 2 && ImGui::CalcTextSize(line.substr(0, p.code).c_str()).x > width / 3) {
        line.erase(p.number_end, 1);
        --p.code;
    }
    std::string hang(p.code + 4, ' ');
    while (hang.size() > 1 && ImGui::CalcTextSize(hang.c_str()).x > width / 3) hang.pop_back();
    // The first line takes the column's width, the rest what the hang leaves.
    const std::string shown = with_figure_spaces(line);
    const std::string all = wrap_to_width(shown, width);
    std::string indented = all.substr(0, all.find('\n'));
    const std::string rest = shown.substr(std::min(shown.find_first_not_of(' ', indented.size()), shown.size()));
    if (!rest.empty())
        for (const char c : "\n" + wrap_to_width(rest, width - ImGui::CalcTextSize(hang.c_str()).x))
            indented += c == '\n' ? "\n" + hang : std::string(1, c);
    ImGui::TextUnformatted(indented.c_str());
}

void show(const std::vector<CodeLine>& lines) {
    for (const auto& l : lines) {
        if (l.note) {
            text_wrapped("%s", l.text.c_str());
            continue;
        }
        const bool coloured = l.guard || l.launch;
        if (coloured) ImGui::PushStyleColor(ImGuiCol_Text, l.guard ? guard_color() : grid_dim_color());
        code_line(l.guard ? l.text + "   <- guard" : l.text);
        if (coloured) ImGui::PopStyleColor();
    }
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
    if (ImGui::BeginTabBar("languages")) {
        if (ImGui::BeginTabItem("numba")) {  // "numba (Python)" was cut to "numba (P..." at 1280 px
            show(numba_code(resolved.workload, resolved.launch, o));
            ImGui::EndTabItem();
        }
        if (ImGui::BeginTabItem("CUDA C++")) {
            show(cuda_code(resolved.workload, resolved.launch, o));
            ImGui::EndTabItem();
        }
        ImGui::EndTabBar();
    }
    // Under the code, not over it: above the numba tab it read as a description of the Python.
    ImGui::Separator();
    disabled_note("The Timing tab models one of these programs: " + describe(o.program) + ".");
    disabled_note("numba: kernel[blocks per grid, threads per block]; CUDA: <<<gridDim, blockDim>>>");
}

}  // namespace threadmap
