// The warp inspector on the map: in a memory colour mode, the store request of the cell under
// the mouse (or pinned) drawn over the array — its lanes' elements outlined, the 32-byte
// sectors they fall in shaded with their boundaries, 128-byte line starts marked — and a line
// that counts them ("this store touches 32 sectors; 4 would do").
#pragma once

#include <imgui.h>

#include "app_state.hpp"

namespace threadmap {

// The store request the overlay shows: the inspected cell's, in a memory colour mode, when the
// picture kept its requests.
const WarpRequest* inspected_store_request(const AppState& state);

void draw_warp_overlay(ImDrawList* list, const AppState& state, const ViewRect& map_rect);

}  // namespace threadmap
