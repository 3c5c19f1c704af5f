// The colorizer: one function from a cell of the map to its colour, for every colour mode.
// The CPU path calls it per cell; the CUDA path (a later issue) calls the same function.
//
// Alpha carries the cell's kind to the shader: 255 an element, 128 a ghost (an idle thread
// past the end of the data, drawn hatched), 0 nothing.
#pragma once

#include <cmath>

#include "viz/color/colors.hpp"
#include "kernels/model/element_finding.hpp"
#include "kernels/occupancy/block_place.hpp"
#include "kernels/core/thread_context.hpp"

namespace threadmap {

enum class ColorMode {
    Block,
    ThreadX,
    ThreadY,
    ThreadZ,
    Global,
    Warp,
    Lane,
    Coverage,
    Sm,
    Wave,
    Sectors,
    Banks,
    Lanes,
    Findings,
};

// The memory modes colour an element by the warp request that stored (or loaded) it — the
// memory view of kernels/model/memory_view.hpp — not by a thread.
TM_HD inline bool is_memory_mode(ColorMode m) {
    return m == ColorMode::Sectors || m == ColorMode::Banks || m == ColorMode::Lanes;
}
// Modes coloured by a figure per element (CellSample::cost) that only the host has.
TM_HD inline bool uses_element_figures(ColorMode m) { return is_memory_mode(m) || m == ColorMode::Findings; }

struct CellSample {
    // Past: a cell past a kernel-model array's end that out-of-bounds accesses touched (block
    // and thread: the first of them, touches: how many accesses), drawn hatched as a ghost.
    enum Kind : uint8_t { Empty, Element, Ghost, Past };
    Kind kind = Empty;
    uint32_t touches = 0;  // Element: threads that wrote it (0: untouched)
    Dim3 block;            // Element: the first toucher; Ghost: the idle thread
    Dim3 thread;
    // Element, memory modes: the sectors (1–32), bank conflict ways (1–32) or active lanes
    // (1–32) of the request that stored (or loaded) it; 0 when no request did. Findings:
    // ElementFinding bits (kernels/model).
    uint8_t cost = 0;
};

struct ColorContext {
    ColorMode mode = ColorMode::Block;
    Palette palette = Palette::Standard;
    Dim3 grid;
    Dim3 block;
    // Sm and Wave: the GPU's block slots (active blocks per SM × SMs) and SMs; 0 when no GPU
    // was chosen, and those modes draw every thread grey.
    uint64_t wave_slots = 0;
    uint64_t sms = 0;
    bool reads = false;             // the map shows who read each element (legend words)
    bool findings_checked = false;  // Findings: the model checked this launch (else all grey)
};

// The Findings mode's colours, first of the bits first: an access past the end, a race, a
// read-write hazard, an uninitialised shared read (or an undefined value taken through a
// shuffle: the same mistake, reading what nobody wrote), the three sides of a divergent
// barrier's block, and touched with none of them.
TM_HD inline Rgba8 finding_color(uint8_t found, Palette p) {
    const bool standard = p == Palette::Standard;
    if (found & kFoundOutOfBounds) return from_hex(standard ? 0xEDC948 : 0xE69F00);
    if (found & kFoundRace) return from_hex(standard ? 0xE15759 : 0xD55E00);
    if (found & kFoundHazard) return from_hex(standard ? 0xF28E2B : 0xF0E442);
    if (found & (kFoundUninit | kFoundUndefinedShuffle)) return from_hex(standard ? 0xB07AA1 : 0xCC79A7);
    if (found & kFoundBarrierElsewhere) return from_hex(standard ? 0xFF9DA7 : 0x56B4E9);
    if (found & kFoundBarrierExited) return from_hex(standard ? 0x9C755F : 0xDDDDDD);
    if (found & kFoundBarrierWaiting) return from_hex(standard ? 0x59A14F : 0x009E73);
    return from_hex(standard ? 0x4E79A7 : 0x0072B2);
}

inline constexpr uint8_t kElementAlpha = 255;
inline constexpr uint8_t kGhostAlpha = 128;
// A map whose outlines follow who touched each cell (MapLayout::outline_by_toucher) marks a
// block edge on a cell's left or top side in the two low bits of its alpha; the kind's
// thresholds (above) are far from them.
inline constexpr uint8_t kEdgeLeft = 1, kEdgeTop = 2, kEdgeBits = kEdgeLeft | kEdgeTop;

// Coverage colours, also used for untouched elements in every mode.
enum class Coverage { Untouched, Once, Multi, Idle };
TM_HD inline Rgba8 coverage_color(Coverage c, Palette p) {
    const uint32_t standard[4] = {0xE15759, 0x59A14F, 0xF28E2B, 0xBAB0AC};
    const uint32_t safe[4] = {0xD55E00, 0x0072B2, 0xF0E442, 0x999999};
    return from_hex((p == Palette::Standard ? standard : safe)[int(c)]);
}

// blockIdx as a palette index: neighbours along x differ by 1, along y by 2, so adjacent
// blocks in a 2D grid never share a colour in either palette.
TM_HD inline uint64_t block_color_index(const Dim3& b) { return b.x + 2ull * b.y + 4ull * b.z; }

// cuda.grid's index flattened x-fastest over the whole launch, as a ramp.
TM_HD_INLINE Rgba8 global_index_color(const CellSample& s, const ColorContext& c) {
    const uint64_t wx = uint64_t(c.grid.x) * c.block.x, wy = uint64_t(c.grid.y) * c.block.y;
    const uint64_t gx = uint64_t(s.block.x) * c.block.x + s.thread.x;
    const uint64_t gy = uint64_t(s.block.y) * c.block.y + s.thread.y;
    const uint64_t gz = uint64_t(s.block.z) * c.block.z + s.thread.z;
    const uint64_t total = wx * wy * (uint64_t(c.grid.z) * c.block.z);
    const uint64_t g = gx + gy * wx + gz * wx * wy;
    return ramp(total > 1 ? float(double(g) / double(total - 1)) : 0.5f);
}

// The SM a block runs on (categorical) or its wave (a ramp), for the chosen GPU; grey without one.
TM_HD_INLINE Rgba8 placement_color(const CellSample& s, const ColorContext& c) {
    if (c.wave_slots == 0 || c.sms == 0) return from_hex(0x6B6B6B);
    const BlockPlace at = place_block(block_linear(s.block, c.grid), c.wave_slots, c.sms);
    const uint64_t waves = (c.grid.volume() + c.wave_slots - 1) / c.wave_slots;
    return c.mode == ColorMode::Sm ? categorical(at.sm, c.palette)
                                   : ramp(waves > 1 ? float(double(at.wave) / double(waves - 1)) : 0.0f);
}

// Where a request's figure falls on a memory mode's ramp (0 at its low end, 1 at its high): sectors
// and conflict ways 1 to 32 on a log scale, active lanes 1 to 32 evenly. The cells' colours and
// the legend's marks of a mean (make_legend's RampMark) both take it.
TM_HD_INLINE float memory_ramp_at(ColorMode mode, double figure) {
    const float at = mode == ColorMode::Lanes ? float((figure - 1) / 31) : log2f(float(figure)) / 5.0f;
    return at < 0 ? 0.0f : at > 1 ? 1.0f : at;
}

// The colour of a cell some thread touched, by the thread (or its request) that the mode shows.
TM_HD_INLINE Rgba8 toucher_color(const CellSample& s, const ColorContext& c) {
    const auto frac = [](uint32_t v, uint32_t extent) { return extent > 1 ? float(v) / float(extent - 1) : 0.5f; };
    const uint64_t t_lin = thread_linear(s.thread, c.block);
    const bool element = s.kind == CellSample::Element;
    switch (c.mode) {
        case ColorMode::Block:
            return categorical(block_color_index(s.block), c.palette);
        case ColorMode::ThreadX:
            return ramp(frac(s.thread.x, c.block.x));
        case ColorMode::ThreadY:
            return ramp(frac(s.thread.y, c.block.y));
        case ColorMode::ThreadZ:
            return ramp(frac(s.thread.z, c.block.z));
        case ColorMode::Global:
            return global_index_color(s, c);
        case ColorMode::Warp:
            return categorical(block_linear(s.block, c.grid) * ((c.block.volume() + 31) / 32) + t_lin / 32, c.palette);
        case ColorMode::Lane:
            return ramp(float(t_lin % 32) / 31.0f);
        case ColorMode::Sm:
        case ColorMode::Wave:
            return placement_color(s, c);
        case ColorMode::Sectors:  // ghosts grey
        case ColorMode::Banks:
        case ColorMode::Lanes:
            return !element ? from_hex(0x6B6B6B) : ramp(memory_ramp_at(c.mode, double(s.cost)));
        case ColorMode::Findings:  // not checked (too large for the window): grey, and the legend says so
            return s.kind == CellSample::Ghost || !c.findings_checked ? from_hex(0x6B6B6B)
                                                                      : finding_color(s.cost, c.palette);
        default:
            return Rgba8{};
    }
}

// What the colour of an element some threads wrote depends on besides the context, as a key:
// cells with one key have one colour, so colouring millions of them computes each colour once
// (colorize_layout's cache). block and thread: the first writer's linear indices; touches: how
// many threads wrote it (> 0). kNoColorKey: no key worth keeping (Global: a colour per thread;
// the modes coloured by a figure per element).
inline constexpr uint64_t kNoColorKey = ~uint64_t(0);
TM_HD_INLINE uint64_t element_color_key(const ColorContext& c, uint64_t block, uint32_t thread, uint32_t touches) {
    switch (c.mode) {
        case ColorMode::Block:
        case ColorMode::Sm:
        case ColorMode::Wave:
            return block;
        case ColorMode::ThreadX:
        case ColorMode::ThreadY:
        case ColorMode::ThreadZ:
        case ColorMode::Lane:
            return thread;
        case ColorMode::Warp:
            return block * ((c.block.volume() + 31) / 32) + thread / 32;
        case ColorMode::Coverage:
            return touches > 1;
        default:
            return kNoColorKey;
    }
}

TM_HD_INLINE Rgba8 colorize(const CellSample& s, const ColorContext& c) {
    if (s.kind == CellSample::Empty) return {0, 0, 0, 0};
    Rgba8 out{};
    if (s.kind == CellSample::Past && (c.mode == ColorMode::Coverage || c.mode == ColorMode::Findings)) {
        out = finding_color(kFoundOutOfBounds, c.palette);
    } else if (c.mode == ColorMode::Coverage) {
        out = coverage_color(s.kind == CellSample::Ghost ? Coverage::Idle
                             : s.touches == 0            ? Coverage::Untouched
                             : s.touches == 1            ? Coverage::Once
                                                         : Coverage::Multi,
                             c.palette);
    } else if (s.kind == CellSample::Element && (s.touches == 0 || (is_memory_mode(c.mode) && s.cost == 0))) {
        out = from_hex(0x2B2B2B);  // nobody wrote it: no thread (or request) to colour by
    } else {
        out = toucher_color(s, c);
    }
    out.a = s.kind == CellSample::Element ? kElementAlpha : kGhostAlpha;
    return out;
}

}  // namespace threadmap
