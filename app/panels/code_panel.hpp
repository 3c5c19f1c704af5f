// Code: the kernel in numba Python and in CUDA C++, with the current launch line and the
// bounds guard highlighted.
#pragma once

#include "app/window_state/app_state.hpp"

namespace threadmap {

void draw_code_panel(AppState& state);

}  // namespace threadmap
