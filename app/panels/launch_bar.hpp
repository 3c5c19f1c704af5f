// The launch bar: one row above the picture in presentation mode (F11) — the lesson with
// previous and next, blockDim and gridDim, the colour mode, and the way back to the panels.
#pragma once

#include "app/window_state/app_state.hpp"

namespace threadmap {

// The bar's height for the current style (one row of frames and its padding).
float launch_bar_height();
void draw_launch_bar(AppState& state);

}  // namespace threadmap
