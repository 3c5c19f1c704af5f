// The picture's own names and numbers drawn: each array with its name and shape ("C 200×200",
// "A 300×200", "a[500]"), index rulers along its edges with ticks that adapt to the zoom,
// blockIdx at block corners and element indices inside cells when they fit. Where they go is
// viz/layout/map_labels (pure, tested); draw_map_labels draws it on an ImDrawList, for the
// window and `render` alike.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "viz/color/colors.hpp"
#include "viz/color/theme.hpp"
#include "viz/layout/map_labels.hpp"
#include "viz/layout/map_layout.hpp"
#include "viz/layout/view_transform.hpp"

struct ImDrawList;
struct ImFont;

namespace threadmap {

struct LabelStyle {
    ImFont* font = nullptr;
    float font_px = 15;
    Rgba8 text{230, 230, 230, 255};
    Rgba8 backing{16, 18, 22, 210};  // behind a label drawn over cells
    // The colour cell (x, y) is painted (empty: unknown): a cell's index is light on a dark cell.
    std::function<Rgba8(uint32_t x, uint32_t y)> cell_color;
};
inline LabelStyle label_style(ImFont* font, float font_px, const Theme& theme) {
    return {font, font_px, theme.text, theme.backing, {}};
}

// Draws `labels` for the view: the arrays' names, the rulers of the mapped array, block
// labels at block corners and indices inside cells where they fit. Returns
// the screen rectangles of what it drew over cells (block labels, indices, the mapped array's
// name): what the picture's cells do not show there.
std::vector<ViewRect> draw_map_labels(ImDrawList* list, const MapLayout& layout, const MapLabels& labels,
                                      const View& view, const ViewRect& rect, const LabelStyle& style);

}  // namespace threadmap
