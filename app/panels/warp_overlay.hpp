// The warp inspector on the map: in a memory colour mode, the request of the cell under the
// mouse (or pinned) drawn over the array — a strip of the warp's 32 lanes with an arrow from
// each active lane to its element; for a global array the 32-byte sectors the lanes fall in,
// shaded, with sector and 128-byte line boundaries; for a __shared__ array the 32 banks as a
// strip, each with the distinct words the lanes touch in it — and a line that counts them
// ("this store touches 32 sectors; 4 would do"). Left and Right step to the warp's previous
// and next request of the mapped array (the map's access: stores, or loads for a read map).
#pragma once

#include <imgui.h>

#include "app/window_state/app_state.hpp"

namespace threadmap {

// The request the overlay shows: the inspected cell's first, or the one the keys stepped to;
// null outside a memory colour mode or when the picture kept no request for the cell.
const KeptRequest* inspected_request(const AppState& state);

// Steps to the inspected warp's next (+1) or previous (-1) request in program order; false at
// either end or with nothing inspected.
bool step_warp_request(AppState& state, int direction);

void draw_warp_overlay(ImDrawList* list, const AppState& state, const ViewRect& map_rect);

// A Memory-table row clicked: pins the first element of its line's first kept request, shows
// that request in the warp inspector, outlines every element the line's kept requests touch
// (AppState::memory_line), colours the map by sectors (banks for a __shared__ array) and shows
// it. False, changing nothing, when the picture kept no request of the site (another array or
// access than the map's: those are counted, not kept).
bool select_memory_line(AppState& state, const MemorySite& site);

}  // namespace threadmap
