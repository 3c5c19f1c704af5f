// Main layout; see main_layout.hpp.
#include "app/window/main_layout.hpp"

#include <GLFW/glfw3.h>  // key codes only: ImGui 1.86's GLFW backend indexes KeysDown by them
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "app/panels/code_panel.hpp"
#include "app/panels/panel_widgets.hpp"
#include "app/panels/controls_panel.hpp"
#include "app/panels/display_panel.hpp"
#include "app/panels/findings_panel.hpp"
#include "app/panels/inspector_panel.hpp"
#include "app/panels/launch_bar.hpp"
#include "app/panels/lesson_card.hpp"
#include "app/panels/lessons_panel.hpp"
#include "app/panels/editor_panel.hpp"
#include "app/panels/memory_panel.hpp"
#include "app/panels/occupancy_panel.hpp"
#include "app/panels/stats_panel.hpp"
#include "app/panels/timing_panel.hpp"
#include "app/reports/lesson_text.hpp"
#include "viz/layout/window_layout.hpp"

namespace threadmap {

namespace {

// A vertical bar between columns at `x`; dragging it changes `width` (in unscaled pixels).
void splitter(const char* id, ImVec2 origin, double x, double w, double height, float& width, float direction,
              float scale) {
    ImGui::SetCursorScreenPos(ImVec2(origin.x + float(x), origin.y));
    ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_Separator));
    ImGui::Button(id, ImVec2(float(w), float(height)));
    ImGui::PopStyleColor();
    if (ImGui::IsItemActive())
        width = std::clamp(width + direction * ImGui::GetIO().MouseDelta.x / scale, 200.0f, 1200.0f);
    if (ImGui::IsItemHovered() || ImGui::IsItemActive()) ImGui::SetMouseCursor(ImGuiMouseCursor_ResizeEW);
}

// A child window over `r` (relative to `origin`).
bool begin_region(const char* id, ImVec2 origin, const ViewRect& r, bool border, ImGuiWindowFlags flags = 0) {
    ImGui::SetCursorScreenPos(ImVec2(origin.x + float(r.x), origin.y + float(r.y)));
    return ImGui::BeginChild(id, ImVec2(float(std::max(r.w, 1.0)), float(std::max(r.h, 1.0))), border, flags);
}

// The status bar: the backend, where colours were painted, update and frame times, and the
// last message (an export, a settings file, a refusal) — in full: on the same line when it
// fits, else wrapped on lines of its own below.
struct StatusBar {
    std::string facts;  // everything before the message
    bool message_below = false;
    float height = 0;
    float wrap_width = 0;
};

StatusBar layout_status_bar(const AppState& state) {
    StatusBar bar;
    bar.facts = state.backend_line;
    // Whatever the backend: see map_picture ("on the CPU" only beside a GPU's name: said once, the
    // line fits a 1280-pixel projector's width).
    if (state.picture && state.picture->launch.model)
        bar.facts += state.backend && state.backend->cuda ? " | this map: the kernel model, on the CPU"
                                                          : " | this map: the kernel model";
    if (!state.paint_line.empty()) bar.facts += " | " + state.paint_line;
    char times[160];
    const bool kept = state.last_map_change == AppState::MapChange::Kept;
    char redrawn[48] = "";
    if (state.last_map_change == AppState::MapChange::Redrawn)
        std::snprintf(redrawn, sizeof redrawn, ", redrawn in %.0f ms", state.last_redraw_ms);
    std::snprintf(times, sizeof times, " | %s in %.0f ms%s | %.1f ms/frame",
                  kept ? "map kept from before, shown" : "map updated", state.last_update_ms, redrawn,
                  1000.0 / std::max(ImGui::GetIO().Framerate, 0.001f));
    bar.facts = keep_numbers_whole(bar.facts + times);  // wrapped in a narrow window
    const ImGuiStyle& style = ImGui::GetStyle();
    const float width = std::max(ImGui::GetContentRegionAvail().x - 2 * style.ItemSpacing.x, 1.0f);
    const std::string message = state.message.empty() ? "" : " | " + state.message;
    // (With no message, nothing goes below: a wrapped line of facts made room for an empty one, a
    // blank strip under the status bar at a raised UI scale.)
    bar.message_below = !message.empty() && ImGui::CalcTextSize((bar.facts + message).c_str()).x > width;
    const auto lines_height = [width](const std::string& text) {  // a narrow window wraps the facts too
        return ImGui::CalcTextSize(text.c_str(), nullptr, false, width).y;
    };
    bar.height =
        lines_height(bar.facts) + ImGui::GetFrameHeightWithSpacing() - ImGui::GetFontSize() + style.ItemSpacing.y * 2;
    if (bar.message_below) bar.height += lines_height(state.message) + style.ItemSpacing.y;
    bar.wrap_width = width;
    return bar;
}

void draw_status_bar(const AppState& state, const StatusBar& bar) {
    ImGui::Separator();
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + bar.wrap_width);
    ImGui::TextUnformatted(bar.facts.c_str());
    if (!state.message.empty() && bar.message_below) ImGui::TextUnformatted(state.message.c_str());
    ImGui::PopTextWrapPos();
    if (!state.message.empty() && !bar.message_below) {
        ImGui::SameLine();
        ImGui::TextUnformatted(("| " + state.message).c_str());
    }
}

// "Findings (3)" when the launch on screen has some: seen without opening the tab. The ###
// keeps the tab's identity while its label changes.
std::string findings_tab_label(const AppState& state) {
    uint64_t n = 0;
    if (state.picture)
        for (uint64_t c : state.picture->findings.counts) n += c;
    return n ? "Findings (" + grouped(n) + ")###findings" : "Findings###findings";
}

// One centre tab that fills the area with its panel in a child window; selected when `open`
// asks for `view`.
template <class Draw>
void centre_tab(AppState& state, const char* label, CentreView view, std::optional<CentreView> open, Draw draw) {
    const bool shown = ImGui::BeginTabItem(label, nullptr, open == view ? ImGuiTabItemFlags_SetSelected : 0);
    remember_rect(state, std::string("tab:") + label);
    if (!shown) return;
    state.shown_view = view;
    ImGui::BeginChild(label, ImVec2(0, 0), false);
    draw();
    ImGui::EndChild();
    ImGui::EndTabItem();
}

// The centre width, in font sizes, from which the Editor tab puts the map beside the editor
// (the centre at 1280x720 and UI scale 1 is about 48).
constexpr float kEditorBesideMapEms = 40;

// The centre holds the views as tabs, each given the whole area: the map, the timings, and
// (as they come) the kernel editor, findings, memory and occupancy views.
void draw_centre_views(AppState& state, MapFrame& frame) {
    draw_lesson_card(state);           // over every tab: a lesson's point may be on any of them
    state.look_for_in_margin = false;  // until the map panel, if drawn, puts it beside the picture
    if (!ImGui::BeginTabBar("views")) return;
    // Taken now: a tab's own content may ask for another view (Occupancy's colour buttons) next frame.
    const std::optional<CentreView> open = state.open_view;
    state.open_view.reset();
    state.editor_hovered_line = 0;  // until the Editor, if drawn, finds the mouse on a line
    const auto map_view = [&] {
        ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(0, 0));
        ImGui::BeginChild("map-view", ImVec2(0, 0), false,
                          ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
        draw_map_panel(state, frame);
        ImGui::EndChild();
        ImGui::PopStyleVar();
    };
    const bool map = ImGui::BeginTabItem("Map", nullptr, open == CentreView::Map ? ImGuiTabItemFlags_SetSelected : 0);
    remember_rect(state, "tab:Map");
    if (map) {
        state.shown_view = CentreView::Map;
        map_view();
        ImGui::EndTabItem();
    }
    centre_tab(state, "Timing", CentreView::Timing, open, [&] { draw_timing_panel(state); });
    centre_tab(state, "Occupancy", CentreView::Occupancy, open, [&] { draw_occupancy_panel(state); });
    state.memory_view_open = false;  // until the Memory tab is drawn this frame
    centre_tab(state, "Memory", CentreView::Memory, open, [&] { draw_memory_panel(state); });
    // The editor beside the map, both live, where the centre is wide enough for both.
    centre_tab(state, "Editor", CentreView::Editor, open, [&] {
        const float width = ImGui::GetContentRegionAvail().x;
        if (width < ImGui::GetFontSize() * kEditorBesideMapEms) return draw_editor_panel(state);
        ImGui::BeginChild("editor-side", ImVec2(width * 0.5f, 0), false);
        draw_editor_panel(state);
        ImGui::EndChild();
        ImGui::SameLine();
        map_view();
    });
    ImGui::EndTabBar();
}

}  // namespace

void handle_shortcuts(AppState& state) {
    const ImGuiIO& io = ImGui::GetIO();
    if (ImGui::IsKeyPressed(GLFW_KEY_F11, false)) state.settings.presentation = !state.settings.presentation;
    if (!io.KeyCtrl) return;
    if (ImGui::IsKeyPressed(GLFW_KEY_G, false)) {  // go to an element: the inspector's field
        state.settings.presentation = false;
        state.requests.focus_go_to = true;
    }
    if (ImGui::IsKeyPressed(GLFW_KEY_EQUAL) || ImGui::IsKeyPressed(GLFW_KEY_KP_ADD)) {
        state.settings.ui_scale = std::min(state.settings.ui_scale * 1.15f, Settings::kMaxUiScale);
        state.requests.rescale = true;
    }
    if (ImGui::IsKeyPressed(GLFW_KEY_MINUS) || ImGui::IsKeyPressed(GLFW_KEY_KP_SUBTRACT)) {
        state.settings.ui_scale = std::max(state.settings.ui_scale / 1.15f, Settings::kMinUiScale);
        state.requests.rescale = true;
    }
    if (ImGui::IsKeyPressed(GLFW_KEY_S))
        (io.KeyShift ? state.requests.export_window : state.requests.export_map) = true;
}

namespace {

// The jobs that run off the UI thread, looked at once a frame. A timing lesson runs its timing
// once its launch's map is there (the model with no GPU); another lesson opened first, or a
// learner's change, drops the request.
void poll_jobs(AppState& state) {
    poll_timing_jobs(state.timing);
    poll_launch_sweep(state.launch_sweep);
    poll_touchers(state.touchers);
    poll_gpu_compile(state.editor);
    poll_editor_compile(state);
    run_editor_after_pause(state);
    if (!state.requests.run_timing_for.empty() && state.edit.preset != state.requests.run_timing_for)
        state.requests.run_timing_for.clear();
    if (!state.requests.run_timing_for.empty() && state.picture && !state.picture_job && !state.pending.any_update() &&
        !state.timing.run.valid()) {
        const bool its_map = state.picture->launch.preset == state.requests.run_timing_for;
        state.requests.run_timing_for.clear();
        if (its_map && state.timing.source != TimingSource::Recorded)
            start_timing_run(state.timing, state.picture->launch, state.backend);
    }
}

// The right column's tabs, as buttons that wrap to a second line where the column is narrower
// than their names: ImGui's tab bar shrank them, and a projector's 1280-px window read
// "Fin..." for "Findings (256)", the count a race lesson points at. Each button's rectangle
// is remembered ("tab:Findings") for replays.
void info_tabs(AppState& state) {
    using Tab = AppState::InfoTab;
    struct Entry {
        Tab tab;
        std::string label;
        const char* rect;
        void (*draw)(AppState&);
    };
    const Entry entries[] = {{Tab::Stats, "Stats", "tab:Stats", draw_stats_panel},
                             {Tab::Findings, findings_tab_label(state), "tab:Findings", draw_findings_panel},
                             {Tab::Code, "Code", "tab:Code", draw_code_panel},
                             {Tab::Lessons, "Lessons", "tab:Lessons", draw_lessons_panel}};
    for (const Entry& e : entries) {
        if (e.tab != Tab::Stats)  // as close as a tab bar's tabs
            same_line_if_fits(button_width(e.label), ImGui::GetStyle().ItemInnerSpacing.x);
        const bool open = state.info_tab == e.tab;
        ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(open ? ImGuiCol_TabActive : ImGuiCol_Tab));
        ImGui::PushStyleColor(ImGuiCol_ButtonHovered, ImGui::GetStyleColorVec4(ImGuiCol_TabHovered));
        ImGui::Button(e.label.c_str());
        if (ImGui::IsItemActivated()) {  // on the press, as a tab bar's tab
            state.requests.show_current_lesson |= e.tab == Tab::Lessons && !open;
            state.info_tab = e.tab;
        }
        ImGui::PopStyleColor(2);
        remember_rect(state, e.rect);
        if (open) {  // underlined: a hovered tab is as bright as the open one
            const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
            ImGui::GetWindowDrawList()->AddLine(ImVec2(a.x, b.y - 1), ImVec2(b.x, b.y - 1),
                                                ImGui::GetColorU32(ImGuiCol_Text), 2);
        }
    }
    ImGui::Separator();
    // The open tab's content scrolls on its own under the tabs, as tall as the column leaves (a
    // few lines at least): the Findings tab's list scrolled the whole column, its tabs some
    // 8,700 pixels off the top at the list's end.
    const float least = 8 * ImGui::GetTextLineHeightWithSpacing();
    ImGui::BeginChild("tab-content", ImVec2(0, std::max(ImGui::GetContentRegionAvail().y, least)), false);
    for (const Entry& e : entries)
        if (state.info_tab == e.tab) e.draw(state);
    ImGui::EndChild();
}

// The side columns of the normal layout: the launch and display on the left, the inspector
// and the Stats, Findings, Code and Lessons tabs on the right, with splitters between.
void draw_side_columns(AppState& state, const WindowLayoutSpec& spec, const WindowRegions& regions, ImVec2 origin) {
    const float scale = state.settings.ui_scale;
    begin_region("left", origin, regions.left, true);
    if (ImGui::CollapsingHeader("Launch", ImGuiTreeNodeFlags_DefaultOpen)) draw_controls_panel(state);
    if (ImGui::CollapsingHeader("Display and export", ImGuiTreeNodeFlags_DefaultOpen)) draw_display_panel(state);
    if (wrapped_button("Presentation mode (F11)", "presentation")) state.settings.presentation = true;
    remember_rect(state, "presentation");
    ImGui::EndChild();
    const double bar = spec.splitter * scale;
    splitter("##split-left", origin, regions.left.w, bar, regions.left.h, state.settings.left_width, 1, scale);
    splitter("##split-right", origin, regions.right.x - bar, bar, regions.right.h, state.settings.right_width, -1,
             scale);
    begin_region("right", origin, regions.right, true);
    if (ImGui::CollapsingHeader("Inspector", ImGuiTreeNodeFlags_DefaultOpen)) draw_inspector_panel(state);
    info_tabs(state);
    ImGui::EndChild();
}

}  // namespace

void draw_main_layout(AppState& state, MapFrame& frame) {
    poll_jobs(state);
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(vp->WorkPos);
    ImGui::SetNextWindowSize(vp->WorkSize);
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(0, 0));
    ImGui::Begin("threadmap", nullptr,
                 ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                     ImGuiWindowFlags_NoBringToFrontOnFocus | ImGuiWindowFlags_NoScrollbar |
                     ImGuiWindowFlags_NoBackground);  // the clear colour is the background: no full-screen blend
    ImGui::PopStyleVar();
    state.widget_rects.clear();

    const StatusBar status = layout_status_bar(state);
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    WindowLayoutSpec spec;
    spec.width = avail.x;
    spec.height = avail.y;
    spec.scale = state.settings.ui_scale;
    spec.presentation = state.settings.presentation;
    spec.left_width = state.settings.left_width;
    spec.right_width = state.settings.right_width;
    spec.top_height = launch_bar_height(state.edit, avail.x);
    spec.status_height = status.height;
    const WindowRegions regions = window_regions(spec);

    if (spec.presentation) {
        begin_region("launch-bar", origin, regions.top, false, ImGuiWindowFlags_NoScrollbar);
        draw_launch_bar(state);
        ImGui::EndChild();
    } else {
        draw_side_columns(state, spec, regions, origin);
    }

    begin_region("centre", origin, regions.centre, false,
                 ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
    draw_centre_views(state, frame);
    ImGui::EndChild();

    ImGui::SetCursorScreenPos(ImVec2(origin.x + ImGui::GetStyle().ItemSpacing.x, origin.y + float(regions.status.y)));
    draw_status_bar(state, status);
    ImGui::End();
}

}  // namespace threadmap
