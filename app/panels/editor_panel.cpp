// Editor panel; see editor_panel.hpp.
#include "app/panels/editor_panel.hpp"

#include <imgui.h>
#include <imgui_internal.h>  // the input's own child window, to draw over its text
#include <imgui_stdlib.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "app/window_state/cuda_syntax.hpp"
#include "app/window_state/finding_target.hpp"
#include "app/panels/panel_widgets.hpp"
#include "app/reports/printed_report.hpp"
#include "app/window_state/settings.hpp"
#include "app/launch/source_launch.hpp"
#include "viz/draw/ui_font.hpp"

namespace threadmap {

namespace {

// A line linked to the map's hovered or pinned cell (one of its findings is there).
constexpr ImU32 kLinkedLine = IM_COL32(80, 200, 255, 110);

ImU32 syntax_color(SyntaxKind k) {
    switch (k) {
        case SyntaxKind::Keyword:
            return IM_COL32(120, 170, 255, 255);
        case SyntaxKind::Cuda:
            return IM_COL32(110, 210, 150, 255);
        case SyntaxKind::Number:
            return IM_COL32(230, 180, 110, 255);
        case SyntaxKind::String:
            return IM_COL32(215, 150, 120, 255);
        case SyntaxKind::Comment:
            return IM_COL32(125, 135, 145, 255);
        case SyntaxKind::Preprocessor:
            return IM_COL32(190, 140, 220, 255);
    }
    return IM_COL32_WHITE;
}

// Colours the input's text where it lies (`at`: its first character), over the plain text
// ImGui drew (the same glyphs at the same places, in the input's own child window, which is
// drawn over its parent), and tints the error line across the text. `clip`: what is visible.
void draw_syntax(ImDrawList* draw, const ImRect& clip, const std::string& text, ImVec2 at, float line_h, float width,
                 int error_line, const std::vector<int>& linked) {
    draw->PushClipRect(clip.Min, clip.Max);
    bool in_comment = false;
    size_t begin = 0;
    for (int line = 1; begin <= text.size(); ++line) {
        size_t end = text.find('\n', begin);
        if (end == std::string::npos) end = text.size();
        const std::string_view l(text.data() + begin, end - begin);
        const float y = at.y + float(line - 1) * line_h;
        if (line == error_line)
            draw->AddRectFilled(ImVec2(at.x - 2, y), ImVec2(at.x + width, y + line_h), IM_COL32(200, 60, 60, 45));
        else if (std::binary_search(linked.begin(), linked.end(), line))
            draw->AddRectFilled(ImVec2(at.x - 2, y), ImVec2(at.x + width, y + line_h), kLinkedLine);
        // Measured span by span from the last one's end: a line's cost is its length, whatever
        // it holds (from its start each time, a line of 6,000 numbers took 150 ms a frame).
        float x = at.x;
        size_t measured = 0;
        const bool visible = y + line_h >= clip.Min.y && y <= clip.Max.y;
        for (const SyntaxSpan& s : syntax_spans(l, in_comment)) {  // every line: a comment may open here
            if (!visible) continue;
            x += ImGui::CalcTextSize(l.data() + measured, l.data() + s.begin).x;
            if (x > clip.Max.x) break;  // the rest of the line is off to the right
            const float span_w = ImGui::CalcTextSize(l.data() + s.begin, l.data() + s.end).x;
            if (x + span_w >= clip.Min.x)
                draw->AddText(ImVec2(x, y), syntax_color(s.kind), l.data() + s.begin, l.data() + s.end);
            x += span_w;
            measured = s.end;
        }
        begin = end + 1;
    }
    draw->PopClipRect();
}

// The editor's gutter: line numbers (the error and warning lines marked, the lines linked to
// the map's hovered or pinned cell lit) and each line's count of findings.
struct Gutter {
    ImVec2 origin;  // of line 1's row, less the frame padding
    float line_h = 0, pad = 0, width = 0, counts = 0;
    int lines = 0;
    std::map<int, size_t> per_line;  // the listed findings per line (empty: no map of this text)
    std::vector<int> linked;         // lines of the findings on the map's hovered or pinned cell
};

void draw_gutter(AppState& state, const KernelEditor& editor, const Gutter& g) {
    ImDrawList* draw = ImGui::GetWindowDrawList();
    for (int line = 1; line <= g.lines; ++line) {
        const ImVec2 at(g.origin.x, g.origin.y + g.pad + float(line - 1) * g.line_h);
        const bool error = line == editor.error_line;
        const bool warned = !error && std::find(editor.warning_lines.begin(), editor.warning_lines.end(), line) !=
                                          editor.warning_lines.end();
        if (error || warned)
            draw->AddRectFilled(at, ImVec2(at.x + g.width - 2, at.y + g.line_h),
                                error ? IM_COL32(150, 40, 40, 255) : IM_COL32(120, 105, 30, 255));
        else if (std::binary_search(g.linked.begin(), g.linked.end(), line))
            draw->AddRectFilled(at, ImVec2(at.x + g.width - 2, at.y + g.line_h), kLinkedLine);
        if (ImGui::IsRectVisible(at, ImVec2(at.x + g.width, at.y + g.line_h)))  // the lines on screen, for scripts
            state.widget_rects["editor:line:" + std::to_string(line)] = {at.x, at.y, g.width, g.line_h};
        char number[16];
        std::snprintf(number, sizeof number, "%4d", line);
        draw->AddText(at, error || warned ? IM_COL32(255, 240, 230, 255) : IM_COL32(120, 130, 140, 255), number);
        if (const auto found = g.per_line.find(line); found != g.per_line.end()) {  // this line's findings
            std::snprintf(number, sizeof number, "%3zu", std::min<size_t>(found->second, 999));
            draw->AddText(ImVec2(at.x + g.width - g.counts, at.y), ImGui::GetColorU32(error_color()), number);
        }
    }
}

// The line under the mouse (the map outlines its findings' cells), and over the gutter's
// count, what it counts.
void hover_gutter(AppState& state, const Gutter& g) {
    if (!ImGui::IsWindowHovered(ImGuiHoveredFlags_ChildWindows)) return;
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    const int line = int(std::floor((mouse.y - g.origin.y - g.pad) / g.line_h)) + 1;
    state.editor_hovered_line = line >= 1 && line <= g.lines ? line : 0;
    const auto found = g.per_line.find(line);
    if (found == g.per_line.end() || mouse.x >= g.origin.x + g.width) return;
    uint64_t total = 0;
    for (uint64_t c : state.picture->findings.counts) total += c;
    const size_t listed = state.picture->findings.list.size();
    ImGui::SetTooltip(
        "%zu finding%s at line %d%s; the map outlines those on its array while the mouse is on the line", found->second,
        found->second == 1 ? "" : "s", line,
        total > listed ? (" among the first " + std::to_string(listed) + " listed of " + std::to_string(total)).c_str()
                       : "");
}

// The text beside its gutter, both in one scrolling child: the input is as tall as its text,
// so the two scroll together. With the Editor's kernel on the map the gutter is linked to it
// (draw_gutter, hover_gutter).
bool source_with_line_numbers(AppState& state, KernelEditor& e, float height) {
    ImGui::BeginChild("editor-text", ImVec2(0, height), true, ImGuiWindowFlags_HorizontalScrollbar);
    ImGui::PushFont(mono_font());
    Gutter g;
    g.lines = int(std::count(e.text.begin(), e.text.end(), '\n')) + 1;
    g.line_h = ImGui::GetTextLineHeight();
    g.pad = ImGui::GetStyle().FramePadding.y;
    if (map_shows_editor_kernel(state) && !e.edited) {  // its findings' lines are this text's
        g.per_line = findings_per_line(*state.picture);
        if (const std::optional<glm::ivec2> cell = state.inspected_cell())
            g.linked = finding_lines_at(*state.picture, *cell);
    }
    g.counts = g.per_line.empty() ? 0.0f : ImGui::CalcTextSize("000 ").x;
    g.width = ImGui::CalcTextSize("0000 ").x + g.counts;
    g.origin = ImGui::GetCursorScreenPos();
    draw_gutter(state, e, g);
    hover_gutter(state, g);
    ImGui::SetCursorScreenPos(ImVec2(g.origin.x + g.width, g.origin.y));
    // At least as large as the visible area, so a click anywhere in it is a click in the text.
    const ImVec2 visible = ImGui::GetContentRegionAvail();
    const float width = std::max(visible.x, ImGui::CalcTextSize(e.text.c_str()).x + 20);
    const float tall = std::max(visible.y, float(g.lines + 1) * g.line_h + 2 * g.pad);
    const ImVec2 text_at(g.origin.x + g.width + ImGui::GetStyle().FramePadding.x, g.origin.y + g.pad);
    const bool edited =
        ImGui::InputTextMultiline("##source", &e.text, ImVec2(width, tall), ImGuiInputTextFlags_AllowTabInput);
    ImGuiWindow* editor = ImGui::GetCurrentWindow();
    if (!editor->DC.ChildWindows.empty()) {  // the input's window, begun last
        ImGuiWindow* input = editor->DC.ChildWindows.back();
        ImRect clip = editor->InnerClipRect;
        clip.ClipWith(input->InnerClipRect);
        draw_syntax(input->DrawList, clip, e.text, text_at, g.line_h, width, e.error_line, g.linked);
    }
    ImGui::PopFont();
    ImGui::EndChild();
    remember_rect(state, "editor:text");  // the visible area (the text itself may be wider)
    return edited;
}

// NVRTC's verdict: whether a GPU's compiler takes the text too, and how long it took.
void draw_gpu_compile(AppState& state, KernelEditor& editor) {
    if (ImGui::Button(editor.gpu_job.valid() ? "compiling for a GPU..." : "Compile for a GPU too (NVRTC)") &&
        !editor.gpu_job.valid())
        start_gpu_compile(editor);
    remember_rect(state, "editor:gpu-compile");
    if (!editor.gpu) return;
    const NvrtcCompile& g = *editor.gpu;
    ImGui::SameLine();
    const std::string earlier = editor.gpu_text == editor.text ? "" : " (of an earlier text)";
    if (!g.unavailable.empty())
        ImGui::TextDisabled("not compiled for a GPU: %s", g.unavailable.c_str());
    else if (g.compiled)
        ImGui::TextDisabled("NVRTC %s compiles it for %s in %.0f ms%s", g.version.c_str(), g.arch.c_str(),
                            g.milliseconds, earlier.c_str());
    else
        ImGui::TextColored(error_color(), "NVRTC %s does not compile it%s: %s", g.version.c_str(), earlier.c_str(),
                           g.log.substr(0, g.log.find('\n')).c_str());
}

// What the kernel printed with printf in the map's run, and in which order it ran.
void draw_printed(AppState& state, const KernelPrint& printed) {
    const std::string kernel = state.picture->launch.kernel_name();
    ImGui::PushTextWrapPos(0);
    ImGui::TextDisabled("%s", printed_heading(kernel, printed).c_str());
    ImGui::PopTextWrapPos();
    ImGui::BeginChild("editor-printed", ImVec2(0, 0), true, ImGuiWindowFlags_HorizontalScrollbar);
    ImGui::PushFont(mono_font());
    ImGui::TextUnformatted(printed.text.data(), printed.text.data() + printed.text.size());
    ImGui::PopFont();
    ImGui::EndChild();
    remember_rect(state, "editor:printed");
}

// The Run button and one line on the last run: compiled, refused, or failed as it ran.
bool run_line(AppState& state, const KernelEditor& editor) {
    const ImGuiIO& io = ImGui::GetIO();
    bool run = io.KeyCtrl && ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter), false);
    run |= ImGui::Button("Run (Ctrl+Enter)");
    remember_rect(state, "editor:run");
    ImGui::SameLine();
    // Wrapped in what is left of the line (beside a map at 1280 pixels, some 400).
    const auto say = [](const ImVec4& color, const std::string& text) {
        ImGui::PushStyleColor(ImGuiCol_Text, color);
        text_wrapped("%s", text.c_str());
        ImGui::PopStyleColor();
    };
    const ImVec4 dim = ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled);
    const std::string ms = std::to_string(int(std::lround(editor.compile_ms)));
    if (!editor.messages.empty() && editor.error_line)
        say(error_color(),
            "does not compile: line " + std::to_string(editor.error_line) + " (the map keeps the last good kernel)");
    else if (!editor.messages.empty())
        say(error_color(), "not run: see below (the map keeps the last good kernel)");
    else if (editor.running && !state.launch_error.empty())  // compiled, but the run failed (a time-out, a crash)
        say(error_color(), "compiled in " + ms + " ms, but: " + state.launch_error);
    else if (editor.running)
        say(dim, "compiled in " + ms + " ms; the map shows it (Clang, on the CPU)");
    else
        say(dim, "Ctrl+Enter runs this text on the map");
    return run;
}

// Where the map shows another kernel than this text (a lesson's, a built-in one, or any before
// the first Run), says which, with a way to open it here: a learner who opened the Editor in a
// lesson on its own kernel saw an unrelated template beside the lesson's map.
void map_kernel_notice(AppState& state, const KernelEditor& editor) {
    if (!state.picture || map_shows_editor_kernel(state) || editor.compile_job.valid() || !editor.messages.empty())
        return;
    text_wrapped("The map shows %s, not this text.", state.picture->launch.kernel_name().c_str());
    if (wrapped_button("Open the map's kernel here", "editor:open-map-kernel")) edit_launch_kernel(state);
    remember_rect(state, "editor:open-map-kernel");
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Replaces this text with the map's kernel, each parameter bound as the launch has it");
}

// Which __global__ function runs (when the file has several), each parameter's binding, the
// dynamic shared memory, and the time limit of a run (a setting). True when another kernel
// was picked (it runs at once).
bool binding_fields(AppState& state, KernelEditor& editor) {
    bool run = false;
    if (editor.kernels.size() > 1) {
        ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x * 0.5f);
        if (ImGui::BeginCombo("kernel to run", editor.entry.c_str())) {
            for (const std::string& k : editor.kernels)
                if (ImGui::Selectable(k.c_str(), k == editor.entry) && k != editor.entry) {
                    editor.entry = k;
                    run = true;
                }
            ImGui::EndCombo();
        }
        remember_rect(state, "editor:entry");
    }
    if (!editor.params.empty())
        disabled_note(
            "each array: [N] or [ROWS][COLS], of its declared type (+ :index, :ones, :random); each "
            "number: a value");
    for (size_t i = 0; i < editor.params.size() && i < editor.binds.size(); ++i) {
        const std::string label = editor.params[i].first + " (" + editor.params[i].second + ")";
        ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x * 0.5f);
        if (ImGui::InputText(label.c_str(), &editor.binds[i])) {
            editor.edited = true;
            editor.last_edit = std::chrono::steady_clock::now();
        }
        remember_rect(state, "editor:bind:" + editor.params[i].first);
    }
    if (editor.text.find("extern __shared__") != std::string::npos) {
        ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x * 0.5f);
        if (ImGui::InputText("dynamic shared memory, bytes per block", &editor.dynamic_shared)) editor.edited = true;
    }
    // A setting (kept with the others): a run past it is stopped and said so.
    double& seconds = state.settings.kernel_seconds;
    ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x * 0.25f);
    ImGui::InputDouble("##time-limit", &seconds, 0, 0, "%g");
    if (ImGui::IsItemDeactivatedAfterEdit()) {  // typed: into its range, and run with it
        state.settings = sanitized(state.settings);
        editor.edited = true;
    }
    remember_rect(state, "editor:time-limit");  // the field alone, without its label
    ImGui::SameLine();
    ImGui::TextUnformatted("time limit of a run, seconds");
    return run;
}

// Errors: the kernel did not run. Warnings: it ran as written, and a warning is often the bug
// (`if (i = n)`); shown above what it printed, in `height` (0: the rest of the panel).
void draw_messages(AppState& state, const KernelEditor& editor, bool warned, float height) {
    if (warned) ImGui::TextColored(warning_color(), "Clang's warnings (the kernel compiled and runs as written):");
    ImGui::BeginChild("editor-messages", ImVec2(0, height), true, ImGuiWindowFlags_HorizontalScrollbar);
    ImGui::PushFont(mono_font());
    ImGui::PushStyleColor(ImGuiCol_Text, warned ? warning_color() : error_color());
    ImGui::TextUnformatted(warned ? editor.warnings.c_str() : editor.messages.c_str());
    ImGui::PopStyleColor();
    ImGui::PopFont();
    ImGui::EndChild();
    remember_rect(state, "editor:messages");
}

}  // namespace

void draw_editor_panel(AppState& state) {
    KernelEditor& editor = state.editor;
    if (!source_kernels_available()) {
        text_wrapped("%s", compile_and_bind("", "", "", {}, 0, kKernelLimits).messages.c_str());
        return;
    }
    bool run = run_line(state, editor);
    draw_gpu_compile(state, editor);
    map_kernel_notice(state, editor);

    const KernelPrint* printed =
        editor.running && editor.messages.empty() && state.picture && state.picture->findings.printed.calls > 0
            ? &state.picture->findings.printed
            : nullptr;
    const float row = ImGui::GetFrameHeightWithSpacing();
    const bool warned = editor.messages.empty() && !editor.warnings.empty();
    const float below = row * float(editor.params.size() + 3 + (editor.kernels.size() > 1)) +
                        (editor.messages.empty() && !warned ? 0 : row * 6) + (printed ? row * 7 : 0);
    const float text_h = std::max(row * 4, ImGui::GetContentRegionAvail().y - below);
    if (source_with_line_numbers(state, editor, text_h)) {
        editor.edited = editor.unsaved = true;
        editor.last_edit = std::chrono::steady_clock::now();
    }
    run |= binding_fields(state, editor);
    if (!editor.messages.empty() || warned) draw_messages(state, editor, warned, printed ? row * 4 : 0);
    if (printed) draw_printed(state, *printed);
    if (run) run_and_save_editor(state);
}

}  // namespace threadmap
