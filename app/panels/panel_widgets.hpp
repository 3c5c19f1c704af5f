// Small pieces the panels share: colours that keep blockDim and gridDim apart everywhere,
// and recording of widget rectangles for scripted input.
#pragma once

#include <imgui.h>

#include <algorithm>
#include <string>

#include "app/window_state/app_state.hpp"
#include "app/launch/device_profiles.hpp"
#include "viz/color/colors.hpp"

namespace threadmap {

// The panels' own colours, a pale shade on the dark theme and a deep one on the light theme
// (pale yellow or blue text on white is unreadable on a projector in a lit room): blockDim
// always blue, gridDim always orange, errors red, a compiler's warnings yellow, guards green.
inline ImVec4 shade(const ImVec4& on_dark, const ImVec4& on_light) {
    const ImVec4 bg = ImGui::GetStyleColorVec4(ImGuiCol_WindowBg);
    return luminance(bg.x, bg.y, bg.z) > 0.5 ? on_light : on_dark;
}
// clang-format off
inline ImVec4 block_dim_color() { return shade({0.45f, 0.78f, 1.00f, 1}, {0.05f, 0.36f, 0.70f, 1}); }
inline ImVec4 grid_dim_color()  { return shade({1.00f, 0.70f, 0.30f, 1}, {0.72f, 0.36f, 0.00f, 1}); }
inline ImVec4 error_color()     { return shade({1.00f, 0.42f, 0.42f, 1}, {0.75f, 0.08f, 0.08f, 1}); }
inline ImVec4 warning_color()   { return shade({0.95f, 0.90f, 0.45f, 1}, {0.50f, 0.42f, 0.00f, 1}); }
inline ImVec4 guard_color()     { return shade({0.55f, 1.00f, 0.55f, 1}, {0.08f, 0.48f, 0.08f, 1}); }
// clang-format on

// `text` with its numbers and short groups kept whole where ImGui wraps it: ImGui 1.86 may end
// a line after any '.' or ',' and at any space, and the Occupancy tab read "so 70." at a line's
// end, "71% of the GPU's slots idle" on the next; the Findings tab "block (0,0," and "0)"; the
// left column "(x," and "y, z)". A '.' or ',' between two digits is drawn as a look-alike that
// does not end a line (U+2024, U+201A), and so is a ',' or a space inside parentheses at most
// kWholeGroupChars apart (U+201A, and U+00A0, a no-break space).
inline constexpr size_t kWholeGroupChars = 12;
std::string keep_numbers_whole(const std::string& text);

// ImGui::TextWrapped, its numbers and short groups kept whole (keep_numbers_whole).
void text_wrapped(const char* format, ...) IM_FMTARGS(1);

// A wrapped line in the dimmed text colour: what a figure is, where it comes from.
inline void disabled_note(const std::string& text) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    text_wrapped("%s", text.c_str());
    ImGui::PopStyleColor();
}

// Stores the last item's screen rectangle under `name` (see AppState::widget_rects).
inline void remember_rect(AppState& state, const std::string& name) {
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    state.widget_rects[name] = {a.x, a.y, b.x - a.x, b.y - a.y};
}

// ---- Widgets that fit a column as narrow as a projector's (1280 px: the left one ~190 px) ----
// ImGui draws a label on one line beside its widget, and a narrow column cuts what does not fit
// ("light theme (a lit roo", "gridDim = ceil(C / block"); these wrap it, or move it.

// `text` broken at spaces into lines that each fit `width` pixels of the current font; a word
// wider than that is cut after a ',', '(' or '[' where it can be, else after a '-', '_', '/' or
// '.', else where the line ends.
std::string wrap_to_width(const std::string& text, float width);

// A checkbox, a radio button and a button whose label wraps to the rest of the line; `id` keeps
// each the same widget however its lines fall.
bool wrapped_checkbox(const std::string& label, const char* id, bool* v);
bool wrapped_radio(const std::string& label, const char* id, bool active);
bool wrapped_button(const std::string& label, const char* id);

// The width of a checkbox or radio button, and of a button, whose label is `label`, on one line.
float box_item_width(const std::string& label);
float button_width(const std::string& label);

// Puts the next item, `width` pixels wide, on the last item's line where it fits there,
// `spacing` after it (negative: the style's), else lets it start the next line.
void same_line_if_fits(float width, float spacing = -1);

// Places `label` for the next item (a combo, a slider), `width` pixels wide: beside it where
// both fit the line, else on the line above, the item then taking the whole line. Returns the
// label to give the item (the same ImGui ID either way).
std::string place_label(const char* label, float width);
// place_label for a combo showing `preview`: where the combo would cut it ("matmul-tiled-nosyn",
// the suffix the missing-barrier lesson is about), the line above names it whole
// ("kernel: matmul-tiled-nosync"), the combo then taking the whole line.
std::string place_combo_label(const char* label, const std::string& preview, float width);

// An analysis tab's lead: its key figure in large type ("28.57 sectors per store request"),
// then one line of what it means; `name` is the figure's widget name (tests, replays).
void headline(AppState& state, const std::string& figure, const std::string& meaning, const std::string& name);

// Three unsigned fields on one line, `width` in all (0: the rest of the line), remembered as
// "ID.x", "ID.y", "ID.z"; true when any changed.
bool dim3_fields(AppState& state, const char* id, Dim3& d, float width = 0);

// The colour modes as a combo (the launch bar's; the side column has its radio buttons).
void color_mode_combo(AppState& state, float width);

// The grid that covers the launch's data for its blockDim (the "fix the grid" button's).
Dim3 covering_grid_of(const ResolvedLaunch& launch);
// Whether the launch's kernel covers its data with any grid (KernelSpec::any_grid_covers); false
// where nothing is resolved (a lesson that could not open).
bool any_grid_covers(const ResolvedLaunch& launch);
// What that grid is, in words for its button: one thread per element of a learner's kernel's
// largest array (threadmap cannot know what its threads cover), one element per thread for a
// grid-stride loop (any grid covers it), else the grid that covers the data.
std::string covering_grid_words(const ResolvedLaunch& launch);

// The controls changed the launch: it is the learner's own now, and the map follows.
void mark_launch_edited(AppState& state);

// A button that colours the map by `mode` (a colour mode name) and shows the map; its rectangle
// is remembered as "PREFIX:MODE" for scripted clicks.
inline void colour_map_button(AppState& state, const char* label, const char* mode, const char* prefix) {
    if (wrapped_button(label, (std::string(prefix) + ":" + mode).c_str())) {
        state.settings.color_mode = mode;
        state.pending.recolor = true;
        state.open_view = CentreView::Map;
    }
    remember_rect(state, std::string(prefix) + ":" + mode);
}

// The device profile the window models and places blocks on (the Timing tab's, the Occupancy
// tab's GPU: one choice); a new one recolours the map, whose SM and wave colours follow it.
inline void device_profile_combo(AppState& state, const char* label) {
    const auto& profiles = device_profiles();
    if (profiles.empty()) return;
    TimingState& t = state.timing;
    const size_t at = size_t(std::clamp(t.profile, 0, int(profiles.size()) - 1));
    if (ImGui::BeginCombo(label, profiles[at].title.c_str())) {
        for (size_t i = 0; i < profiles.size(); ++i)
            if (ImGui::Selectable(profiles[i].title.c_str(), i == at) && int(i) != t.profile) {
                t.profile = int(i);
                state.pending.recolor = true;
            }
        ImGui::EndCombo();
    }
}

}  // namespace threadmap
