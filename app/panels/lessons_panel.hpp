// Lessons: every preset with its explanation and what to look for on the map.
#pragma once

#include "app/window_state/app_state.hpp"

namespace threadmap {

void draw_lessons_panel(AppState& state);

}  // namespace threadmap
