// Controls panel; see controls_panel.hpp.
#include "app/panels/controls_panel.hpp"

#include <imgui.h>

#include <algorithm>
#include <chrono>

#include "kernels/builtin/registry.hpp"
#include "app/window_state/launch_update.hpp"
#include "app/launch/lessons.hpp"
#include "app/panels/panel_widgets.hpp"

namespace threadmap {

namespace {

// A picker's width: at least 9 font sizes, so that a narrow column puts its label above it
// (place_label) rather than leave it a few letters of a lesson's title.
float combo_width() { return std::max(ImGui::CalcItemWidth(), ImGui::GetFontSize() * 9); }

bool count_field(AppState& state, const char* label, uint64_t& v) {
    // At least as wide as the number and a digit more: at a raised UI scale the column left the
    // field "26214" of 262144, its label beside it.
    const float number = button_width(std::to_string(v) + "0");  // a field's frame is a button's
    const bool changed = ImGui::InputScalar(place_label(label, std::max(ImGui::CalcItemWidth(), number)).c_str(),
                                            ImGuiDataType_U64, &v, nullptr, nullptr, "%llu");
    remember_rect(state, label);
    return changed;
}

// A kernel with barriers: all its accesses, or one phase's (between two barriers), stepped
// with a slider over the phases the shown launch has.
bool phase_fields(AppState& state, ModelKernel& k) {
    bool one = k.phase != ModelKernel::kAllPhases;
    bool changed = ImGui::Checkbox("one phase", &one);
    remember_rect(state, "one-phase");
    const int phases = state.picture && state.picture->launch.model ? int(state.picture->phases) : 1;
    if (!one) {
        k.phase = ModelKernel::kAllPhases;
        return changed;
    }
    int phase = k.phase == ModelKernel::kAllPhases ? 0 : int(std::min<uint32_t>(k.phase, uint32_t(phases - 1)));
    // On a line of its own: beside the checkbox a projector's narrow column left it a few
    // pixels wide, too narrow to drag through the phases the lessons ask to step through.
    ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - ImGui::GetFontSize() * 3);
    changed |= ImGui::SliderInt("phase", &phase, 0, std::max(phases - 1, 0));
    remember_rect(state, "phase");
    changed |= uint32_t(phase) != k.phase;
    k.phase = uint32_t(phase);
    disabled_note(phase == 0 ? std::string("accesses before the first __syncthreads()")
                             : "accesses between barrier " + std::to_string(phase) + " and the next");
    return changed;
}

// A model kernel's parameters, the array its map shows and whether by writers or readers.
bool model_kernel_fields(AppState& state, ModelKernel& k) {
    bool changed = false;
    for (size_t i = 0; i < k.spec->params.size(); ++i) {
        const ParamSpec& p = k.spec->params[i];
        if (count_field(state, p.name.c_str(), k.params[i])) {
            changed = true;
            state.requests.fit = true;
        }
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", p.help.c_str());
    }
    const auto label = [&](size_t a) {
        const MemorySpace space = k.spec->arrays[a].space;
        return k.spec->arrays[a].name +
               (space == MemorySpace::Global ? "" : std::string(" (") + memory_space_name(space) + ")");
    };
    if (ImGui::BeginCombo(place_combo_label("array", label(k.array), combo_width()).c_str(), label(k.array).c_str())) {
        for (size_t a = 0; a < k.spec->arrays.size(); ++a) {
            if (!ImGui::Selectable(label(a).c_str(), a == k.array)) continue;
            k.array = a;
            changed = true;
            state.requests.fit = true;
        }
        ImGui::EndCombo();
    }
    remember_rect(state, "array");
    if (k.shared()) {  // one copy per block: which block's
        disabled_note("the copy of blockIdx (x, y, z)");
        changed |= dim3_fields(state, "sharedBlock", k.shared_block);
    }
    int access = k.reads ? 1 : 0;
    changed |= ImGui::RadioButton("written by", &access, 0);
    same_line_if_fits(box_item_width("read by"));
    changed |= ImGui::RadioButton("read by", &access, 1);
    k.reads = access == 1;
    if (k.spec->uses_barriers) changed |= phase_fields(state, k);
    return changed;
}

// The lesson picker, by group in the curriculum's order.
void lesson_combo(AppState& state) {
    const Lesson* current = find_lesson(state.edit.preset);
    if (ImGui::BeginCombo(place_label("lesson", combo_width()).c_str(),
                          current ? current->title.c_str() : "(your own launch)")) {
        std::string group;
        for (const auto& l : lessons()) {
            if (l.group != group) ImGui::TextDisabled("%s", (group = l.group).c_str());
            if (ImGui::Selectable(("  " + l.title).c_str(), current == &l)) select_lesson(state, l.name);
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s\n--preset %s", l.summary.c_str(), l.name.c_str());
        }
        ImGui::EndCombo();
    }
    if (current && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", current->title.c_str());  // a narrow combo cuts it
    if (current) disabled_note(wrap_to_width("--preset " + current->name, ImGui::GetContentRegionAvail().x));
}

// The kernel picker: the tutorial's four kernels, then the registry's others (the kernel
// model runs them). A kernel of another shape starts from its default launch.
bool kernel_combo(AppState& state) {
    ResolvedLaunch& resolved = state.edit;
    bool changed = false;
    const std::string name = resolved.kernel_name();
    if (ImGui::BeginCombo(place_combo_label("kernel", name, combo_width()).c_str(), name.c_str())) {
        for (const FastKernel* k : all_kernels()) {
            if (!ImGui::Selectable(std::string(kernel_name(k)).c_str(),
                                   !resolved.model && k == resolved.workload.kernel))
                continue;
            if (resolved.model || is_matrix(k) != is_matrix(resolved.workload.kernel)) {
                resolved.model.reset();
                resolved.workload = is_matrix(k) ? matmul_workload(k, 300, 300, 200) : array_workload(k, 500);
                resolved.launch.block = default_block(k);
                resolved.launch.grid = covering_grid(resolved.workload, resolved.launch.block);
                state.requests.fit = true;
            }
            resolved.workload.kernel = k;
            changed = true;
        }
        for (const KernelSpec* spec : builtin_kernels()) {
            if (parse_kernel(spec->name)) continue;
            if (!ImGui::Selectable(spec->name.c_str(), resolved.model && resolved.model->spec == spec)) continue;
            resolved = default_model_launch(*spec);
            state.requests.fit = true;
            changed = true;
        }
        ImGui::EndCombo();
    }
    remember_rect(state, "kernel");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", resolved.kernel_name().c_str());  // "matmul-tiled-nosyn"
    if (changed && resolved.kernel_name() != name) state.lesson.clear();  // another kernel: the lesson is left
    return changed;
}

// The sizes of a tutorial kernel's arrays: C's rows, columns and inner size, or n.
bool workload_fields(AppState& state, Workload& workload) {
    bool changed = false;
    if (!is_matrix(workload.kernel)) {
        if (count_field(state, "n (elements)", workload.n)) {
            changed = true;
            state.requests.fit = true;
        }
        return changed;
    }
    const Workload before = workload;
    changed |= count_field(state, "rows of C", workload.rows);
    changed |= count_field(state, "cols of C", workload.cols);
    changed |= count_field(state, "inner (k)", workload.inner);
    // A reshaped C keeps operands that cover it (the seed lesson's larger A and B stay).
    if (!(before == workload)) {
        workload.a_rows = std::max(workload.rows, before.a_rows == before.rows ? workload.rows : before.a_rows);
        workload.b_cols = std::max(workload.cols, before.b_cols == before.cols ? workload.cols : before.b_cols);
        state.requests.fit = true;
    }
    return changed;
}

// blockDim and gridDim, and a button that sets gridDim to the grid that covers the arrays
// (its label says the arithmetic).
bool launch_fields(AppState& state) {
    ResolvedLaunch& resolved = state.edit;
    bool changed = false;
    ImGui::Spacing();
    // Each hint wrapped beside its name where a few of its words fit there, else under it: at a
    // raised UI scale a 1280-pixel window's column left it room for "threa" / "ds".
    const float hint_room = ImGui::CalcTextSize("threads in each").x;
    ImGui::TextColored(block_dim_color(), "blockDim");
    same_line_if_fits(hint_room);
    disabled_note("threads in each block (x, y, z)");
    changed |= dim3_fields(state, "blockDim", resolved.launch.block);
    ImGui::TextColored(grid_dim_color(), "gridDim");
    same_line_if_fits(hint_room);
    disabled_note("blocks in the grid (x, y, z)");
    changed |= dim3_fields(state, "gridDim", resolved.launch.grid);

    const Dim3 cover = covering_grid_of(resolved);
    const Workload& workload = resolved.workload;
    // A learner's kernel: threadmap cannot know what its threads cover (rgb-to-gray's bytes are three
    // a pixel, a grid-stride loop covers with any grid), so the button says what it assumes; a
    // built-in grid-stride loop covers with the grid it has, so the button offers one element per
    // thread as another grid, not as the fix of this one (covering_grid_words).
    const std::string fix = (resolved.model && resolved.model->owner) || any_grid_covers(resolved)
                                ? covering_grid_words(resolved) + ": " + to_string(cover)
                            : resolved.model ? "gridDim = the covering grid = " + to_string(cover)
                            : is_matrix(workload.kernel)
                                ? "gridDim = ceil(C / blockDim) = " + to_string(cover)
                                : "gridDim.x = ceil(" + std::to_string(workload.n) + " / " +
                                      std::to_string(resolved.launch.block.x) + ") = " + std::to_string(cover.x);
    ImGui::BeginDisabled(cover == resolved.launch.grid);
    if (wrapped_button(fix, "fix-grid")) {
        resolved.launch.grid = cover;
        changed = true;
    }
    ImGui::EndDisabled();
    remember_rect(state, "fix-grid");
    return changed;
}

// A map in the making (with its time and a cancel button) and why the launch was refused.
void launch_status(AppState& state) {
    if (state.picture_job) {  // computed off the UI thread: the last map stays until this one is ready
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - state.picture_job->started).count();
        text_wrapped("computing the map... %.1f s", seconds);
        same_line_if_fits(button_width("cancel"));
        if (ImGui::SmallButton("cancel")) cancel_picture_job(state);
        remember_rect(state, "cancel-map");
    }
    if (!state.launch_error.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, error_color());
        text_wrapped("%s", state.launch_error.c_str());
        ImGui::PopStyleColor();
        disabled_note("(the map shows the last valid launch)");
    }
}

}  // namespace

void draw_controls_panel(AppState& state) {
    // Fields leave their labels room ("rows of C", "inner (k)") however narrow the column.
    ImGui::PushItemWidth(-ImGui::GetFontSize() * 5.5f);
    lesson_combo(state);
    ImGui::Separator();
    bool changed = kernel_combo(state);
    if (state.edit.model)
        changed |= model_kernel_fields(state, *state.edit.model);
    else
        changed |= workload_fields(state, state.edit.workload);
    changed |= launch_fields(state);
    launch_status(state);
    if (changed) mark_launch_edited(state);
    ImGui::PopItemWidth();
}

}  // namespace threadmap
