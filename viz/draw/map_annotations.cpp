// See map_annotations.hpp.
#include "viz/draw/map_annotations.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "viz/draw/cell_grid_renderer.hpp"
#include "viz/draw/imgui_color.hpp"

namespace threadmap {

namespace {

std::string dims(uint64_t rows, uint64_t cols) { return std::to_string(rows) + "\u00d7" + std::to_string(cols); }

// Text with a backing box, its top-left at `at`; the box's screen rectangle.
ViewRect backed_text(ImDrawList* dl, const LabelStyle& s, float px, ImVec2 at, const std::string& text) {
    const ImVec2 size = s.font->CalcTextSizeA(px, 1e9f, 0, text.c_str());
    dl->AddRectFilled(ImVec2(at.x - 2, at.y - 1), ImVec2(at.x + size.x + 2, at.y + size.y + 1), to_imgui(s.backing), 2);
    dl->AddText(s.font, px, at, to_imgui(s.text), text.c_str());
    return {at.x - 2, at.y - 1, size.x + 4, size.y + 2};
}

// The visible range [first, last) of cells along one axis, within [0, count).
std::pair<uint64_t, uint64_t> visible(double world0, double world1, uint64_t count) {
    const double a = std::clamp(std::floor(world0), 0.0, double(count));
    const double b = std::clamp(std::ceil(world1), 0.0, double(count));
    return {uint64_t(a), uint64_t(b)};
}

// Where block (bx, by)'s first cell is, for the tutorial's kernels (cells of C or of a); false
// when the layout's blocks are not a regular grid of cells (a model kernel's: by toucher).
bool block_origin(const MapLayout& layout, uint64_t bx, uint64_t by, double& x, double& y) {
    const Dim3& b = layout.launch.block;
    switch (layout.workload.kernel) {
        case KernelKind::Matmul:  // x indexes rows
            x = double(by * b.y);
            y = double(bx * b.x);
            return true;
        case KernelKind::MatmulXCol:
            x = double(bx * b.x);
            y = double(by * b.y);
            return true;
        case KernelKind::Increment:
        case KernelKind::IncrementStride: {
            const uint64_t e = bx * b.x;  // pos = blockIdx.x · blockDim.x + threadIdx.x
            x = double(e % layout.width);
            y = double(e / layout.width);
            return true;
        }
        case KernelKind::Model:
            return false;
    }
    return false;
}

void draw_rulers(ImDrawList* dl, const MapLayout& layout, const MapLabels& labels, const View& v, const ViewRect& r,
                 const LabelStyle& s) {
    const float px = s.font_px * 0.8f;
    const double zoom = v.zoom;
    const glm::dvec2 w0 = screen_to_world(v, r, {r.x, r.y}), w1 = screen_to_world(v, r, {r.x + r.w, r.y + r.h});
    const double digit_w = px * 0.62;
    // Columns, under the drawn cells: j of the array (1D: the offset in the row).
    const uint64_t cols = labels.cols, rows = labels.rows;
    const uint64_t col_step = tick_step(zoom, digit_w * (std::to_string(cols).size() + 1.5));
    const double below = world_to_screen(v, r, {0, double(layout.height)}).y + px * 0.3;
    const auto [c0, c1] = visible(w0.x, w1.x, cols);
    const ImU32 ink = to_imgui(s.text), faint = to_imgui(Rgba8{s.text.r, s.text.g, s.text.b, 120});
    for (uint64_t j = (c0 + col_step - 1) / col_step * col_step; j < c1; j += col_step) {
        const std::string t = std::to_string(j);
        const double cx = world_to_screen(v, r, {double(j) + 0.5, 0}).x;
        const float tw = s.font->CalcTextSizeA(px, 1e9f, 0, t.c_str()).x;
        dl->AddLine(ImVec2(float(cx), float(below) - px * 0.3f), ImVec2(float(cx), float(below)), faint);
        dl->AddText(s.font, px, ImVec2(float(cx) - tw / 2, float(below)), ink, t.c_str());
    }
    // Rows, right of the drawn cells: i of the array (1D: the row's first element).
    const uint64_t row_first = layout.is_matrix() ? 1 : layout.width;  // elements per row of cells
    const uint64_t row_step = tick_step(zoom, px * 1.3);
    const double right = world_to_screen(v, r, {double(layout.width), 0}).x + px * 0.4;
    const auto [r0, r1] = visible(w0.y, w1.y, rows);
    for (uint64_t i = (r0 + row_step - 1) / row_step * row_step; i < r1; i += row_step) {
        const std::string t = std::to_string(i * row_first);
        const double cy = world_to_screen(v, r, {0, double(i) + 0.5}).y;
        dl->AddText(s.font, px, ImVec2(float(right), float(cy) - px / 2), ink, t.c_str());
    }
    // What each ruler counts (kept inside the view).
    const std::string across = layout.is_matrix() ? "j (column) \u2192" : "offset in the row \u2192";
    const std::string down = layout.is_matrix() ? "i (row) \u2193" : "row start \u2193";
    const float down_w = s.font->CalcTextSizeA(px, 1e9f, 0, down.c_str()).x;
    dl->AddText(s.font, px,
                ImVec2(std::min(float(right), float(r.x + r.w) - down_w - 2),
                       float(world_to_screen(v, r, {0, 0}).y) - px * 1.4f),
                faint, down.c_str());
    dl->AddText(s.font, px, ImVec2(float(world_to_screen(v, r, {0, 0}).x), float(below) + px * 1.3f), faint,
                across.c_str());
}

void draw_block_labels(ImDrawList* dl, const MapLayout& layout, const View& v, const ViewRect& r, const LabelStyle& s,
                       std::vector<ViewRect>& over) {
    const float px = s.font_px * 0.75f;
    const Dim3& g = layout.launch.grid;
    const double cell_w =
        layout.is_matrix()
            ? double(layout.workload.kernel == KernelKind::Matmul ? layout.launch.block.y : layout.launch.block.x)
            : double(std::min<uint64_t>(layout.launch.block.x, layout.width));
    const double cell_h =
        layout.is_matrix()
            ? double(layout.workload.kernel == KernelKind::Matmul ? layout.launch.block.x : layout.launch.block.y)
            : 1;
    if (cell_w * v.zoom < px * 3 || cell_h * v.zoom < px * 1.1) return;  // no room for a label
    const uint64_t gy = layout.is_matrix() ? g.y : 1;
    uint64_t drawn = 0;
    for (uint64_t by = 0; by < gy && drawn < 4096; ++by)
        for (uint64_t bx = 0; bx < g.x && drawn < 4096; ++bx) {
            double x = 0, y = 0;
            if (!block_origin(layout, bx, by, x, y) || x >= layout.width || y >= layout.height) continue;
            const glm::dvec2 at = world_to_screen(v, r, {x, y});
            if (at.x > r.x + r.w || at.y > r.y + r.h || at.x + cell_w * v.zoom < r.x || at.y + cell_h * v.zoom < r.y)
                continue;
            const std::string t =
                layout.is_matrix() ? "(" + std::to_string(bx) + "," + std::to_string(by) + ")" : std::to_string(bx);
            if (s.font->CalcTextSizeA(px, 1e9f, 0, t.c_str()).x + 4 > cell_w * v.zoom) continue;
            over.push_back(backed_text(dl, s, px, ImVec2(float(at.x) + 2, float(at.y) + 1), t));
            ++drawn;
        }
}

void draw_cell_indices(ImDrawList* dl, const MapLayout& layout, const View& v, const ViewRect& r, const LabelStyle& s,
                       std::vector<ViewRect>& over) {
    if (v.zoom < 24) return;
    const float px = std::min(s.font_px * 0.7f, float(v.zoom) * 0.4f);
    const glm::dvec2 w0 = screen_to_world(v, r, {r.x, r.y}), w1 = screen_to_world(v, r, {r.x + r.w, r.y + r.h});
    const auto [x0, x1] = visible(w0.x, w1.x, layout.width);
    const auto [y0, y1] = visible(w0.y, w1.y, layout.height);
    for (uint64_t y = y0; y < y1; ++y)
        for (uint64_t x = x0; x < x1; ++x) {
            const uint64_t e = layout.element_index(uint32_t(x), uint32_t(y));
            if (e == MapLayout::kNoElement) continue;
            const std::string t = layout.is_matrix() ? std::to_string(y) + "," + std::to_string(x) : std::to_string(e);
            const ImVec2 size = s.font->CalcTextSizeA(px, 1e9f, 0, t.c_str());
            if (size.x + 4 > v.zoom) continue;
            const glm::dvec2 c = world_to_screen(v, r, {double(x) + 0.5, double(y) + 0.5});
            dl->AddText(s.font, px, ImVec2(float(c.x) - size.x / 2, float(c.y) - size.y / 2), IM_COL32(0, 0, 0, 200),
                        t.c_str());
            over.push_back({c.x - size.x / 2, c.y - size.y / 2, size.x, size.y});
        }
}

}  // namespace

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
    l.arrays.push_back({layout.is_matrix() ? name + " " + dims(workload.rows, workload.cols)
                                           : name + "[" + std::to_string(workload.n) + "]",
                        data});
    if (is_matrix(workload.kernel)) {
        const OperandRects o = operand_rects(layout);
        l.arrays.push_back({"A " + dims(workload.a_rows, workload.inner), o.a});
        l.arrays.push_back({"B " + dims(workload.inner, workload.b_cols), o.b});
        l.axis_note = workload.kernel == KernelKind::Matmul
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
    m.left = font_px * 0.6;
    m.top = font_px * 1.5;                            // a name (0.9 of the font) a line above its array
    m.right = font_px * (0.7 + 0.8 * 0.62 * digits);  // the ruler's gap, its number, a gap
    m.bottom = font_px * 2.4;                         // the ticks' numbers, the ruler's title
    return m;
}

std::vector<ViewRect> draw_map_labels(ImDrawList* dl, const MapLayout& layout, const MapLabels& labels, const View& v,
                                      const ViewRect& r, const LabelStyle& s) {
    std::vector<ViewRect> over;
    dl->PushClipRect(ImVec2(float(r.x), float(r.y)), ImVec2(float(r.x + r.w), float(r.y + r.h)), true);
    draw_cell_indices(dl, layout, v, r, s, over);
    draw_block_labels(dl, layout, v, r, s, over);
    draw_rulers(dl, layout, labels, v, r, s);
    const float px = s.font_px * 0.9f;
    for (size_t k = 0; k < labels.arrays.size(); ++k) {
        const ArrayLabel& a = labels.arrays[k];
        const glm::dvec2 at = world_to_screen(v, r, {a.box.x0, a.box.y0});
        // The mapped array's name over its first cells (B lies just above C); the operands' above them.
        const ImVec2 where = k == 0 && layout.is_matrix() ? ImVec2(float(at.x) + 3, float(at.y) + 3)
                                                          : ImVec2(float(at.x), float(at.y) - px * 1.35f);
        const ViewRect box = backed_text(dl, s, px, where, a.text);
        if (k == 0 && layout.is_matrix()) over.push_back(box);
    }
    dl->PopClipRect();
    return over;
}

}  // namespace threadmap
