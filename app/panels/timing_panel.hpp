// Timing: what copying to the GPU costs next to what the kernel costs — one bar per run,
// h2d | kernel | d2h on a common time axis, beside the CPU's bar — measured here, modeled
// from a device profile, or recorded on a GPU elsewhere, every figure labelled with its
// origin; and the size sweep, with where the GPU starts to win.
#pragma once

#include "app/window_state/app_state.hpp"

namespace threadmap {

void draw_timing_panel(AppState& state);

}  // namespace threadmap
