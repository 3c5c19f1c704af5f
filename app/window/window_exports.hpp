// Ctrl+S and Ctrl+Shift+S: the map figure, or the whole window, as PNG at 1×, 2× or 4×,
// into the export folder; the status bar says what was saved, or why not.
#pragma once

#include "app/window_state/app_state.hpp"
#include "app/panels/map_panel.hpp"
#include "app/window/window_session.hpp"

namespace threadmap {

// After the frame is drawn, before the swap; leaves the window's own framebuffer bound
// with the frame drawn again.
void handle_export_requests(AppState& state, const CellGridRenderer& renderer, MapFrame& frame,
                            const FramebufferSize& size, WindowSession& session);

}  // namespace threadmap
