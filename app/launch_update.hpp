// Turns the controls' launch into the map on screen: check it, emulate, lay out, colour.
// An invalid launch leaves the last valid map in place and says why.
#pragma once

#include "app_state.hpp"

namespace threadmap {

// Acts on state.needs_apply / needs_recolor; sets needs_upload when colours changed.
// max_side: the GL texture limit.
void update_picture(AppState& state, uint32_t max_side);

}  // namespace threadmap
