// Warp inspector overlay; see warp_overlay.hpp.
#include "warp_overlay.hpp"

#include <algorithm>
#include <bit>
#include <set>
#include <string>

namespace threadmap {

namespace {

constexpr uint64_t kElementsPerSector = kSectorBytes / 4;  // float32
constexpr uint64_t kElementsPerLine = 128 / 4;

ImVec2 screen(const AppState& s, const ViewRect& r, glm::dvec2 world) {
    const glm::dvec2 p = world_to_screen(s.view, r, world);
    return ImVec2(float(p.x), float(p.y));
}

}  // namespace

const WarpRequest* inspected_store_request(const AppState& state) {
    if (!state.picture || !is_memory_mode(state.picture->color.mode)) return nullptr;
    const PictureMemory& m = state.picture->memory;
    const auto cell = state.inspected_cell();
    if (!cell) return nullptr;
    const auto element = state.picture->layout.element_at(uint32_t(cell->x), uint32_t(cell->y));
    if (!element || *element >= m.request_of.size() || m.request_of[*element] == MemoryView::kNoRequest) return nullptr;
    return &m.requests[m.request_of[*element]];
}

void draw_warp_overlay(ImDrawList* dl, const AppState& state, const ViewRect& r) {
    const WarpRequest* inspected = inspected_store_request(state);
    if (!inspected) return;
    const WarpRequest& req = *inspected;
    const MapLayout& layout = state.picture->layout;
    const uint64_t size = state.picture->memory.request_of.size();
    std::set<uint64_t> elements, sectors;
    for (uint32_t mask = req.mask; mask; mask &= mask - 1) {
        const uint64_t e = req.index[std::countr_zero(mask)];
        elements.insert(e);
        sectors.insert(e / kElementsPerSector);
    }
    const auto cell_corners = [&](uint64_t e, ImVec2& a, ImVec2& b) {
        uint32_t x = 0, y = 0;
        layout.cell_of(e, x, y);
        a = screen(state, r, {double(x), double(y)});
        b = screen(state, r, {double(x) + 1, double(y) + 1});
    };
    // Each sector the request touches: its 8 elements shaded, a boundary at its start (orange
    // where a 128-byte line starts too).
    for (uint64_t s : sectors) {
        const uint64_t first = s * kElementsPerSector, end = std::min(first + kElementsPerSector, size);
        for (uint64_t e = first; e < end; ++e) {
            ImVec2 a, b;
            cell_corners(e, a, b);
            dl->AddRectFilled(a, b, IM_COL32(255, 255, 255, 70));
        }
        ImVec2 a, b;
        cell_corners(first, a, b);
        const bool line_start = first % kElementsPerLine == 0;
        dl->AddLine(a, ImVec2(a.x, b.y), line_start ? IM_COL32(255, 150, 40, 255) : IM_COL32(80, 220, 255, 255),
                    line_start ? 3.0f : 2.0f);
    }
    for (uint64_t e : elements) {
        ImVec2 a, b;
        cell_corners(e, a, b);
        dl->AddRect(a, b, IM_COL32(255, 255, 255, 255), 0, 0, 1.5f);
    }
    const uint32_t lanes = uint32_t(std::popcount(req.mask));
    const RequestSectors counted = request_sectors(req);
    std::string text = "This store request: " + std::to_string(lanes) +
                       (lanes == 1 ? " active lane" : " active lanes") + " touch " + std::to_string(counted.sectors) +
                       (counted.sectors == 1 ? " sector of 32 bytes" : " sectors of 32 bytes");
    text += counted.sectors > counted.ideal ? "; " + std::to_string(counted.ideal) + " would do." : ", as few as can.";
    text += "\nShaded: its 32-byte sectors; a blue edge starts one, an orange edge a 128-byte line.";
    const float font = ImGui::GetFontSize();
    const ImVec2 at(float(r.x) + font * 0.5f, float(r.y + r.h) - font * 3.0f);
    const ImVec2 extent = ImGui::CalcTextSize(text.c_str());
    dl->AddRectFilled(ImVec2(at.x - 4, at.y - 3), ImVec2(at.x + extent.x + 4, at.y + extent.y + 3),
                      IM_COL32(0, 0, 0, 200));
    dl->AddText(at, IM_COL32(255, 255, 255, 255), text.c_str());
}

}  // namespace threadmap
