// The part of A·B that C cannot hold; see missing_product.hpp.
#include "viz/draw/missing_product.hpp"

#include <imgui.h>

#include <algorithm>

namespace threadmap {

std::string group_thousands(uint64_t value) {
    std::string digits = std::to_string(value);
    for (int at = int(digits.size()) - 3; at > 0; at -= 3) digits.insert(size_t(at), ",");
    return digits;
}

std::optional<MissingProduct> missing_product(const Workload& workload) {
    if (!is_matrix(workload.kernel) || (workload.a_rows <= workload.rows && workload.b_cols <= workload.cols))
        return std::nullopt;
    MissingProduct m;
    m.results = workload.a_rows * workload.b_cols -
                std::min(workload.a_rows, workload.rows) * std::min(workload.b_cols, workload.cols);
    m.product = {0, 0, double(workload.b_cols), double(workload.a_rows)};
    const auto dims = [](uint64_t r, uint64_t c) { return std::to_string(r) + "\u00d7" + std::to_string(c); };
    m.text = group_thousands(m.results) + " results are never computed: C is " + dims(workload.rows, workload.cols) +
             ", A\u00b7B is " + dims(workload.a_rows, workload.b_cols);
    m.name = "A\u00b7B " + dims(workload.a_rows, workload.b_cols);
    return m;
}

std::vector<ViewRect> draw_missing_product(ImDrawList* dl, const MissingProduct& m, const View& v, const ViewRect& r,
                                           ImFont* font, float font_px, Rgba8 backing) {
    const glm::dvec2 a = world_to_screen(v, r, {m.product.x0, m.product.y0});
    const glm::dvec2 b = world_to_screen(v, r, {m.product.x1, m.product.y1});
    const ImU32 color = IM_COL32(255, 90, 200, 255);  // magenta: no block colour of either palette
    const float thickness = std::max(2.0f, font_px * 0.15f);
    dl->AddRect(ImVec2(float(a.x), float(a.y)), ImVec2(float(b.x), float(b.y)), color, 0, 0, thickness);
    // The sentence on a dark box just under the outline's bottom-left corner, wrapped to
    // what the view has left on the right.
    const ImVec2 at(float(std::max(a.x, r.x)), float(b.y) + thickness + font_px * 0.3f);
    const float wrap = std::max(font_px * 8, float(r.x + r.w) - at.x - font_px * 0.3f);
    const ImVec2 size = font->CalcTextSizeA(font_px, 1e9f, wrap, m.text.c_str());
    dl->AddRectFilled(ImVec2(at.x - 3, at.y - 2), ImVec2(at.x + size.x + 3, at.y + size.y + 2),
                      IM_COL32(backing.r, backing.g, backing.b, backing.a), 3);
    dl->AddText(font, font_px, at, color, m.text.c_str(), nullptr, wrap);
    std::vector<ViewRect> drawn = {{at.x - 3.0, at.y - 2.0, size.x + 6.0, size.y + 4.0}};
    // Its tag inside its bottom-right corner, over results C cannot hold (the seed's "C 200×200",
    // at the corner the two share, read as the outline's name).
    const ImVec2 tag = font->CalcTextSizeA(font_px, 1e9f, 0, m.name.c_str());
    const ImVec2 tag_at(float(b.x) - tag.x - thickness - 3, float(b.y) - tag.y - thickness - 2);
    if (tag_at.x < float(a.x) + thickness || tag.y + 4 > float(b.y - a.y)) return drawn;  // no room inside it
    dl->AddRectFilled(ImVec2(tag_at.x - 3, tag_at.y - 1), ImVec2(tag_at.x + tag.x + 2, tag_at.y + tag.y + 1),
                      IM_COL32(backing.r, backing.g, backing.b, backing.a), 3);
    dl->AddText(font, font_px, tag_at, color, m.name.c_str());
    drawn.push_back({tag_at.x - 3.0, tag_at.y - 1.0, tag.x + 5.0, tag.y + 2.0});
    return drawn;
}

}  // namespace threadmap
