// Stats: threads launched, active and idle (the idle share as a bar), blocks, warps,
// untouched and multiply written elements.
#pragma once

#include "app/window_state/app_state.hpp"

namespace threadmap {

void draw_stats_panel(AppState& state);

}  // namespace threadmap
