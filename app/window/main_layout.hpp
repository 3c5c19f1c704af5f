// The window's layout: controls on the left, the map in the middle, inspector, stats, code
// and lessons on the right, a status bar at the bottom. Column widths are settings.
#pragma once

#include "app/window_state/app_state.hpp"
#include "app/panels/map_panel.hpp"

namespace threadmap {

void draw_main_layout(AppState& state, MapFrame& frame);

// Ctrl +/− (UI scale), Ctrl+S (export the map), Ctrl+Shift+S (export the window).
void handle_shortcuts(AppState& state);

}  // namespace threadmap
