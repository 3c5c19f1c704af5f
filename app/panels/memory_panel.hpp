// Memory: the warp requests of the launch on screen, counted in the kernel model as Nsight
// Compute counts them — per access site (source line, load or store, global or shared) its
// requests, sectors against the ideal or bank-conflict wavefronts, and active lanes; the
// kernel's totals; buttons that colour the map by sectors or active lanes.
#pragma once

#include "app/window_state/app_state.hpp"

namespace threadmap {

void draw_memory_panel(AppState& state);

}  // namespace threadmap
