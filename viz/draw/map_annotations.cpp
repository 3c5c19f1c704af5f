// See map_annotations.hpp.
#include "viz/draw/map_annotations.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "viz/draw/cell_grid_renderer.hpp"
#include "viz/draw/imgui_color.hpp"

namespace threadmap {

namespace {

// The fewest pixels per cell at which cells are numbered (draw_cell_indices).
constexpr double kCellIndexZoom = 24;

// Text with a backing box, its top-left at `at`; the box's screen rectangle.
ViewRect backed_text(ImDrawList* dl, const LabelStyle& s, float px, ImVec2 at, const std::string& text) {
    const ImVec2 size = s.font->CalcTextSizeA(px, 1e9f, 0, text.c_str());
    dl->AddRectFilled(ImVec2(at.x - 2, at.y - 1), ImVec2(at.x + size.x + 2, at.y + size.y + 1), to_imgui(s.backing), 2);
    dl->AddText(s.font, px, at, to_imgui(s.text), text.c_str());
    return {at.x - 2, at.y - 1, size.x + 4, size.y + 2};
}

// Whether `box` meets any of the first `count` rectangles of `taken` (labels already drawn).
bool meets_any(const ViewRect& box, const std::vector<ViewRect>& taken, size_t count) {
    return std::any_of(taken.begin(), taken.begin() + std::ptrdiff_t(count),
                       [&](const ViewRect& o) { return overlaps(box, o); });
}

// Where in `block` a label `size` big meets none of the first `count` labels drawn: at the
// block's corner (x, y), or just right of or under the one it meets there (a block's number
// beside C's name, which lies over the first blocks: grid-vs-block-dim's "(0,0)" and "(1,0)"
// were not drawn at all). None where no such place is inside the block.
std::optional<ImVec2> clear_spot(const std::vector<ViewRect>& taken, size_t count, double x, double y, ImVec2 size,
                                 const ViewRect& block) {
    std::vector<ImVec2> tries = {ImVec2(float(x), float(y))};
    for (size_t i = 0; i < tries.size() && i < 5; ++i) {
        const ViewRect box{tries[i].x, tries[i].y, size.x + 4, size.y + 2};
        if (box.x + box.w > block.x + block.w + 0.5 || box.y + box.h > block.y + block.h + 0.5) continue;
        const auto met = std::find_if(taken.begin(), taken.begin() + std::ptrdiff_t(count),
                                      [&](const ViewRect& o) { return overlaps(box, o); });
        if (met == taken.begin() + std::ptrdiff_t(count)) return tries[i];
        tries.push_back(ImVec2(float(met->x + met->w + 1), tries[i].y));
        tries.push_back(ImVec2(tries[i].x, float(met->y + met->h + 1)));
    }
    return std::nullopt;
}

// The visible range [first, last) of cells along one axis, within [0, count).
std::pair<uint64_t, uint64_t> visible(double world0, double world1, uint64_t count) {
    const double a = std::clamp(std::floor(world0), 0.0, double(count));
    const double b = std::clamp(std::ceil(world1), 0.0, double(count));
    return {uint64_t(a), uint64_t(b)};
}

// Where block (bx, by)'s first cell is, for a fast body's map (cells of C or of a); false when
// the layout's blocks are not a regular grid of cells (a model kernel's: by toucher).
bool block_origin(const MapLayout& layout, uint64_t bx, uint64_t by, double& x, double& y) {
    const Dim3& b = layout.launch.block;
    switch (layout.placement) {
        case ThreadPlacement::XRow:  // x indexes rows
            x = double(by * b.y);
            y = double(bx * b.x);
            return true;
        case ThreadPlacement::XColumn:
            x = double(bx * b.x);
            y = double(by * b.y);
            return true;
        case ThreadPlacement::Linear: {
            const uint64_t e = bx * b.x;  // pos = blockIdx.x · blockDim.x + threadIdx.x
            x = double(e % layout.width);
            y = double(e / layout.width);
            return true;
        }
        case ThreadPlacement::ByKernel:
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

// Whether a block label at the corner of a block the array's edge cuts would cover half or more
// of the block's cells that show elements: the coalescing lesson's last row of blocks holds C's
// last 8 rows, whose warps' fewer active lanes are the map's point, and "(6,0)" hid them. A block
// whole, or wholly past the array's end (its cells idle), keeps its label.
bool covers_edge_data(const MapLayout& layout, double x, double y, double cell_w, double cell_h, double zoom,
                      ImVec2 label) {
    const double data_w = std::clamp(double(layout.elements_in_row(uint32_t(y))) - x, 0.0, cell_w);
    const double data_h =
        layout.is_matrix() ? std::clamp(double(layout.workload.rows) - y, 0.0, cell_h) : (data_w > 0 ? cell_h : 0);
    if (data_w == 0 || (data_w == cell_w && data_h == cell_h)) return false;
    const double covered = std::min<double>(label.x + 4, data_w * zoom) * std::min<double>(label.y + 2, data_h * zoom);
    return covered * 2 >= data_w * zoom * data_h * zoom;
}

void draw_block_labels(ImDrawList* dl, const MapLayout& layout, const View& v, const ViewRect& r, const LabelStyle& s,
                       std::vector<ViewRect>& over) {
    const float px = s.font_px * 0.75f;
    const Dim3& g = layout.launch.grid;
    const bool x_rows = layout.placement == ThreadPlacement::XRow;
    const double cell_w = layout.is_matrix() ? double(x_rows ? layout.launch.block.y : layout.launch.block.x)
                                             : double(std::min<uint64_t>(layout.launch.block.x, layout.width));
    const double cell_h = layout.is_matrix() ? double(x_rows ? layout.launch.block.x : layout.launch.block.y) : 1;
    if (cell_w * v.zoom < px * 3 || cell_h * v.zoom < px * 1.1) return;  // no room for a label
    const uint64_t gy = layout.is_matrix() ? g.y : 1;
    const size_t taken = over.size();  // the arrays' names: a block's number never covers one
    uint64_t drawn = 0;
    for (uint64_t by = 0; by < gy && drawn < 4096; ++by)
        for (uint64_t bx = 0; bx < g.x && drawn < 4096; ++bx) {
            double x = 0, y = 0;
            if (!block_origin(layout, bx, by, x, y) || x >= layout.width || y >= layout.height) continue;
            const glm::dvec2 at = world_to_screen(v, r, {x, y});
            if (at.x > r.x + r.w || at.y > r.y + r.h || at.x + cell_w * v.zoom < r.x || at.y + cell_h * v.zoom < r.y)
                continue;
            // A row's block says "block 1" where that fits: a bare 1 over element 32's cell read
            // as its index (grid-stride's map, 2026-12-07); a matrix's "(1,0)" is no index.
            std::string t = layout.is_matrix() ? "(" + std::to_string(bx) + "," + std::to_string(by) + ")"
                                               : "block " + std::to_string(bx);
            ImVec2 size = s.font->CalcTextSizeA(px, 1e9f, 0, t.c_str());
            if (!layout.is_matrix() && size.x + 4 > cell_w * v.zoom) {
                t = std::to_string(bx);
                size = s.font->CalcTextSizeA(px, 1e9f, 0, t.c_str());
            }
            if (size.x + 4 > cell_w * v.zoom) continue;
            if (covers_edge_data(layout, x, y, cell_w, cell_h, v.zoom, size)) continue;
            // Where the cells are numbered, a row's block says so at its end: at its start it hid
            // blockIdx.x·blockDim.x, the number the first lessons teach (0, 32, 64…).
            const double left =
                !layout.is_matrix() && v.zoom >= kCellIndexZoom ? at.x + cell_w * v.zoom - size.x - 4 : at.x;
            const ViewRect block{at.x, at.y, cell_w * v.zoom, cell_h * v.zoom};
            const std::optional<ImVec2> spot = clear_spot(over, taken, left, at.y, size, block);
            if (!spot) continue;
            over.push_back(backed_text(dl, s, px, ImVec2(spot->x + 2, spot->y + 1), t));
            ++drawn;
        }
}

// Each visible cell's index, centred in it, all at one size: as large as the widest index in
// view allows (from the text's size down to 0.55 of it), or none where even that does not fit (cells
// that each dropped the indices they could not hold left a ragged patch of labels). Dark on a
// light cell, light on a dark one where the style knows the cells' colours, each with a shadow
// of the other; none where a label already drawn (`over`: a block's number, an array's name)
// would cover it.
void draw_cell_indices(ImDrawList* dl, const MapLayout& layout, const View& v, const ViewRect& r, const LabelStyle& s,
                       std::vector<ViewRect>& over) {
    if (v.zoom < kCellIndexZoom) return;
    const glm::dvec2 w0 = screen_to_world(v, r, {r.x, r.y}), w1 = screen_to_world(v, r, {r.x + r.w, r.y + r.h});
    const auto [x0, x1] = visible(w0.x, w1.x, layout.width);
    const auto [y0, y1] = visible(w0.y, w1.y, layout.height);
    struct Label {
        std::string text;
        glm::dvec2 centre;
        uint32_t x, y;
    };
    std::vector<Label> labels;
    for (uint64_t y = y0; y < y1; ++y)
        for (uint64_t x = x0; x < x1; ++x) {
            const uint64_t e = layout.element_index(uint32_t(x), uint32_t(y));
            if (e == MapLayout::kNoElement) continue;
            labels.push_back({layout.is_matrix() ? std::to_string(y) + "," + std::to_string(x) : std::to_string(e),
                              world_to_screen(v, r, {double(x) + 0.5, double(y) + 0.5}), uint32_t(x), uint32_t(y)});
        }
    // Up to the UI's own text size in large cells (at 0.7 of it, a projector's 150-pixel cells
    // held 9-pixel numbers).
    float px = std::min(s.font_px, float(v.zoom) * 0.4f);
    float widest = 0;
    for (const Label& l : labels) widest = std::max(widest, s.font->CalcTextSizeA(px, 1e9f, 0, l.text.c_str()).x);
    if (widest + 4 > v.zoom) px *= float(v.zoom - 4) / widest;  // text width scales with its size
    if (px < s.font_px * 0.55f) return;
    const size_t taken = over.size();
    for (const Label& l : labels) {
        const ImVec2 size = s.font->CalcTextSizeA(px, 1e9f, 0, l.text.c_str());
        const ImVec2 at(float(l.centre.x) - size.x / 2, float(l.centre.y) - size.y / 2);
        const ViewRect box{at.x, at.y, size.x, size.y};
        if (meets_any(box, over, taken)) continue;
        const bool on_dark = s.cell_color && luminance(s.cell_color(l.x, l.y)) < 0.45;
        dl->AddText(s.font, px, ImVec2(at.x + 1, at.y + 1),
                    on_dark ? IM_COL32(0, 0, 0, 140) : IM_COL32(255, 255, 255, 120), l.text.c_str());
        dl->AddText(s.font, px, at, on_dark ? IM_COL32(255, 255, 255, 235) : IM_COL32(0, 0, 0, 230), l.text.c_str());
        over.push_back({box.x, box.y, box.w + 1, box.h + 1});  // with its shadow
    }
}

// The mapped matrix's name as drawn over its first cells: without its shape where with it the
// first block's number would not fit beside it in that block ("C 40×72" hid grid-vs-block-dim's
// "(0,0)"; the shape is on the rulers).
std::string name_beside_first_block(const MapLayout& layout, const View& v, const LabelStyle& s,
                                    const std::string& caption) {
    const bool x_rows = layout.placement == ThreadPlacement::XRow;
    const double block_w = double(x_rows ? layout.launch.block.y : layout.launch.block.x) * v.zoom;
    const double block_h = double(x_rows ? layout.launch.block.x : layout.launch.block.y) * v.zoom;
    const float name_px = s.font_px * 0.9f, block_px = s.font_px * 0.75f;
    if (block_w < block_px * 3 || block_h < block_px * 1.1) return caption;  // no block is numbered (draw_block_labels)
    const float needed = s.font->CalcTextSizeA(name_px, 1e9f, 0, caption.c_str()).x +
                         s.font->CalcTextSizeA(block_px, 1e9f, 0, "(0,0)").x + 12;
    return needed <= block_w ? caption : caption.substr(0, caption.find(' '));
}

}  // namespace

std::vector<ViewRect> draw_map_labels(ImDrawList* dl, const MapLayout& layout, const MapLabels& labels, const View& v,
                                      const ViewRect& r, const LabelStyle& s) {
    std::vector<ViewRect> over;
    dl->PushClipRect(ImVec2(float(r.x), float(r.y)), ImVec2(float(r.x + r.w), float(r.y + r.h)), true);
    // Names first, then blocks' numbers, then cells' indices: each leaves out what the ones
    // before it cover.
    const float px = s.font_px * 0.9f;
    for (size_t k = 0; k < labels.arrays.size(); ++k) {
        const ArrayLabel& a = labels.arrays[k];
        const glm::dvec2 at = world_to_screen(v, r, {a.box.x0, a.box.y0});
        // A matrix's name over its first cells where its operands are drawn (B lies just above C);
        // else, and the operands' names, in the line above (the fit leaves it: ruler_margins), where
        // it hides no cell (a tile's first row, 2026-12-07).
        const bool inside = k == 0 && layout.is_matrix() && labels.arrays.size() > 1;
        const ImVec2 where =
            inside ? ImVec2(float(at.x) + 3, float(at.y) + 3) : ImVec2(float(at.x), float(at.y) - px * 1.35f);
        const ViewRect box =
            backed_text(dl, s, px, where, inside ? name_beside_first_block(layout, v, s, a.text) : a.text);
        if (inside) over.push_back(box);
    }
    draw_block_labels(dl, layout, v, r, s, over);
    draw_cell_indices(dl, layout, v, r, s, over);
    draw_rulers(dl, layout, labels, v, r, s);
    dl->PopClipRect();
    return over;
}

}  // namespace threadmap
