// Lessons panel; see lessons_panel.hpp.
#include "lessons_panel.hpp"

#include <imgui.h>

#include "lesson_text.hpp"
#include "lessons.hpp"

namespace threadmap {

void draw_lessons_panel(AppState& state) {
    for (const auto& l : lessons()) {
        const bool current = state.edit.preset == l.name;
        ImGui::PushID(l.name.c_str());
        if (ImGui::Selectable(l.title.c_str(), current)) select_lesson(state, l.name);
        ImGui::Indent();
        ImGui::TextDisabled("--preset %s", l.name.c_str());
        if (current) {  // the figures come from the lesson's own launch (one emulation, kept)
            const auto& figures = lesson_figures(l);
            ImGui::TextWrapped("%s", fill_lesson_text(l.explanation, figures).c_str());
            ImGui::TextWrapped("Look for: %s", fill_lesson_text(l.look_for, figures).c_str());
            for (const auto& source : l.sources) ImGui::TextDisabled("Source: %s", source.source.c_str());
        }
        ImGui::Unindent();
        ImGui::Spacing();
        ImGui::PopID();
    }
}

}  // namespace threadmap
