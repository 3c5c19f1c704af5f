// The colorizer and legends: what a learner reads off the map's colours.
#include <doctest/doctest.h>

#include "viz/color/colorizer.hpp"
#include "viz/draw/legend.hpp"

using namespace threadmap;

namespace {

CellSample element(Dim3 block, Dim3 thread, uint32_t touches = 1) {
    return {CellSample::Element, touches, block, thread};
}

}  // namespace

TEST_CASE("blockIdx colours - neighbouring blocks differ across and down - in both palettes") {
    for (Palette p : {Palette::Standard, Palette::ColorBlindSafe}) {
        const ColorContext c{ColorMode::Block, p, {40, 40, 1}, {32, 1, 1}};
        for (uint32_t by = 0; by < 20; ++by)
            for (uint32_t bx = 0; bx < 20; ++bx) {
                const Rgba8 here = colorize(element({bx, by, 0}, {0, 0, 0}), c);
                CHECK_FALSE(here == colorize(element({bx + 1, by, 0}, {0, 0, 0}), c));
                CHECK_FALSE(here == colorize(element({bx, by + 1, 0}, {0, 0, 0}), c));
                CHECK_FALSE(here == colorize(element({bx + 1, by + 1, 0}, {0, 0, 0}), c));
            }
        // Threads of one block share its colour.
        CHECK(colorize(element({3, 0, 0}, {0, 0, 0}), c) == colorize(element({3, 0, 0}, {31, 0, 0}), c));
    }
    CHECK(colorize(element({0, 0, 0}, {5, 0, 0}), {ColorMode::Block, Palette::Standard, {4, 1, 1}, {32, 1, 1}}) ==
          from_hex(0x4E79A7));
    CHECK(colorize(element({0, 0, 0}, {5, 0, 0}), {ColorMode::Block, Palette::ColorBlindSafe, {4, 1, 1}, {32, 1, 1}}) ==
          from_hex(0xE69F00));
}

TEST_CASE("alpha tells the shader an element (255) - a ghost (128) or nothing (0)") {
    const ColorContext c{ColorMode::ThreadX, Palette::Standard, {4, 1, 1}, {32, 1, 1}};
    CHECK(colorize(element({1, 0, 0}, {3, 0, 0}), c).a == 255);
    CHECK(colorize({CellSample::Ghost, 0, {1, 0, 0}, {3, 0, 0}}, c).a == 128);
    CHECK(colorize({}, c).a == 0);
    // A ghost has the colour its thread would have had.
    Rgba8 ghost = colorize({CellSample::Ghost, 0, {1, 0, 0}, {3, 0, 0}}, c);
    ghost.a = 255;
    CHECK(ghost == colorize(element({1, 0, 0}, {3, 0, 0}), c));
}

TEST_CASE("threadIdx - lane and warp modes follow CUDA's numbering") {
    const Dim3 grid{2, 1, 1}, block{64, 1, 1};
    const ColorContext tx{ColorMode::ThreadX, Palette::Standard, grid, block};
    CHECK(colorize(element({0, 0, 0}, {0, 0, 0}), tx) == ramp(0));
    CHECK(colorize(element({1, 0, 0}, {63, 0, 0}), tx) == ramp(1));
    const ColorContext lane{ColorMode::Lane, Palette::Standard, grid, block};
    CHECK(colorize(element({0, 0, 0}, {33, 0, 0}), lane) == colorize(element({1, 0, 0}, {1, 0, 0}), lane));
    const ColorContext warp{ColorMode::Warp, Palette::Standard, grid, block};
    CHECK(colorize(element({0, 0, 0}, {0, 0, 0}), warp) == colorize(element({0, 0, 0}, {31, 0, 0}), warp));
    CHECK_FALSE(colorize(element({0, 0, 0}, {31, 0, 0}), warp) == colorize(element({0, 0, 0}, {32, 0, 0}), warp));
    // A 2D block: warps are cut from x + y·Dx, so (0,1) of a 16x4 block is in warp 0 and (0,2) in warp 1.
    const ColorContext w2{ColorMode::Warp, Palette::Standard, {1, 1, 1}, {16, 4, 1}};
    CHECK(colorize(element({0, 0, 0}, {0, 1, 0}), w2) == colorize(element({0, 0, 0}, {0, 0, 0}), w2));
    CHECK_FALSE(colorize(element({0, 0, 0}, {0, 2, 0}), w2) == colorize(element({0, 0, 0}, {0, 0, 0}), w2));
    const ColorContext global{ColorMode::Global, Palette::Standard, grid, block};
    CHECK(colorize(element({0, 0, 0}, {0, 0, 0}), global) == ramp(0));
    CHECK(colorize(element({1, 0, 0}, {63, 0, 0}), global) == ramp(1));
}

TEST_CASE("coverage - untouched - once - more than once - idle thread") {
    const ColorContext c{ColorMode::Coverage, Palette::Standard, {1, 1, 1}, {32, 1, 1}};
    CHECK(colorize(element({}, {}, 0), c) == from_hex(0xE15759));
    CHECK(colorize(element({}, {}, 1), c) == from_hex(0x59A14F));
    CHECK(colorize(element({}, {}, 3), c) == from_hex(0xF28E2B));
    Rgba8 idle = colorize({CellSample::Ghost, 0, {}, {}}, c);
    CHECK(idle.a == 128);
    idle.a = 255;
    CHECK(idle == from_hex(0xBAB0AC));
}

TEST_CASE("legends show the colours the map uses") {
    const LaunchConfig launch{{16, 1, 1}, {32, 1, 1}};
    const Legend g = make_legend({ColorMode::Block, Palette::Standard, launch.grid, launch.block});
    REQUIRE(g.swatches.size() >= 10);
    for (uint32_t b = 0; b < 10; ++b) {
        CHECK(g.swatches[b].label == "blockIdx " + std::to_string(b));
        CHECK(g.swatches[b].color == colorize(element({b, 0, 0}, {0, 0, 0}),
                                              {ColorMode::Block, Palette::Standard, launch.grid, launch.block}));
    }
    // The idle swatch looks like the idle threads the map draws: the last block's (seed-increment:
    // 500 elements, 16 blocks of 32, the last 12 threads idle).
    CHECK(g.swatches.back().ghost);
    CHECK(g.swatches.back().color == colorize({CellSample::Ghost, 0, {15, 0, 0}, {31, 0, 0}},
                                              {ColorMode::Block, Palette::Standard, launch.grid, launch.block}));
    // Short of room, it lists the first three blocks' colours and says so; the idle swatch stays.
    CHECK(g.examples == 10);
    const Legend few = with_examples(g, 3);
    REQUIRE(few.swatches.size() == g.swatches.size() - 7);
    CHECK(few.swatches[2].label == "blockIdx 2");
    CHECK(few.swatches.back().label == g.swatches.back().label);
    CHECK(few.note.find("(the first 3 of 10 colours listed)") != std::string::npos);
    CHECK(with_examples(g, 12).swatches.size() == g.swatches.size());
    const Legend t = make_legend({ColorMode::ThreadX, Palette::Standard, launch.grid, launch.block});
    CHECK(t.ramp);
    CHECK(t.ramp_high == "31");
    // Global index: a grid-stride loop's cells are numbered by element, coloured by thread.
    const Legend global = make_legend({ColorMode::Global, Palette::Standard, launch.grid, launch.block});
    CHECK(global.ramp_high == "511");
    CHECK(global.note.find("the elements' indices") != std::string::npos);
    const Legend cov = make_legend({ColorMode::Coverage, Palette::ColorBlindSafe, launch.grid, launch.block});
    CHECK(cov.swatches.size() == 4);
    for (ColorMode m : all_color_modes()) CHECK(parse_color_mode(color_mode_name(m)) == m);
    CHECK_FALSE(parse_color_mode("rainbow"));
}
