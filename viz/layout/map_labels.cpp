// See map_labels.hpp.
#include "viz/layout/map_labels.hpp"

#include <algorithm>

namespace threadmap {

std::string shape_text(uint64_t rows, uint64_t cols) { return std::to_string(rows) + "\u00d7" + std::to_string(cols); }

OperandRects operand_rects(const MapLayout& layout) {
    const double gap = std::max(2.0, 0.03 * std::max(layout.width, layout.height));
    const double k = double(layout.workload.inner);
    return {{-gap - k, 0, -gap, double(layout.workload.a_rows)}, {0, -gap - k, double(layout.workload.b_cols), -gap}};
}

WorldRect scene_bounds(const MapLayout& layout) {
    WorldRect r{0, 0, double(layout.width), double(layout.height)};
    if (is_matrix(layout.workload.kernel)) {
        const OperandRects o = operand_rects(layout);
        r.x0 = o.a.x0;
        r.y0 = o.b.y0;
        r.x1 = std::max(r.x1, o.b.x1);
        r.y1 = std::max(r.y1, o.a.y1);
    }
    return r;
}

MapLabels map_labels(const MapLayout& layout, const std::string& array) {
    MapLabels l;
    const Workload& workload = layout.workload;
    if (layout.is_matrix()) {
        l.rows = workload.rows;
        l.cols = workload.cols;
    } else {
        l.cols = layout.width;
        l.rows = (workload.n + layout.width - 1) / std::max<uint64_t>(layout.width, 1);
    }
    const std::string name = array.empty() ? (is_matrix(workload.kernel) ? "C" : "a") : array;
    const WorldRect data{0, 0, double(layout.is_matrix() ? workload.cols : layout.width),
                         double(layout.is_matrix() ? workload.rows : l.rows)};
    l.arrays.push_back({layout.is_matrix() ? name + " " + shape_text(workload.rows, workload.cols)
                                           : name + "[" + std::to_string(workload.n) + "]",
                        data});
    if (is_matrix(workload.kernel)) {
        const OperandRects o = operand_rects(layout);
        l.arrays.push_back({"A " + shape_text(workload.a_rows, workload.inner), o.a});
        l.arrays.push_back({"B " + shape_text(workload.inner, workload.b_cols), o.b});
        l.axis_note = layout.placement == ThreadPlacement::XRow
                          ? "i, j = cuda.grid(2): x runs down the rows of C (i), y across its columns (j)"
                          : "x runs across the columns of C (j), y down its rows (i)";
    }
    return l;
}

uint64_t tick_step(double zoom, double min_px) {
    const double cells = min_px / std::max(zoom, 1e-9);
    for (uint64_t decade = 1; decade < (uint64_t(1) << 60); decade *= 10)
        for (uint64_t k : {uint64_t(1), uint64_t(2), uint64_t(5)})
            if (double(k * decade) >= cells) return k * decade;
    return uint64_t(1) << 60;
}

Margins ruler_margins(float font_px, const MapLayout& layout, const MapLabels& labels) {
    // The rulers' text is 0.8 of the font; a digit is about 0.62 of that wide (draw_rulers).
    const uint64_t per_row = layout.is_matrix() ? 1 : layout.width;
    const uint64_t last_row_start = labels.rows > 0 ? (labels.rows - 1) * per_row : 0;
    const double digits = double(std::to_string(last_row_start).size());
    Margins m;
    m.left = font_px * 0.4;
    m.top = font_px * 1.5;                             // a name (0.9 of the font) a line above its array
    m.right = font_px * (0.55 + 0.8 * 0.62 * digits);  // the ruler's gap (0.32), its number, a gap
    m.bottom = font_px * 2.4;                          // the ticks' numbers, the ruler's title
    return m;
}

}  // namespace threadmap
