// Turns the controls' launch into the map on screen: check it, emulate, lay out, colour.
// An invalid launch leaves the last valid map in place and says why.
#pragma once

#include "app_state.hpp"

namespace threadmap {

// Acts on state.pending.apply / pending.recolor; sets pending.upload when the picture needs
// painting again. max_side, max_cells: the GL limits. last_update_ms covers this step only; the
// window adds the painting.
void update_picture(AppState& state, uint32_t max_side, uint64_t max_cells);

}  // namespace threadmap
