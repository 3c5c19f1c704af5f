// Occupancy: how the blocks of the launch on screen land on the chosen GPU's SMs (CUDA's
// occupancy calculator): blocks per SM, occupancy, the limiter in words, the waves, buttons
// that colour the map by SM or wave, and a block-size sweep (occupancy bars, waves and the
// modeled kernel time per size, the current size marked).
#pragma once

#include "app/window_state/app_state.hpp"

namespace threadmap {

void draw_occupancy_panel(AppState& state);

}  // namespace threadmap
