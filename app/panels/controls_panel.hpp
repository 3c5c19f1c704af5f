// Controls: lesson, kernel, shape, blockDim and gridDim. Changes apply at once; an invalid
// launch is explained inline while the last valid map stays on screen.
#pragma once

#include "app/window_state/app_state.hpp"

namespace threadmap {

void draw_controls_panel(AppState& state);

}  // namespace threadmap
