// The picture's own names and numbers: each array with its name and shape ("C 200×200",
// "A 300×200", "a[500]"), index rulers along its edges with ticks that adapt to the zoom,
// blockIdx at block corners and element indices inside cells when they fit; and where a kernel
// maps x to rows, a note saying so (which the legend shows). Placement is pure (map_labels,
// tick_step, ruler_margins: tested); draw_map_labels draws it on an ImDrawList, for the window
// and `render` alike.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "viz/color/colors.hpp"
#include "viz/color/theme.hpp"
#include "viz/layout/map_layout.hpp"
#include "viz/layout/view_transform.hpp"

struct ImDrawList;
struct ImFont;

namespace threadmap {

// An array on the picture: its name and shape, and where its cells are (world cells).
struct ArrayLabel {
    std::string text;  // "C 200×200", "a[500]"
    WorldRect box;
};

struct MapLabels {
    std::vector<ArrayLabel> arrays;  // the mapped array first
    // Where a kernel's threads map x to rows (the tutorial's matmul): a sentence for the
    // legend's note (beside the picture, where a line under it would cost the picture its
    // height), else empty.
    std::string axis_note;
    uint64_t rows = 0, cols = 0;  // the mapped array's shape (1D: cols elements per row of cells)
};

// The labels of a layout whose mapped array is called `array` (empty: C for the tutorial's
// matmul, a for its increments).
MapLabels map_labels(const MapLayout& layout, const std::string& array);

// The step between labelled ticks on a ruler (1, 2 or 5 × 10^k indices) so that labels stand
// at least `min_px` apart at `zoom` pixels per cell.
uint64_t tick_step(double zoom, double min_px);

// The space what is drawn around the picture takes, in pixels (fit with it): a gap on the left;
// above, the arrays' names and the row ruler's title; right, the row ruler's longest number;
// below, the column ruler with its title.
Margins ruler_margins(float font_px, const MapLayout& layout, const MapLabels& labels);

struct LabelStyle {
    ImFont* font = nullptr;
    float font_px = 15;
    Rgba8 text{230, 230, 230, 255};
    Rgba8 backing{16, 18, 22, 210};  // behind a label drawn over cells
};
inline LabelStyle label_style(ImFont* font, float font_px, const Theme& theme) {
    return {font, font_px, theme.text, theme.backing};
}

// Draws `labels` for the view: the arrays' names, the rulers of the mapped array, block
// labels at block corners and indices inside cells where they fit. Returns
// the screen rectangles of what it drew over cells (block labels, indices, the mapped array's
// name): what the picture's cells do not show there.
std::vector<ViewRect> draw_map_labels(ImDrawList* list, const MapLayout& layout, const MapLabels& labels,
                                      const View& view, const ViewRect& rect, const LabelStyle& style);

}  // namespace threadmap
