// Warp inspector overlay; see warp_overlay.hpp.
#include "app/panels/warp_overlay.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <set>
#include <string>

#include "kernels/core/thread_context.hpp"

namespace threadmap {

namespace {

constexpr ImU32 kWhite = IM_COL32(255, 255, 255, 255);

ImVec2 screen(const AppState& state, const ViewRect& r, glm::dvec2 world) {
    const glm::dvec2 p = world_to_screen(state.view, r, world);
    return ImVec2(float(p.x), float(p.y));
}

bool shared_map(const AppState& state) {
    const auto& model = state.picture->launch.model;
    return model && model->shared();
}

// The requests of `request`'s warp: a range of the picture's kept requests (a warp's are
// contiguous, in program order).
std::pair<uint32_t, uint32_t> warp_range(const std::vector<KeptRequest>& all, uint32_t request) {
    uint32_t first = request, end = request + 1;
    while (first > 0 && all[first - 1].warp == all[request].warp) --first;
    while (end < all.size() && all[end].warp == all[request].warp) ++end;
    return {first, end};
}

// A strip of 32 boxes along the top (lanes) or the bottom (banks) of the map: box i's rectangle.
struct Strip {
    float x, y, box_w, box_h;
    ImVec2 min(uint32_t i) const { return ImVec2(x + float(i) * box_w, y); }
    ImVec2 max(uint32_t i) const { return ImVec2(x + float(i + 1) * box_w - 1, y + box_h); }
};

Strip strip_at(const ViewRect& r, float y, float font) {
    const float w = std::min(float(r.w) - font, font * 1.7f * kWarpLanes);
    return {float(r.x) + (float(r.w) - w) / 2, y, w / kWarpLanes, font * 1.3f};
}

void box_label(ImDrawList* dl, const Strip& s, uint32_t i, const std::string& text, ImU32 color) {
    const ImVec2 size = ImGui::CalcTextSize(text.c_str());
    if (size.x > s.box_w - 2) return;  // too narrow at this size: the boxes speak by colour
    const ImVec2 a = s.min(i);
    dl->AddText(ImVec2(a.x + (s.box_w - size.x) / 2, a.y + (s.box_h - size.y) / 2), color, text.c_str());
}

// White over a dark edge: visible on every colour of every palette.
void arrow(ImDrawList* dl, ImVec2 from, ImVec2 to) {
    const float dx = to.x - from.x, dy = to.y - from.y, len = std::sqrt(dx * dx + dy * dy);
    if (len < 1) return;
    const float ux = dx / len, uy = dy / len, head = std::min(9.0f, len / 3);
    const ImVec2 left(to.x - ux * head - uy * head * 0.5f, to.y - uy * head + ux * head * 0.5f);
    const ImVec2 right(to.x - ux * head + uy * head * 0.5f, to.y - uy * head - ux * head * 0.5f);
    dl->AddLine(from, to, IM_COL32(0, 0, 0, 200), 3.0f);
    dl->AddTriangle(to, left, right, IM_COL32(0, 0, 0, 200), 2.0f);
    dl->AddLine(from, to, IM_COL32(255, 255, 255, 220), 1.2f);
    dl->AddTriangleFilled(to, left, right, kWhite);
}

// A global array's sectors under the request: each one's elements shaded, a boundary at its
// start (orange where a 128-byte line starts too).
void draw_sectors(ImDrawList* dl, const AppState& state, const ViewRect& r, const WarpRequest& req) {
    const MapLayout& layout = state.picture->layout;
    const uint64_t size = state.picture->memory.request_of.size();
    const uint64_t per_sector = kSectorBytes / state.picture->memory.place.element_bytes, per_line = per_sector * 4;
    std::set<uint64_t> sectors;
    for (uint32_t mask = req.mask; mask; mask &= mask - 1)
        sectors.insert(req.index[std::countr_zero(mask)] / per_sector);
    for (uint64_t s : sectors) {
        const uint64_t first = s * per_sector, end = std::min(first + per_sector, size);
        for (uint64_t e = first; e < end; ++e) {
            uint32_t x = 0, y = 0;
            layout.cell_of(e, x, y);
            dl->AddRectFilled(screen(state, r, {double(x), double(y)}), screen(state, r, {x + 1.0, y + 1.0}),
                              IM_COL32(255, 255, 255, 70));
        }
        uint32_t x = 0, y = 0;
        layout.cell_of(first, x, y);
        const ImVec2 a = screen(state, r, {double(x), double(y)}), b = screen(state, r, {x + 1.0, y + 1.0});
        const bool line_start = first % per_line == 0;
        dl->AddLine(a, ImVec2(a.x, b.y), line_start ? IM_COL32(255, 150, 40, 255) : IM_COL32(80, 220, 255, 255),
                    line_start ? 3.0f : 2.0f);
    }
}

// A __shared__ array's banks: the strip of 32, each with the distinct words the lanes touch in
// it (red where more than one: the conflict's ways).
void draw_banks(ImDrawList* dl, const Strip& s, const std::array<uint32_t, kSharedBanks>& words) {
    for (uint32_t b = 0; b < kSharedBanks; ++b) {
        const ImU32 fill = words[b] == 0   ? IM_COL32(40, 44, 52, 230)
                           : words[b] == 1 ? IM_COL32(60, 140, 80, 240)
                                           : IM_COL32(200, 60, 60, 240);
        dl->AddRectFilled(s.min(b), s.max(b), fill);
        if (words[b]) box_label(dl, s, b, std::to_string(words[b]), kWhite);
    }
}

std::string plural(uint32_t n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

}  // namespace

const KeptRequest* inspected_request(const AppState& state) {
    if (!state.picture || !is_memory_mode(state.picture->color.mode)) return nullptr;
    const PictureMemory& m = state.picture->memory;
    const auto cell = state.inspected_cell();
    if (!cell) return nullptr;
    if (state.warp_step && state.warp_step->cell == *cell && state.warp_step->request < m.requests.size())
        return &m.requests[state.warp_step->request];
    const auto element = state.picture->layout.element_at(uint32_t(cell->x), uint32_t(cell->y));
    if (!element || *element >= m.request_of.size() || m.request_of[*element] == MemoryView::kNoRequest) return nullptr;
    return &m.requests[m.request_of[*element]];
}

bool step_warp_request(AppState& state, int direction) {
    const KeptRequest* shown = inspected_request(state);
    if (!shown) return false;
    const std::vector<KeptRequest>& all = state.picture->memory.requests;
    const uint32_t at = uint32_t(shown - all.data());
    const auto [first, end] = warp_range(all, at);
    const int64_t next = int64_t(at) + direction;
    if (next < int64_t(first) || next >= int64_t(end)) return false;
    state.warp_step = AppState::WarpStep{*state.inspected_cell(), uint32_t(next)};
    return true;
}

bool select_memory_line(AppState& state, const MemorySite& site) {
    if (!state.picture) return false;
    const MapPicture& picture = *state.picture;
    const std::vector<KeptRequest>& kept = picture.memory.requests;
    const size_t mapped =
        picture.memory.spec ? picture.memory.spec->array_index(picture.launch.mapped_array()) : SIZE_MAX;
    const AccessOp op = picture.launch.model && picture.launch.model->reads ? AccessOp::Load : AccessOp::Store;
    if (site.array != mapped || site.op != op) return false;
    AppState::MemoryLine chosen{site.line, picture.serial, {}};
    std::set<uint64_t> elements;
    std::optional<uint32_t> first;
    for (uint32_t k = 0; k < kept.size() && elements.size() < AppState::MemoryLine::kMaxElements; ++k) {
        if (kept[k].line != site.line) continue;
        if (!first) first = k;
        const WarpRequest& r = kept[k].request;
        for (uint32_t mask = r.mask; mask; mask &= mask - 1)
            for (uint32_t w = 0; w < r.width; ++w) elements.insert(uint64_t(r.index[std::countr_zero(mask)]) + w);
    }
    if (!first || kept[*first].request.mask == 0) return false;
    chosen.elements.assign(elements.begin(), elements.end());
    const WarpRequest& shown = kept[*first].request;
    pin_element(state, shown.index[std::countr_zero(shown.mask)]);
    state.warp_step = AppState::WarpStep{*state.pinned_cell, *first};
    state.memory_line = std::move(chosen);
    if (!is_memory_mode(picture.color.mode)) {
        state.settings.color_mode = shared_map(state) ? "banks" : "sectors";
        state.pending.recolor = true;
    }
    state.open_view = CentreView::Map;
    return true;
}

namespace {

// The elements a request touches (a vector access touches `width` from each lane's index).
std::set<uint64_t> request_elements(const WarpRequest& req) {
    std::set<uint64_t> elements;
    for (uint32_t mask = req.mask; mask; mask &= mask - 1)
        for (uint32_t k = 0; k < req.width; ++k) elements.insert(req.index[std::countr_zero(mask)] + k);
    return elements;
}

// The lanes along the top, each active one labelled (its lane, or for a shared array the bank
// of its word) with an arrow to its element's centre.
void draw_lanes(ImDrawList* dl, const AppState& state, const ViewRect& r, const WarpRequest& req, bool shared) {
    const PictureMemory& memory = state.picture->memory;
    const Strip lanes = strip_at(r, float(r.y) + ImGui::GetFontSize() * 0.4f, ImGui::GetFontSize());
    for (uint32_t lane = 0; lane < kWarpLanes; ++lane) {
        const bool active = req.mask >> lane & 1u;
        dl->AddRectFilled(lanes.min(lane), lanes.max(lane),
                          active ? IM_COL32(70, 110, 170, 235) : IM_COL32(40, 44, 52, 200));
        const std::string label = !active  ? ""
                                  : shared ? std::to_string(memory.place.bank(req.index[lane]))
                                           : std::to_string(lane);
        box_label(dl, lanes, lane, label, kWhite);
    }
    for (uint32_t mask = req.mask; mask; mask &= mask - 1) {
        const uint32_t lane = uint32_t(std::countr_zero(mask));
        uint32_t x = 0, y = 0;
        state.picture->layout.cell_of(req.index[lane], x, y);
        const ImVec2 from((lanes.min(lane).x + lanes.max(lane).x) / 2, lanes.max(lane).y);
        arrow(dl, from, screen(state, r, {x + 0.5, y + 0.5}));
    }
}

// What the request costs: wavefronts and bank conflicts (shared), distinct addresses
// (constant) or 32-byte sectors (global), each against what would do.
std::string request_cost_text(const WarpRequest& req, const PictureMemory& memory, size_t elements, bool shared,
                              bool constant) {
    if (shared) {
        const RequestWavefronts w = request_wavefronts(req, memory.place);
        return " touch " + plural(uint32_t(elements), "element", "elements") + ": " +
               plural(w.wavefronts, "wavefront", "wavefronts") +
               (w.ways > 1
                    ? " (a " + std::to_string(w.ways) + "-way bank conflict); " + std::to_string(w.ideal) + " would do."
                    : ", no bank conflict.") +
               "\nLanes above (each labelled with its word's bank); the banks below, each with the distinct words "
               "touched in it.";
    }
    if (constant) {
        const uint32_t addresses = request_addresses(req);
        return " read " + plural(addresses, "address", "distinct addresses") +
               (addresses > 1 ? ": the constant cache serves them one at a time, " + std::to_string(addresses) +
                                    " requests where one broadcast would do."
                              : ": one broadcast, as fast as constant memory goes.");
    }
    const RequestSectors counted = request_sectors(req, memory.place.element_bytes);
    return " touch " + plural(counted.sectors, "sector", "sectors") + " of 32 bytes" +
           (counted.sectors > counted.ideal ? "; " + std::to_string(counted.ideal) + " would do."
                                            : ", as few as can.") +
           "\nShaded: its 32-byte sectors; a blue edge starts one, an orange edge a 128-byte line.";
}

// The request in words: its kind and line, its lanes, its cost, and where it is among its
// warp's requests.
std::string request_text(const AppState& state, const KeptRequest& inspected, size_t elements, bool shared,
                         bool constant) {
    const WarpRequest& req = inspected.request;
    const PictureMemory& memory = state.picture->memory;
    const auto& all = memory.requests;
    const uint32_t at = uint32_t(&inspected - all.data());
    const auto [first, end] = warp_range(all, at);
    const uint32_t warps_per_block = (state.picture->launch.launch.threads_per_block() + kWarpLanes - 1) / kWarpLanes;
    const Dim3 block = unlinearize(inspected.warp / warps_per_block, state.picture->launch.launch.grid);
    const bool load = state.picture->launch.model && state.picture->launch.model->reads;
    std::string text = std::string("This ") + (load ? "load" : "store") + " request (modeled), line " +
                       std::to_string(inspected.line) + ": " +
                       plural(uint32_t(std::popcount(req.mask)), "active lane", "active lanes");
    if (req.width > 1)
        text += ", " + std::to_string(req.width * memory.place.element_bytes) + " bytes each (a vector access),";
    text += request_cost_text(req, memory, elements, shared, constant);
    text += "\nRequest " + std::to_string(at - first + 1) + " of " + std::to_string(end - first) + " of warp " +
            std::to_string(inspected.warp % warps_per_block) + " of block " + to_string(block) +
            " on this array (Left/Right: its previous/next).";
    if (memory.requests_capped) text += " Only the first " + std::to_string(kMaxKeptRequests) + " requests are kept.";
    return text;
}

}  // namespace

void draw_warp_overlay(ImDrawList* dl, const AppState& state, const ViewRect& r) {
    const KeptRequest* inspected = inspected_request(state);
    if (!inspected) return;
    const WarpRequest& req = inspected->request;
    const bool shared = shared_map(state);
    const bool constant = state.picture->launch.model && state.picture->launch.model->constant();
    const float font = ImGui::GetFontSize();
    if (!shared && !constant) draw_sectors(dl, state, r, req);
    const std::set<uint64_t> elements = request_elements(req);
    for (uint64_t e : elements) {
        uint32_t x = 0, y = 0;
        state.picture->layout.cell_of(e, x, y);
        dl->AddRect(screen(state, r, {double(x), double(y)}), screen(state, r, {x + 1.0, y + 1.0}), kWhite, 0, 0, 1.5f);
    }
    draw_lanes(dl, state, r, req, shared);
    // The request in words at the bottom, and for a shared array the banks above the words.
    const std::string text = request_text(state, *inspected, elements.size(), shared, constant);
    const float wrap = std::max(float(r.w) - font * 1.5f, font * 8);  // a narrow map wraps the lines
    const ImVec2 extent = ImGui::CalcTextSize(text.c_str(), nullptr, false, wrap);
    const ImVec2 at_text(float(r.x) + font * 0.5f, float(r.y + r.h) - font * 0.5f - extent.y);
    if (shared)
        draw_banks(dl, strip_at(r, at_text.y - font * 1.8f, font), bank_words(req, state.picture->memory.place));
    dl->AddRectFilled(ImVec2(at_text.x - 4, at_text.y - 3), ImVec2(at_text.x + extent.x + 4, at_text.y + extent.y + 3),
                      IM_COL32(0, 0, 0, 200));
    dl->AddText(ImGui::GetFont(), font, at_text, kWhite, text.c_str(), nullptr, wrap);
}

}  // namespace threadmap
