// Lessons panel; see lessons_panel.hpp.
#include "lessons_panel.hpp"

#include <imgui.h>

#include "lessons.hpp"

namespace threadmap {

void draw_lessons_panel(AppState& state) {
    for (const auto& l : lessons()) {
        const bool current = state.edit.preset == l.name;
        ImGui::PushID(l.name.c_str());
        if (ImGui::Selectable(l.title.c_str(), current)) select_lesson(state, l.name);
        ImGui::Indent();
        ImGui::TextDisabled("--preset %s", l.name.c_str());
        ImGui::TextWrapped("%s", l.explanation.c_str());
        ImGui::TextWrapped("Look for: %s", l.look_for.c_str());
        ImGui::Unindent();
        ImGui::Spacing();
        ImGui::PopID();
    }
}

}  // namespace threadmap
