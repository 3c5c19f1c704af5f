// Display: colour mode, palette, row width of 1D maps, UI scale; and export.
#pragma once

#include "app/window_state/app_state.hpp"

namespace threadmap {

void draw_display_panel(AppState& state);

}  // namespace threadmap
