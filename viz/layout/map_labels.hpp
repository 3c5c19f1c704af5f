// What the picture says about itself, as pure functions of its layout (tested; drawn by
// viz/draw/map_annotations): where A and B sit beside C and the scene they make, each array's
// name and shape ("C 200×200", "a[500]"), the rulers' tick steps, the margins the names and
// rulers take around the picture, and where a kernel maps x to rows, a note saying so.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "viz/layout/map_layout.hpp"
#include "viz/layout/view_transform.hpp"

namespace threadmap {

// A matrix's shape as the picture and its captions write it: "200×300" (rows × columns).
std::string shape_text(uint64_t rows, uint64_t cols);

// Where A and B sit relative to C (world cells): A to the left (its rows beside C's rows),
// B above (its columns above C's columns).
struct OperandRects {
    WorldRect a, b;
};
OperandRects operand_rects(const MapLayout& layout);
// Everything the scene draws: C with its ghosts, and A and B for matmul.
WorldRect scene_bounds(const MapLayout& layout);

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

}  // namespace threadmap
