// The map: drawn by the cell-grid renderer inside ImGui's frame (a draw-list callback),
// with zoom (wheel, around the cursor), pan (drag), fit (double-click or F), hover and pin,
// the legend in a corner.
#pragma once

#include <optional>

#include "app/window_state/app_state.hpp"
#include "viz/draw/cell_grid_renderer.hpp"
#include "viz/draw/cell_image.hpp"

namespace threadmap {

// What the draw callback needs; lives in the window's frame loop.
struct MapFrame {
    const CellGridRenderer* renderer = nullptr;
    float framebuffer_scale = 1;  // framebuffer pixels per window pixel (2 or 4 for exports)
    int framebuffer_height = 0;
    // Filled by draw_map_panel for the callback:
    const MapLayout* layout = nullptr;
    View view;
    ViewRect rect;
    std::optional<glm::ivec2> hovered_element;
    Rgba8 background = kSceneBackground;  // the theme's, behind the cells
    // The comparison picture beside the map (MapPicture::compare), as one image, and what it
    // was painted from: repainted when the picture, its colours or its layout change.
    CellImage compare_image;
    uint64_t compare_serial = 0;  // MapPicture::serial of the picture painted (0: none)
    bool compare_memory = false;  // whether its memory view was there (a memory mode's figures)
    ColorContext compare_color;
    uint32_t compare_width = 0;
};

void draw_map_panel(AppState& state, MapFrame& frame);

}  // namespace threadmap
