// Turns the controls' launch into the map on screen: check it (at once), then emulate and lay
// out on a worker thread while the window keeps drawing the last map. An invalid launch, or
// one that fails, leaves the last valid map in place and says why.
#pragma once

#include "app/window_state/app_state.hpp"

namespace threadmap {

// Once a frame: puts a finished map on screen (pending.upload), then acts on pending.apply
// (check; start a job, cancelling one that runs) or pending.recolor / relayout (at once).
// max_side, max_cells: the GL limits. last_update_ms: how long the last map took to compute.
void update_picture(AppState& state, uint32_t max_side, uint64_t max_cells);

// Stops the map being computed (the cancel button); the last map stays.
void cancel_picture_job(AppState& state);

// Runs update_picture until no map is being computed or waiting to be (tests, and callers
// that want the map now).
void finish_picture_job(AppState& state, uint32_t max_side, uint64_t max_cells);

}  // namespace threadmap
