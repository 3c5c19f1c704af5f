// Display: colour mode, palette, row width of 1D maps, UI scale; and export.
#pragma once

#include "app_state.hpp"

namespace threadmap {

void draw_display_panel(AppState& state);

}  // namespace threadmap
