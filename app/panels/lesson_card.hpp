// The lesson card, above the map: where the learner is in the curriculum (lesson N of M, its
// group), its title, what to look for on the picture, and Show me (the lesson's view again),
// Previous and Next. Folds to one line; the Lessons tab keeps the whole explanation.
#pragma once

#include <string>

#include "app/window_state/app_state.hpp"

namespace threadmap {

void draw_lesson_card(AppState& state);

// "Look for: …" of the lesson on screen, for the map view to put in its margin (above the
// legend, beside or under the picture) instead of in the card above it, where it fits there
// (AppState::look_for_in_margin): the card's lines would take the picture's height. Empty when
// there is no lesson or its card is folded.
std::string look_for_for_margin(const AppState& state);

}  // namespace threadmap
