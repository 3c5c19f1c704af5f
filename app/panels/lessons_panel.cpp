// Lessons panel; see lessons_panel.hpp.
#include "app/panels/lessons_panel.hpp"

#include <imgui.h>

#include <string>

#include "app/panels/panel_widgets.hpp"
#include "app/reports/lesson_text.hpp"
#include "app/launch/lessons.hpp"

namespace threadmap {

// Every lesson by group, in the curriculum's order; opened, the list shows the open lesson.
void draw_lessons_panel(AppState& state) {
    std::string group;
    for (const auto& l : lessons()) {
        const bool current = state.lesson == l.name;
        if (l.group != group) {
            ImGui::Spacing();
            disabled_note(group = l.group);
            ImGui::Separator();
        }
        if (current && state.requests.show_current_lesson) ImGui::SetScrollHereY(0.1f);
        ImGui::PushID(l.name.c_str());
        // The title wrapped to the column: a projector's cut it ("increment_by_one, one th").
        const std::string title = wrap_to_width(l.title, ImGui::GetContentRegionAvail().x) + "###title";
        if (ImGui::Selectable(title.c_str(), current)) select_lesson(state, l.name);
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", l.summary.c_str());
        ImGui::Indent();
        disabled_note(wrap_to_width("--preset " + l.name, ImGui::GetContentRegionAvail().x));
        if (current) {  // the figures come from the lesson's own launch (one emulation, kept)
            text_wrapped("%s", lesson_text_now(state, l, l.explanation).c_str());
            text_wrapped("Look for: %s", lesson_text_now(state, l, l.look_for).c_str());
            for (const auto& source : l.sources) disabled_note("Source: " + source.source);
        }
        ImGui::Unindent();
        ImGui::Spacing();
        ImGui::PopID();
    }
    state.requests.show_current_lesson = false;
}

}  // namespace threadmap
