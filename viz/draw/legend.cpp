// Colour-mode names and legends; see legend.hpp.
#include "viz/draw/legend.hpp"

#include <imgui.h>

#include <algorithm>
#include <array>
#include <string>
#include <utility>
#include <vector>

#include "viz/draw/imgui_color.hpp"

namespace threadmap {

namespace {

std::string dim_label(const Dim3& d, bool two_d, bool three_d) {
    if (three_d) return "(" + std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z) + ")";
    if (two_d) return "(" + std::to_string(d.x) + "," + std::to_string(d.y) + ")";
    return std::to_string(d.x);
}

void set_ramp(Legend& g, const std::string& low, const std::string& high) {
    g.ramp = true;
    g.ramp_low = low;
    g.ramp_high = high;
}

// One swatch per block the palette can tell apart; past that, the colours repeat (never for
// two neighbours) and the note says where a block's number is.
void add_block_swatches(Legend& g, const ColorContext& c) {
    const LaunchConfig launch{c.grid, c.block};
    const bool three = launch.grid.z > 1, two = three || launch.grid.y > 1;
    const uint64_t shown = std::min<uint64_t>(uint64_t(palette_size(c.palette)), launch.blocks());
    for (uint64_t b = 0; b < shown; ++b) {
        const Dim3 idx = unlinearize(b, launch.grid);
        g.swatches.push_back(
            {categorical(block_color_index(idx), c.palette), "blockIdx " + dim_label(idx, two, three)});
    }
    g.examples = g.swatches.size();
    if (launch.blocks() > shown) {
        g.title += " (colours repeat)";
        g.note = std::to_string(palette_size(c.palette)) +
                 " colours, never the same for two blocks side by side: a block's number is on the picture "
                 "when it fits (zoom in), and in the inspector";
    }
}

void add_warp_swatches(Legend& g, const ColorContext& c) {
    const LaunchConfig launch{c.grid, c.block};
    const uint64_t per_block = (launch.threads_per_block() + 31) / 32;
    const uint64_t shown = std::min<uint64_t>(uint64_t(palette_size(c.palette)), launch.blocks() * per_block);
    for (uint64_t w = 0; w < shown; ++w)
        g.swatches.push_back({categorical(w, c.palette),
                              "warp " + std::to_string(w % per_block) + " of block " + std::to_string(w / per_block)});
    g.examples = g.swatches.size();
}

// The SM a block runs on (one swatch per SM shown) or its wave (a ramp), for the chosen GPU.
void add_sm_or_wave(Legend& g, const ColorContext& c) {
    const LaunchConfig launch{c.grid, c.block};
    if (c.wave_slots == 0 || c.sms == 0) {
        g.title += ": no GPU chosen";
        return;
    }
    if (c.mode == ColorMode::Wave) {
        set_ramp(g, "wave 1", "wave " + std::to_string((launch.blocks() + c.wave_slots - 1) / c.wave_slots));
        return;
    }
    const uint64_t shown = std::min<uint64_t>({uint64_t(palette_size(c.palette)), c.sms, launch.blocks()});
    for (uint64_t sm = 0; sm < shown; ++sm)
        g.swatches.push_back({categorical(sm, c.palette), "SM " + std::to_string(sm)});
    g.examples = g.swatches.size();
    if (std::min(c.sms, launch.blocks()) > shown) g.title += " (colours repeat)";
}

void add_finding_swatches(Legend& g, const ColorContext& c) {
    if (!c.findings_checked) {
        g.title += ": not checked";
        return;
    }
    const Palette palette = c.palette;
    g.swatches.push_back({finding_color(kFoundRace, palette), "write-write race", false, LegendCategory::Race});
    g.swatches.push_back({finding_color(kFoundHazard, palette), "read-write hazard", false, LegendCategory::Hazard});
    g.swatches.push_back({finding_color(kFoundUninit, palette),
                          "uninitialised read (unwritten shared memory, or a shuffle from a missing lane)", false,
                          LegendCategory::Uninitialized});
    g.swatches.push_back({finding_color(0, palette), c.reads ? "read, no finding" : "written, no finding"});
}

// Coverage's own swatches: nobody, one thread, more than one, and idle threads.
void add_coverage_swatches(Legend& g, const ColorContext& c, const char* nobody) {
    const Palette palette = c.palette;
    g.swatches.push_back({coverage_color(Coverage::Untouched, palette), nobody, false, LegendCategory::Untouched});
    g.swatches.push_back(
        {coverage_color(Coverage::Once, palette), c.reads ? "read by one thread" : "written by one thread"});
    g.swatches.push_back({coverage_color(Coverage::Multi, palette),
                          c.reads ? "read by more than one" : "written by more than one", false,
                          LegendCategory::Multi});
    g.swatches.push_back({coverage_color(Coverage::Idle, palette), "idle thread (past the data)", true});
}

// The mode's title; a memory mode's "per request" says which: "per load request" or "per store request".
std::string legend_title(const ColorContext& c) {
    std::string title = color_mode_title(c.mode);
    if (is_memory_mode(c.mode)) {
        const size_t at = title.find("per request");
        if (at != std::string::npos) title.insert(at + 4, c.reads ? "load " : "store ");
    }
    return title;
}

// The two swatches every mode but coverage ends with: an element nobody touched, an idle thread.
void add_untouched_and_idle(Legend& g, const ColorContext& c, const char* nobody) {
    g.swatches.push_back({colorize({CellSample::Element, 0, {}, {}}, c), nobody, false, LegendCategory::Untouched});
    // Idle threads are most often the last block's (a grid rounded up past the data): the swatch
    // takes its last thread's colour, as the map draws them (block 7's, drawn for any launch, did
    // not match the cells it named).
    const auto last = [](const Dim3& d) { return Dim3{d.x - 1, d.y - 1, d.z - 1}; };
    g.swatches.push_back(
        {colorize({CellSample::Ghost, 0, last(c.grid), last(c.block)}, c), "idle thread (past the data)", true});
}

}  // namespace

Legend make_legend(const ColorContext& c) {
    const ColorMode mode = c.mode;
    const LaunchConfig launch{c.grid, c.block};
    Legend g;
    g.title = legend_title(c);
    const char* nobody = c.reads ? "element nobody read" : "element nobody wrote";
    switch (mode) {
        case ColorMode::Block:
            add_block_swatches(g, c);
            break;
        case ColorMode::ThreadX:
            set_ramp(g, "0", std::to_string(launch.block.x - 1));
            break;
        case ColorMode::ThreadY:
            set_ramp(g, "0", std::to_string(launch.block.y - 1));
            break;
        case ColorMode::ThreadZ:
            set_ramp(g, "0", std::to_string(launch.block.z - 1));
            break;
        case ColorMode::Global:
            set_ramp(g, "0", std::to_string(launch.blocks() * launch.threads_per_block() - 1));
            // A grid-stride loop's element 300 is written by thread 44: its cell's number is not its colour's.
            g.note = "zoomed in, the numbers in the cells are the elements' indices";
            break;
        case ColorMode::Lane:
            set_ramp(g, "lane 0", "lane 31");
            break;
        case ColorMode::Warp:
            add_warp_swatches(g, c);
            break;
        case ColorMode::Sm:
        case ColorMode::Wave:
            add_sm_or_wave(g, c);
            break;
        case ColorMode::Sectors:
            set_ramp(g, "1 sector", "32 sectors");
            break;
        case ColorMode::Banks:
            set_ramp(g, "1 (no conflict)", "32-way");
            break;
        case ColorMode::Lanes:
            set_ramp(g, "1 lane", "32 lanes");
            break;
        case ColorMode::Coverage:
            add_coverage_swatches(g, c, nobody);
            return g;
        case ColorMode::Findings:
            add_finding_swatches(g, c);
            break;
    }
    add_untouched_and_idle(g, c, nobody);
    return g;
}

Legend with_examples(const Legend& legend, size_t keep) {
    Legend g = legend;
    keep = std::max<size_t>(keep, 1);
    if (keep >= g.examples) return g;
    g.swatches.erase(g.swatches.begin() + ptrdiff_t(keep), g.swatches.begin() + ptrdiff_t(g.examples));
    g.note += (g.note.empty() ? "" : " ") + std::string("(the first ") + std::to_string(keep) + " of " +
              std::to_string(g.examples) + " colours listed)";
    g.examples = keep;
    return g;
}

namespace {

// A swatch with its label: its box, a gap, the text.
float swatch_width(const LegendSwatch& s, ImFont* font, float size) {
    return size * 1.4f + font->CalcTextSizeA(size, 1e9f, 0, s.label.c_str()).x;
}

// Where each swatch goes: its x offset and its line. One a line, or (`across`) side by side
// as words flow in a paragraph of `width`.
std::vector<std::pair<float, int>> swatch_places(const Legend& g, ImFont* font, float size, float width, bool across) {
    std::vector<std::pair<float, int>> places;
    float x = 0;
    int line = 0;
    for (const auto& s : g.swatches) {
        const float w = swatch_width(s, font, size);
        if (!across || (x > 0 && x + w > width)) {
            line += places.empty() ? 0 : 1;
            x = 0;
        }
        places.emplace_back(x, line);
        x += w + size * 1.5f;  // and a gap before the next
    }
    return places;
}

// The row of each mark's label over a ramp `width` wide: the first where it overlaps no label
// before it; and the rows in all.
struct MarkRows {
    std::vector<int> row;
    int rows = 0;
};
MarkRows mark_rows(const Legend& g, ImFont* font, float size, float width) {
    MarkRows m;
    std::vector<std::pair<float, float>> taken;  // each placed label's left and right, by row below
    std::vector<int> taken_row;
    for (const RampMark& mark : g.marks) {
        const float w = font->CalcTextSizeA(size, 1e9f, 0, mark.label.c_str()).x;
        const float left = std::clamp(mark.at * (width - 2) - w / 2, 0.0f, std::max(width - w, 0.0f));
        int row = 0;
        for (bool clash = true; clash; row += clash) {
            clash = false;
            for (size_t i = 0; i < taken.size(); ++i)
                clash |= taken_row[i] == row && left < taken[i].second + size * 0.5f &&
                         taken[i].first < left + w + size * 0.5f;
        }
        taken.emplace_back(left, left + w);
        taken_row.push_back(row);
        m.row.push_back(row);
        m.rows = std::max(m.rows, row + 1);
    }
    return m;
}

// The title's lines, wrapped at `width` (a long one, "sectors per store request (log scale)", in a
// projector's narrow margin), and the gap under them.
float title_height(const Legend& g, ImFont* font, float size, float width) {
    return font->CalcTextSizeA(size, 1e9f, width, g.title.c_str()).y - size + size * 1.35f * 1.2f;
}

// A legend's ramp at (x, y), `width` wide: its marks' labels in their rows, the gradient with a
// tick at each mark, its two ends named under it; returns its height.
float draw_ramp(ImDrawList* dl, const Legend& g, ImFont* font, float size, float x, float y, float width, ImU32 text) {
    const float line = size * 1.35f, w = width - 2, h = size * 0.9f;
    float cy = y;
    const MarkRows rows = mark_rows(g, font, size, width);
    for (size_t i = 0; i < g.marks.size(); ++i) {
        const RampMark& mark = g.marks[i];
        const float lw = font->CalcTextSizeA(size, 1e9f, 0, mark.label.c_str()).x;
        const float left = std::clamp(mark.at * w - lw / 2, 0.0f, std::max(width - lw, 0.0f));
        dl->AddText(font, size, ImVec2(x + left, cy + line * float(rows.row[i])), text, mark.label.c_str());
    }
    cy += line * float(rows.rows);
    const uint32_t anchors = 4;  // one gradient segment between each pair of ramp anchors
    for (uint32_t i = 0; i < anchors; ++i) {
        const ImU32 a = to_imgui_opaque(ramp(float(i) / anchors)), b = to_imgui_opaque(ramp(float(i + 1) / anchors));
        dl->AddRectFilledMultiColor(ImVec2(x + w * float(i) / anchors, cy),
                                    ImVec2(x + w * float(i + 1) / anchors, cy + h), a, b, b, a);
    }
    for (const RampMark& mark : g.marks) {
        const float mx = x + mark.at * w;
        dl->AddLine(ImVec2(mx, cy - size * 0.25f), ImVec2(mx, cy + h), IM_COL32(0, 0, 0, 255), 4);
        dl->AddLine(ImVec2(mx, cy - size * 0.25f), ImVec2(mx, cy + h), text, 2);
    }
    cy += h + size * 0.3f;
    dl->AddText(font, size, ImVec2(x, cy), text, g.ramp_low.c_str());
    const float hw = font->CalcTextSizeA(size, 1e9f, 0, g.ramp_high.c_str()).x;
    dl->AddText(font, size, ImVec2(x + width - hw, cy), text, g.ramp_high.c_str());
    cy += line * 1.3f;
    return cy - y;
}

}  // namespace

ImVec2 legend_size(const Legend& g, ImFont* font, float size, float max_width, bool across) {
    const float line = size * 1.35f, box = size * 0.9f;
    const auto text_w = [&](const std::string& s) { return font->CalcTextSizeA(size, 1e9f, 0, s.c_str()).x; };
    float width = text_w(g.title);
    for (const auto& s : g.swatches) width = std::max(width, swatch_width(s, font, size));
    if (g.ramp) width = std::max(width, std::max(size * 10, text_w(g.ramp_low) + text_w(g.ramp_high) + size));
    width = across || !g.lead.empty() ? max_width : std::min(width + 2, max_width);
    float height = title_height(g, font, size, width);
    if (!g.lead.empty()) height += font->CalcTextSizeA(size, 1e9f, width, g.lead.c_str()).y + line * 0.6f;
    if (!g.note.empty()) height += font->CalcTextSizeA(size, 1e9f, width, g.note.c_str()).y + line * 0.3f;
    if (g.ramp) height += box + size * 0.3f + line * 1.3f + float(mark_rows(g, font, size, width).rows) * line;
    const auto places = swatch_places(g, font, size, width, across);
    if (!places.empty()) height += line * float(places.back().second + 1);
    return ImVec2(width, height);
}

float draw_legend(ImDrawList* dl, const Legend& g, ImFont* font, float size, float x, float y, float width,
                  const Theme& theme, bool across) {
    const ImU32 text = to_imgui_opaque(theme.text);
    const float line = size * 1.35f, box = size * 0.9f;
    float cy = y;
    if (!g.lead.empty()) {
        dl->AddText(font, size, ImVec2(x, cy), text, g.lead.c_str(), nullptr, width);
        cy += font->CalcTextSizeA(size, 1e9f, width, g.lead.c_str()).y + line * 0.6f;
    }
    dl->AddText(font, size, ImVec2(x, cy), text, g.title.c_str(), nullptr, width);
    cy += title_height(g, font, size, width);
    if (!g.note.empty()) {
        const ImVec2 note = font->CalcTextSizeA(size, 1e9f, width, g.note.c_str());
        dl->AddText(font, size, ImVec2(x, cy), text, g.note.c_str(), nullptr, width);
        cy += note.y + line * 0.3f;
    }
    if (g.ramp) cy += draw_ramp(dl, g, font, size, x, cy, width, text);
    const auto places = swatch_places(g, font, size, width, across);
    const float top = cy;
    for (size_t i = 0; i < g.swatches.size(); ++i) {
        const LegendSwatch& s = g.swatches[i];
        const float sx = x + places[i].first;
        cy = top + line * float(places[i].second);
        const ImVec2 a(sx, cy + (line - box) / 2), b(sx + box, cy + (line - box) / 2 + box);
        if (s.ghost) {  // faded and hatched, like the map's idle threads
            const Rgba8 bg = theme.scene;
            const auto fade = [](uint8_t c, uint8_t k) { return uint8_t(c + (k - c) * 0.45f); };
            dl->AddRectFilled(a, b, IM_COL32(fade(s.color.r, bg.r), fade(s.color.g, bg.g), fade(s.color.b, bg.b), 255));
            for (float d = 3; d < box * 2; d += 4)
                dl->AddLine(ImVec2(a.x + std::max(0.0f, d - box), a.y + std::min(d, box)),
                            ImVec2(a.x + std::min(d, box), a.y + std::max(0.0f, d - box)), IM_COL32(0, 0, 0, 110));
        } else {
            dl->AddRectFilled(a, b, to_imgui_opaque(s.color));
        }
        dl->AddRect(a, b, IM_COL32(0, 0, 0, 255));
        dl->AddText(font, size, ImVec2(sx + box + size * 0.5f, cy + (line - size) / 2), text, s.label.c_str());
    }
    if (!places.empty()) cy = top + line * float(places.back().second + 1);
    return cy - y;
}

}  // namespace threadmap
