// The launch bar: one row (two in a narrow window) above the picture in presentation mode (F11) — the lesson with
// previous and next, blockDim and gridDim, the colour mode, and the way back to the panels.
#pragma once

#include "app/window_state/app_state.hpp"

namespace threadmap {

// The bar's height for the current style in `width` pixels: one row of frames, or two where one
// does not hold it, and its padding.
float launch_bar_height(const ResolvedLaunch& resolved, float width);
void draw_launch_bar(AppState& state);

}  // namespace threadmap
