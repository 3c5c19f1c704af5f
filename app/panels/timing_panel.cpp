// Timing panel; see timing_panel.hpp.
//
// Sections: 1. source and toggles  2. one run: bars and figures  3. history  4. the sweep
// The bars and the chart are drawn by viz/timing_figure, as `render --timing` draws them.
#include "app/panels/timing_panel.hpp"

#include <imgui.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <ctime>

#include "app/launch/device_profiles.hpp"
#include "app/panels/panel_widgets.hpp"

namespace threadmap {

namespace {

// The program timed (and shown in the Code tab): language, element type, how arrays travel.
// Host arrays are numba's: CUDA C++ always copies explicitly.
void draw_program(TimedProgram& p) {
    const auto choice = [](const char* label, int& value, const char* a, const char* b) {
        ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7);
        const char* items[] = {a, b};
        return ImGui::Combo(label, &value, items, 2);
    };
    int language = int(p.language), element = int(p.element), transfers = int(p.transfers);
    if (choice("##language", language, "CUDA C++", "numba")) p.language = HostLanguage(language);
    ImGui::SameLine();
    if (choice("##element", element, "float32", "float64")) p.element = ElementType(element);
    ImGui::SameLine();
    if (choice("arrays##transfers", transfers, "explicit copies", "host arrays")) p.transfers = Transfers(transfers);
    if (p.language == HostLanguage::CudaCpp) p.transfers = Transfers::Explicit;
}

// ---- 1. source and toggles ------------------------------------------------------------

// Beside "run": a timing lesson's "Run the size sweep" names it, and under the table it was
// below a projector's 720 pixels.
void draw_sweep_button(AppState& state) {
    TimingState& t = state.timing;
    const Outcome<void> why_not =
        state.picture ? why_no_sweep(t, state.picture->launch, state.backend) : failed("no map yet");
    ImGui::BeginDisabled(t.sweep_job.valid() || !why_not.done());
    if (ImGui::Button("sweep sizes")) t.scroll_to_sweep = start_sweep(t, state.picture->launch, state.backend);
    remember_rect(state, "timing-sweep");
    ImGui::EndDisabled();
    if (!why_not.done() && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        ImGui::SetTooltip("No sweep: %s.", why_not.error.c_str());
}

void draw_controls(AppState& state) {
    TimingState& t = state.timing;
    const bool gpu = state.backend && state.backend->cuda;
    int source = int(t.source);
    ImGui::RadioButton(gpu ? "measured on this GPU" : "measured (CPU only here)", &source, int(TimingSource::Measured));
    ImGui::SameLine();
    ImGui::RadioButton("modeled", &source, int(TimingSource::Modeled));
    ImGui::SameLine();
    ImGui::RadioButton("recorded", &source, int(TimingSource::Recorded));
    t.source = TimingSource(source);
    remember_rect(state, "timing-source");
    if (t.source == TimingSource::Modeled) device_profile_combo(state, "device profile");
    if (t.source == TimingSource::Recorded) {
        char path[512];
        std::snprintf(path, sizeof path, "%s", t.recording_path.c_str());
        if (ImGui::InputText("recording", path, sizeof path)) t.recording_path = path;
        ImGui::SameLine();
        if (ImGui::Button("load") && state.picture) {
            load_recording_into(t, state.picture->launch);
        }
        ImGui::TextDisabled("a file written by threadmap bench --json on a GPU machine");
    }
    ImGui::Checkbox("pinned", &t.pinned);
    ImGui::SameLine();
    ImGui::Checkbox("resident (copy once)", &t.resident);
    ImGui::SameLine();
    ImGui::Checkbox("first launch", &t.first_launch);
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7);
    if (ImGui::InputInt("launches (repeats)", &t.repeats)) t.repeats = std::clamp(t.repeats, 1, 10000);
    draw_program(t.program);
    const bool busy = t.run.valid();
    ImGui::BeginDisabled(busy || t.source == TimingSource::Recorded || !state.picture);
    if (ImGui::Button(busy ? "running..." : "run")) start_timing_run(t, state.picture->launch, state.backend);
    remember_rect(state, "timing-run");
    ImGui::EndDisabled();
    ImGui::SameLine();
    draw_sweep_button(state);
    if (!t.message.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, error_color());
        text_wrapped("%s", t.message.c_str());
        ImGui::PopStyleColor();
    }
}

// ---- 2. the bars of one run -----------------------------------------------------------

// Every figure with its origin: the first launch when the bars include it, a row per stage, the
// CPU's.
void draw_figures(const TimingReport& r, bool first_launch) {
    const ImVec2 table_size(0, ImGui::GetTextLineHeightWithSpacing() * 7.5f);
    if (ImGui::BeginTable("figures", 5,
                          ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollX,
                          table_size)) {
        for (const char* h : {"stage", "median", "min - max", "rate", "origin"}) ImGui::TableSetupColumn(h);
        ImGui::TableHeadersRow();
        const auto row = [&](const std::string& name, const StageFigures& s) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(name.c_str());
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(seconds_text(s.seconds_median).c_str());
            ImGui::TableNextColumn();
            ImGui::Text("%s - %s", seconds_text(s.seconds_min).c_str(), seconds_text(s.seconds_max).c_str());
            ImGui::TableNextColumn();
            if (s.name == "h2d" || s.name == "d2h")
                ImGui::Text("%.2f GB/s", double(s.bytes) / s.seconds_median / 1e9);
            else if (s.name == "alloc" || r.flops == 0)  // an allocation (a copy kernel) computes nothing
                ImGui::TextUnformatted("-");
            else
                ImGui::Text("%.2f GFLOP/s", r.flops / s.seconds_median / 1e9);
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(s.origin.c_str());
        };
        // The first launch leads, as its segment leads the bars: below the stages a projector's
        // window kept it under the fold, where the first-launch lesson's point is.
        if (r.first_launch_seconds && first_launch) {  // the row only when the bars include it
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextUnformatted("first launch");
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(seconds_text(*r.first_launch_seconds).c_str());
            ImGui::TableNextColumn();
            ImGui::TableNextColumn();
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(r.first_launch_origin.c_str());
        }
        for (const auto& s : r.stages) row(s.name, s);
        row("cpu (" +
                (r.cpu_reference.implementation.empty() ? std::string("reference") : r.cpu_reference.implementation) +
                ")",
            r.cpu_reference);
        ImGui::EndTable();
    }
}

void draw_run(const TimingState& t, const Theme& theme) {
    if (!t.current) {
        text_wrapped("Run a timing (or load a recording) to compare copies, kernel and the CPU.");
        return;
    }
    const TimingReport& r = *t.current;
    // What ran, on what and how, in one paragraph: three lines of it pushed the figures down.
    const std::string where = r.is_recording() ? "recorded on " + r.recorded_from : "on " + r.device + ", " + r.date;
    text_wrapped("%s %s %s; program: %s", r.kernel.c_str(), nlohmann::json(r.shape).dump().c_str(), where.c_str(),
                 describe(r.program).c_str());
    // A modeled run states its model, folded so that the bars lead; the sources on hover.
    if (!r.model.empty() && ImGui::CollapsingHeader("How is this computed?")) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
        text_wrapped("model: %s", r.model.c_str());
        ImGui::PopStyleColor();
        if (ImGui::IsItemHovered() && !r.sources.empty()) {
            ImGui::BeginTooltip();
            for (const auto& [field, source] : r.sources) ImGui::Text("%s: %s", field.c_str(), source.c_str());
            ImGui::EndTooltip();
        }
    }
    double axis = 0;
    const std::vector<TimingBar> bars = timing_bars(r, t.resident, t.first_launch, axis);
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float h = draw_timing_bars(ImGui::GetWindowDrawList(), ImGui::GetFont(), ImGui::GetFontSize(), p.x, p.y,
                                     ImGui::GetContentRegionAvail().x, bars, axis, theme);
    ImGui::Dummy(ImVec2(ImGui::GetContentRegionAvail().x, h));
    // Its parts (or cold against warm) under the bars, not the table: at 720 pixels the table's
    // end is under the window's edge.
    if (r.first_launch_seconds && t.first_launch && !r.first_launch_what.empty())
        text_wrapped("First launch: %s.", r.first_launch_what.c_str());
    draw_figures(r, t.first_launch);
}

// ---- 3. history ---------------------------------------------------------------------------

void draw_history(const TimingState& t) {
    if (t.history.empty()) return;
    ImGui::TextDisabled("earlier runs");
    for (const auto& h : t.history) {
        const auto gpu = gpu_seconds_per_launch(h, false);
        ImGui::BulletText("%s %s: GPU %s, CPU %s (%s)", h.kernel.c_str(), nlohmann::json(h.shape).dump().c_str(),
                          gpu ? seconds_text(*gpu).c_str() : "-", seconds_text(h.cpu_reference.seconds_median).c_str(),
                          h.stages.front().origin.c_str());
    }
}

// ---- 4. the sweep chart -------------------------------------------------------------------

void draw_save_button(AppState& state) {
    ImGui::BeginDisabled(!state.timing.current && !state.timing.sweep);
    if (ImGui::Button("save the numbers (JSON, CSV)"))
        state.message = save_timing_numbers(state.timing, state.settings.export_dir, std::time(nullptr));
    remember_rect(state, "timing-save");
    ImGui::EndDisabled();
}

void draw_sweep(AppState& state) {
    TimingState& t = state.timing;
    const bool busy = t.sweep_job.valid();
    draw_save_button(state);  // on the sweep's line: the chart below keeps the view's height
    if (busy) {
        ImGui::SameLine();
        if (ImGui::Button("cancel")) t.sweep_cancel = true;
        const float done = t.sweep_total ? float(t.sweep_done) / float(t.sweep_total) : 0;
        ImGui::ProgressBar(done, ImVec2(-1, 0));
    }
    if (!t.sweep || t.sweep->points.empty()) return;
    const SweepResult& r = *t.sweep;
    const ImVec2 p = ImGui::GetCursorScreenPos();
    // The chart takes the height left in the view, leaving two lines for its sentence.
    const float w = ImGui::GetContentRegionAvail().x;
    const float h = std::max(ImGui::GetFontSize() * 10, ImGui::GetContentRegionAvail().y - ImGui::GetFontSize() * 3.2f);
    draw_sweep_chart(ImGui::GetWindowDrawList(), ImGui::GetFont(), ImGui::GetFontSize(), p.x, p.y, w, h, r,
                     state.theme());
    ImGui::Dummy(ImVec2(w, h));
    // Named: the chart stays when the launch moves to another kernel, until the next sweep.
    text_wrapped("Sweep of %s. %s%s", r.kernel.c_str(), r.sentence.c_str(),
                 r.cancelled ? " (cancelled: partial sweep)" : "");
    if (t.scroll_to_sweep && !busy) {  // the chart and its sentence, at the view's bottom
        ImGui::SetScrollHereY(1.0f);
        t.scroll_to_sweep = false;
    }
}

}  // namespace

void draw_timing_panel(AppState& state) {
    draw_controls(state);
    ImGui::Separator();
    draw_run(state.timing, state.theme());
    draw_history(state.timing);
    ImGui::Separator();
    draw_sweep(state);
}

}  // namespace threadmap
