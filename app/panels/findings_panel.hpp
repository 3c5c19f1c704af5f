// Findings: what the kernel model reports for the launch on screen (out of bounds, races,
// hazards, uninitialised shared reads, divergent barriers), one line each; clicking one on
// the mapped array pins its element and centres the view on it, so the inspector names the
// thread that wrote it.
#pragma once

#include "app/window_state/app_state.hpp"

namespace threadmap {

void draw_findings_panel(AppState& state);

}  // namespace threadmap
