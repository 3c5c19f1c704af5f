// Lesson card; see lesson_card.hpp.
#include "app/panels/lesson_card.hpp"

#include <imgui.h>

#include <algorithm>

#include "app/reports/lesson_text.hpp"
#include "app/launch/lessons.hpp"
#include "app/panels/panel_widgets.hpp"

namespace threadmap {

namespace {

// With a launch the learner changed, the paragraph says whose launch its figures are (the
// seed-increment lesson's "12 threads that fail the guard" beside blockDim 100's 1,100 idle).
std::string look_for_text(const AppState& state, const Lesson& lesson) {
    const bool changed = state.edit.preset != lesson.name;
    return (changed ? "Look for, on the lesson's own launch (Show me opens it again): " : "Look for: ") +
           lesson_text_now(state, lesson, lesson.look_for);
}

// The lesson's title, on the card's first line or wrapped on the lines under it; its summary on hover.
void card_title(AppState& state, const Lesson& lesson, bool wrapped) {
    if (wrapped)
        text_wrapped("%s", lesson.title.c_str());
    else
        ImGui::TextUnformatted(lesson.title.c_str());
    remember_rect(state, "lesson:title");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", lesson.summary.c_str());
}

}  // namespace

std::string look_for_for_margin(const AppState& state) {
    const Lesson* lesson = find_lesson(state.lesson);
    return lesson && state.settings.lesson_card_open ? look_for_text(state, *lesson) : "";
}

namespace {

// The card's first line: the fold arrow, where the lesson is in the curriculum (and whether the
// launch is still its own), the title where it fits beside the buttons, Previous, Show me and
// Next. True when the title goes on the lines under them.
bool card_line(AppState& state, const Lesson& lesson) {
    const auto& all = lessons();
    const size_t at = size_t(&lesson - all.data());
    if (ImGui::ArrowButton("##fold", state.settings.lesson_card_open ? ImGuiDir_Down : ImGuiDir_Right))
        state.settings.lesson_card_open = !state.settings.lesson_card_open;
    remember_rect(state, "lesson:fold");
    ImGui::SameLine();
    // A launch the learner changed keeps the lesson's card; its figures stay the lesson's own.
    const bool changed = state.edit.preset != lesson.name;
    ImGui::TextDisabled("Lesson %zu of %zu \u00b7 %s%s", at + 1, all.size(), lesson.group.c_str(),
                        changed ? " \u00b7 your launch" : "");
    if (changed && ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "You changed the lesson's launch; its figures are the lesson's own. Show me opens its "
            "launch again.");
    ImGui::SameLine(0, ImGui::GetFontSize());
    // The title in what the buttons at the right end of the line leave, or, where it does not fit
    // there (most titles at a projector's 1280 pixels), whole on the lines under them: cut with
    // "…", the lesson's name was lost to the room.
    const ImGuiStyle& style = ImGui::GetStyle();
    const float buttons = ImGui::CalcTextSize("Show me").x + 2 * ImGui::GetFrameHeight() + 2 * style.FramePadding.x +
                          2 * style.ItemSpacing.x;
    const float buttons_x = ImGui::GetWindowContentRegionMax().x - buttons;
    const bool title_beside =
        ImGui::CalcTextSize(lesson.title.c_str()).x <= buttons_x - ImGui::GetCursorPosX() - style.ItemSpacing.x;
    if (title_beside) card_title(state, lesson, false);
    ImGui::SameLine(std::max(ImGui::GetCursorPosX(), buttons_x));
    if (ImGui::ArrowButton("##previous", ImGuiDir_Left))
        select_lesson(state, all[(at + all.size() - 1) % all.size()].name);
    remember_rect(state, "lesson:card-previous");
    ImGui::SameLine();
    if (ImGui::Button("Show me")) {
        if (changed)
            select_lesson(state, lesson.name);  // its own launch again, opening on its view
        else
            show_lesson_view(state, lesson);
    }
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip(changed ? "Open the lesson's launch and the picture its point is on, again"
                                  : "Open the picture this lesson's point is on, again");
    remember_rect(state, "lesson:show-me");
    ImGui::SameLine();
    if (ImGui::ArrowButton("##next", ImGuiDir_Right)) select_lesson(state, all[(at + 1) % all.size()].name);
    remember_rect(state, "lesson:card-next");
    return !title_beside;
}

// The lesson's Look for, at most a quarter of the centre's height (three lines at least),
// scrolling within beyond: at a raised UI scale in presentation mode its 3 to 8 lines left the
// map a strip.
void card_look_for(AppState& state, const Lesson& lesson) {
    const std::string text = look_for_text(state, lesson);
    const float most = std::max(3 * ImGui::GetTextLineHeightWithSpacing(), ImGui::GetContentRegionAvail().y / 4);
    const float tall =
        ImGui::CalcTextSize(keep_numbers_whole(text).c_str(), nullptr, false, ImGui::GetContentRegionAvail().x).y;
    if (tall <= most) {
        text_wrapped("%s", text.c_str());
    } else {
        ImGui::BeginChild("look-for", ImVec2(0, most));
        text_wrapped("%s", text.c_str());
        ImGui::EndChild();
    }
    remember_rect(state, "lesson:look-for");
}

}  // namespace

void draw_lesson_card(AppState& state) {
    const Lesson* lesson = find_lesson(state.lesson);
    if (!lesson) return;
    ImGui::PushID("lesson-card");
    if (card_line(state, *lesson)) card_title(state, *lesson, true);
    if (state.settings.lesson_card_open && !state.look_for_in_margin) card_look_for(state, *lesson);
    ImGui::Separator();
    ImGui::PopID();
}

}  // namespace threadmap
