// colorize_layout (the whole map at once, with its cache of colours by key) against the
// definition: each cell is colorize(sample_cell) with its element's figure, and a model map's
// outlines fall where a cell's block differs from its left or upper neighbour's.
#include <doctest/doctest.h>

#include <random>
#include <vector>

#include "kernels/builtin/kernel_bodies.hpp"
#include "kernels/emulator/cpu_emulator.hpp"
#include "viz/layout/map_layout.hpp"

using namespace threadmap;

namespace {

constexpr ColorMode kModes[] = {ColorMode::Block,  ColorMode::ThreadX, ColorMode::ThreadY, ColorMode::ThreadZ,
                                ColorMode::Global, ColorMode::Warp,    ColorMode::Lane,    ColorMode::Coverage,
                                ColorMode::Sm,     ColorMode::Wave,    ColorMode::Sectors, ColorMode::Banks,
                                ColorMode::Lanes,  ColorMode::Findings};

// The block a cell belongs to for the outlines: none for an empty cell, one value for every
// untouched element, else its thread's block.
uint64_t outline_block(const CellSample& s, const Dim3& grid) {
    if (s.kind == CellSample::Empty) return ~uint64_t(0);
    if (s.kind == CellSample::Element && s.touches == 0) return ~uint64_t(0) - 1;
    return block_linear(s.block, grid);
}

void check_every_cell(const MapLayout& layout, const ThreadMap& map, const Dim3& grid, const Dim3& block) {
    std::vector<uint8_t> cost(map.size());
    std::mt19937 random(7);
    for (uint8_t& c : cost) c = uint8_t(random() % 33);
    std::vector<Rgba8> cells(size_t(layout.width) * layout.height);
    for (ColorMode mode : kModes)
        for (Palette palette : {Palette::Standard, Palette::ColorBlindSafe}) {
            CAPTURE(int(mode));
            CAPTURE(int(palette));
            ColorContext ctx{mode, palette, grid, block};
            ctx.wave_slots = 6;  // a GPU chosen: Sm and Wave colour by it
            ctx.sms = 3;
            ctx.findings_checked = true;
            const uint8_t* figures = uses_element_figures(mode) ? cost.data() : nullptr;
            colorize_layout(layout, map, ctx, cells.data(), figures);
            for (uint32_t y = 0; y < layout.height; ++y)
                for (uint32_t x = 0; x < layout.width; ++x) {
                    CellSample s = sample_cell(layout, map, x, y);
                    if (figures && s.kind == CellSample::Element) s.cost = figures[layout.element_index(x, y)];
                    Rgba8 want = colorize(s, ctx);
                    if (layout.outline_by_toucher && s.kind != CellSample::Empty) {
                        const uint64_t b = outline_block(s, grid);
                        const bool left = x > 0 && outline_block(sample_cell(layout, map, x - 1, y), grid) != b;
                        const bool top = y > 0 && outline_block(sample_cell(layout, map, x, y - 1), grid) != b;
                        want.a = uint8_t((want.a & ~kEdgeBits) | (left ? kEdgeLeft : 0) | (top ? kEdgeTop : 0));
                    }
                    const Rgba8 got = cells[size_t(y) * layout.width + x];
                    if (!(got == want)) {
                        CAPTURE(x);
                        CAPTURE(y);
                        REQUIRE(int(got.r) == int(want.r));
                        REQUIRE(int(got.g) == int(want.g));
                        REQUIRE(int(got.b) == int(want.b));
                        REQUIRE(int(got.a) == int(want.a));
                    }
                }
        }
}

void check_launch(const Workload& workload, const LaunchConfig& launch) {
    CAPTURE(kernel_name(workload.kernel));
    CAPTURE(to_string(launch.grid));
    CAPTURE(to_string(launch.block));
    const auto layout = make_layout(workload, launch, {1}, 16384);
    REQUIRE(layout.value);
    check_every_cell(*layout.value, emulate(workload, launch).map, launch.grid, launch.block);
}

}  // namespace

TEST_CASE("a map coloured at once equals each cell coloured on its own - every mode, both palettes") {
    // Untouched elements, idle threads after the data, a block of odd size.
    check_launch(array_workload(&IncrementBody::kernel, 1000), {{6, 1, 1}, {96, 1, 1}});
    check_launch(array_workload(&IncrementBody::kernel, 1000), {{40, 1, 1}, {33, 1, 1}});
    // Several writers an element (threadIdx.y and z unused by the index); 3-D blocks.
    check_launch(array_workload(&IncrementBody::kernel, 300), {{3, 2, 1}, {64, 2, 2}});
    // Matrices both ways round, grids short of C and past it, more than 1,024 blocks (the
    // table's slots wrap).
    check_launch(matmul_workload(&MatmulBody::kernel, 45, 70, 3), {{2, 5, 1}, {16, 16, 1}});
    check_launch(matmul_workload(&MatmulBody::kernel, 20, 10, 2), {{2, 4, 1}, {16, 8, 1}});  // idle blocks across a row
    check_launch(matmul_workload(&MatmulXColBody::kernel, 45, 70, 3), {{5, 2, 2}, {16, 32, 1}});
    check_launch(matmul_workload(&MatmulXColBody::kernel, 256, 256, 2), {{64, 64, 1}, {4, 4, 1}});
}

TEST_CASE("a kernel model's map coloured at once keeps its outlines where the writing block changes") {
    // A transpose-like map drawn by who touched each cell: writers from blocks in columns,
    // elements nobody wrote, and cells past the end.
    Workload array;
    array.kernel = nullptr;
    array.rows = 24;
    array.cols = 20;
    const LaunchConfig launch{{3, 4, 1}, {8, 6, 1}};
    const auto layout = make_layout(array, launch, {1}, 16384, kMaxDrawnCells, 0);
    REQUIRE(layout.value);
    REQUIRE(layout.value->outline_by_toucher);
    ThreadMap map(launch, 24 * 20);
    for (uint32_t i = 0; i < 24; ++i)
        for (uint32_t j = 0; j < 20; ++j) {
            const uint64_t e = uint64_t(i) * 20 + j;
            if ((i * 7 + j * 3) % 11 == 0) continue;  // nobody wrote it
            map.touches[e] = 1 + (i + j) % 3;
            map.first_toucher[e] = uint32_t((j * 24 + i) % (launch.blocks() * launch.threads_per_block()));
        }
    check_every_cell(*layout.value, map, launch.grid, launch.block);
}
