// The lesson card, above the map: where the learner is in the curriculum (lesson N of M, its
// group), its title, what to look for on the picture, and Show me (the lesson's view again),
// Previous and Next. Folds to one line; the Lessons tab keeps the whole explanation.
#pragma once

#include "app/window_state/app_state.hpp"

namespace threadmap {

void draw_lesson_card(AppState& state);

}  // namespace threadmap
