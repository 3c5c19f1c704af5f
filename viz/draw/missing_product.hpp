// What C cannot hold of A·B: the tutorial's seed-matmul multiplies a 300×200 A by a 200×300
// B into a 200×200 C, so the guard skips 50,000 of the product's results. The map outlines
// the whole product over C and says how many results are never computed; the window and
// `threadmap render` draw the same annotation.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "viz/color/colors.hpp"
#include "viz/layout/view_transform.hpp"
#include "kernels/core/workload.hpp"

struct ImDrawList;
struct ImFont;

namespace threadmap {

struct MissingProduct {
    uint64_t results = 0;  // cells of A·B outside C
    WorldRect product;     // A·B in map cells: a_rows down, b_cols across
    std::string text;      // "50,000 results are never computed: C is 200×200, A·B is 300×300"
    std::string name;      // "A·B 300×300": the outline's own tag (C's name sits at the corner they share)
};

// Empty unless the workload is a matmul whose C is smaller than A·B.
std::optional<MissingProduct> missing_product(const Workload& workload);

// The outline of A·B, its tag inside its bottom-right corner and its sentence under it, in the
// view's screen coordinates.
// Returns the screen rectangles of its texts (over cells: what a pixel check leaves out).
std::vector<ViewRect> draw_missing_product(ImDrawList* list, const MissingProduct& m, const View& view,
                                           const ViewRect& rect, ImFont* font, float font_px,
                                           Rgba8 backing = {10, 10, 12, 225});

// 50000 → "50,000".
std::string group_thousands(uint64_t value);

}  // namespace threadmap
