// Inspector: the hovered (or pinned) cell's thread, with the index formula's numbers in.
#pragma once

#include "app/window_state/app_state.hpp"

namespace threadmap {

void draw_inspector_panel(AppState& state);

}  // namespace threadmap
