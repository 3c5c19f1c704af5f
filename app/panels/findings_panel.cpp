// Findings panel; see findings_panel.hpp.
#include "app/panels/findings_panel.hpp"

#include <imgui.h>

#include <algorithm>

#include <imgui_stdlib.h>

#include "app/window_state/finding_target.hpp"
#include "app/reports/findings_report.hpp"
#include "app/reports/lesson_text.hpp"
#include "app/window_state/kernel_editor.hpp"
#include "app/launch/lessons.hpp"
#include "app/window_state/settings.hpp"
#include "app/launch/source_launch.hpp"
#include "app/panels/panel_widgets.hpp"

namespace threadmap {

namespace {

using FindingTarget = AppState::FindingTarget;

// What a click on the finding does, in a tooltip's words.
std::string click_text(const MapPicture& picture, const Finding& f, const FindingTarget& t) {
    if (f.kind == FindingKind::DivergentBarrier)
        return "Pin a cell of a thread of its block (one that did not wait there, if it touched this array).";
    if (f.kind == FindingKind::OutOfBounds) return "Pin its cell past the end of the array.";
    if (is_undefined_shuffle(f)) return "Pin the first cell on the map of the thread that took the undefined value.";
    if (on_map(picture, t)) return "Pin its element on the map.";
    const ArraySpec& a = picture.launch.model->spec->arrays[t.array];
    return "Show " + a.name +
           (a.space == MemorySpace::Shared ? " (block " + to_string(t.block) + "'s copy)" : std::string()) +
           " on the map and pin its element.";
}

// Pins the element now when the map shows its array; else switches the controls to that array
// (and block) and pins it when that map arrives (launch_update's show_picture).
void show_finding(AppState& state, const FindingTarget& t) {
    if (on_map(*state.picture, t)) {
        pin_element(state, t.element);
        return;
    }
    auto& k = state.edit.model;
    if (!k || k->spec != state.picture->launch.model->spec) return;  // the controls hold another kernel now
    k->array = t.array;
    if (k->shared()) k->shared_block = t.block;
    state.edit.workload = model_workload(*k, state.edit.launch);
    state.finding_target = t;
    state.pending.apply = true;
}

// What a finished sweep found: how many launches differ, then each launch with its verdict.
void draw_sweep_result(const LaunchSweepJob& job) {
    const LaunchSweep& s = *job.result;
    size_t differ = 0;
    for (const SweptLaunch& w : s.launches) differ += !w.agrees();
    const LaunchConfig& launch = job.reference.launch;
    if (s.expected)
        text_wrapped(
            "%s, against the expected result (and no findings): %zu of %zu launches differ, your "
            "launch (grid %s, block %s) first.",
            job.reference.kernel_name().c_str(), differ, s.launches.size(), to_string(launch.grid).c_str(),
            to_string(launch.block).c_str());
    else
        text_wrapped("%s, against its launch grid %s, block %s: %zu of %zu awkward launches differ.",
                     job.reference.kernel_name().c_str(), to_string(launch.grid).c_str(),
                     to_string(launch.block).c_str(), differ, s.launches.size());
    for (const SweptLaunch& w : s.launches) {
        ImGui::TextColored(w.agrees() ? ImVec4(0.55f, 0.8f, 0.55f, 1) : error_color(), "%s",
                           w.agrees() ? "same" : "DIFFERS");
        ImGui::SameLine();
        text_wrapped("%s", swept_launch_text(w).c_str());
    }
    for (const std::string& a : s.not_compared) disabled_note(a + " is not compared: its shape follows the launch.");
}

// The button that starts the sweep, with the expected result the sweep compares with: the
// Editor's kernel takes an optional one (check --expect); a lesson's own kernel the lesson's
// right result when it gives one, else the learner's.
void sweep_button(AppState& state, LaunchSweepJob& job) {
    const ResolvedLaunch& on_map = state.picture->launch;
    const bool editors = map_shows_editor_kernel(state);
    const Lesson* lesson = on_map.preset.empty() || !on_map.model ? nullptr : find_lesson(on_map.preset);
    const LessonKernelText* lessons = lesson && lesson->own_kernel ? &*lesson->own_kernel : nullptr;
    const bool lesson_expects = lessons && !lessons->expect.empty();
    if (lessons) {
        std::string binds;
        for (const std::string& b : lessons->binds) binds += (binds.empty() ? "" : ", ") + b;
        if (lesson_expects)
            disabled_note("Compared with the lesson's expected result, " + lessons->expect +
                          " (bound as the lesson binds: " + binds + ").");
        else
            disabled_note("The lesson's kernel, bound as the lesson binds it: " + binds + ".");
    }
    if (editors || (lessons && !lesson_expects)) {
        disabled_note(
            "Expected result (optional): a statement over the parameters, e.g. for (int i = 0; i < n; ++i) "
            "a[i] = a[i] + 1;");
        ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x);
        ImGui::InputText("##expect", &job.expect);
        remember_rect(state, "findings:expect");
    }
    if (wrapped_button("Where does it break?", "launch-sweep")) {
        ExpectationCompile expected;  // compiled in the sweep's job
        if (editors && !job.expect.empty()) expected = editor_expectation(state, job.expect);
        if (lessons && (lesson_expects || !job.expect.empty()))
            expected = [text = lessons->text, file = on_map.preset + ".cu", entry = lessons->entry,
                        binds = lessons->binds, limits = kernel_limits(state.settings),
                        expect = lesson_expects ? lessons->expect : job.expect] {
                return expectation_launch(compile_and_bind(text, file, entry, binds, 0, limits, expect));
            };
        start_launch_sweep(job, on_map, std::move(expected));
    }
    remember_rect(state, "findings:sweep");
}

// "Where does it break?": the kernel on the map over awkward launches, each compared with the
// map's launch (values and findings), as `check --sweep-launches` lists them.
void draw_launch_sweep(AppState& state) {
    LaunchSweepJob& job = state.launch_sweep;
    if (job.running()) {
        if (ImGui::Button("Cancel")) *job.cancel = true;
        remember_rect(state, "findings:sweep");
        ImGui::SameLine();
        disabled_note("running " + job.reference.kernel_name() + " on awkward launches...");
        return;
    }
    sweep_button(state, job);
    if (!job.error.empty()) {  // Clang's lines about the expectation, or why the sweep stopped
        ImGui::PushStyleColor(ImGuiCol_Text, error_color());
        text_wrapped("%s", job.error.c_str());
        ImGui::PopStyleColor();
    }
    if (!job.result) {
        disabled_note(
            "Runs this kernel on a single block, many small blocks, a block that does not divide the data, "
            "2-D and 3-D blocks, a grid smaller than the data, ... and compares each with this launch.");
        return;
    }
    draw_sweep_result(job);
}

}  // namespace

void draw_findings_panel(AppState& state) {
    if (!state.picture) return;
    const PictureFindings& f = state.picture->findings;
    if (!f.not_checked.empty()) {
        text_wrapped("%s", f.not_checked.c_str());
        return;
    }
    text_wrapped("%s.", findings_summary(f.counts, true).c_str());
    disabled_note("The emulator's model of CUDA's rules, not a GPU's observation.");
    colour_map_button(state, ("Colour array " + f.output + " by findings").c_str(), "findings", "findings");
    ImGui::Separator();
    draw_launch_sweep(state);
    if (f.list.empty()) return;
    ImGui::Separator();
    disabled_note("Click one to see its element on the map.");
    ImGui::Separator();
    // The first few dozen, in the column's own scroll: all the 1,000 listed of missing-barrier's
    // 86,528 made the column thousands of lines tall, its scrollbar's grab its smallest. The
    // rest are the same story at other elements (and in `threadmap check --format json`).
    constexpr size_t kShown = 50;
    const size_t shown = std::min(f.list.size(), kShown);
    for (size_t i = 0; i < shown; ++i) {
        const Finding& finding = f.list[i];
        const auto target = finding_target(*state.picture, finding);
        ImGui::PushID(int(i));
        const std::string label = std::string(finding_kind_title(finding.kind)) + ": " + finding.message;
        if (target) {  // a selectable the height of the wrapped text, the text drawn over it
            const ImVec2 at = ImGui::GetCursorPos();
            const float h = ImGui::CalcTextSize(label.c_str(), nullptr, false, ImGui::GetContentRegionAvail().x).y;
            if (ImGui::Selectable("##finding", false, 0, ImVec2(0, h))) show_finding(state, *target);
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", click_text(*state.picture, finding, *target).c_str());
            remember_rect(state, "finding:" + std::to_string(i));
            ImGui::SetCursorPos(at);
        }
        text_wrapped("%s", label.c_str());
        ImGui::Separator();
        ImGui::PopID();
    }
    uint64_t total = 0;
    for (uint64_t c : f.counts) total += c;
    if (total > shown)
        disabled_note("... and " + grouped(total - shown) + " more (threadmap check --format json lists up to 1,000)");
}

}  // namespace threadmap
