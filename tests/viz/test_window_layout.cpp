// Where things go on screen: the window's regions, the legend's place in the picture's margin,
// the rulers' tick steps, margins and the picture's names (viz/layout: window_layout, map_labels).
#include <doctest/doctest.h>

#include "viz/layout/map_labels.hpp"
#include "kernels/builtin/kernel_bodies.hpp"
#include "viz/layout/window_layout.hpp"

using namespace threadmap;

TEST_CASE("window regions: a projector's 1280 px leave the centre 850, a wider window 62%") {
    CHECK(min_centre_width(1280) == 850);
    CHECK(min_centre_width(1600) == doctest::Approx(992));
    CHECK(min_centre_width(900) == 600);  // two thirds where 850 would leave the columns less
}

TEST_CASE("window regions: the side columns never take the picture's share, whatever the UI scale") {
    for (double width : {1280.0, 1600.0, 3840.0})
        for (double scale : {1.0, 1.5, 2.0, 3.0}) {
            CAPTURE(width);
            CAPTURE(scale);
            WindowLayoutSpec s;
            s.width = width;
            s.height = width * 9 / 16;
            s.scale = scale;
            s.status_height = 30 * scale;
            const WindowRegions r = window_regions(s);
            CHECK(r.centre.w >= width * kMinCentreShare - 1);
            CHECK(r.centre.w >= min_centre_width(width) - 1);
            CHECK(r.left.w > 0);
            CHECK(r.right.w > 0);
            CHECK(!overlaps(r.left, r.centre));
            CHECK(!overlaps(r.right, r.centre));
            CHECK(r.left.w + r.centre.w + r.right.w <= width + 0.5);
            CHECK(r.centre.h == doctest::Approx(s.height - s.status_height));
        }
    // Raising the scale widens the columns only while the picture keeps its share: at 1280 and
    // 1.5 the columns are as wide as at 1.0 would allow, not wider.
    WindowLayoutSpec s;
    s.width = 1280;
    s.height = 720;
    const double centre_1 = window_regions(s).centre.w;
    s.scale = 1.5;
    CHECK(window_regions(s).centre.w >= centre_1 - 1);
    // Presentation: the picture takes the whole width under a launch bar.
    s.presentation = true;
    s.top_height = 40;
    const WindowRegions p = window_regions(s);
    CHECK(p.left.w == 0);
    CHECK(p.right.w == 0);
    CHECK(p.centre.w == 1280);
    CHECK(p.centre.y == 40);
    CHECK(p.top.h == 40);
}

TEST_CASE("the legend goes in the picture's margin, beside or under it, never over its cells but as a last resort") {
    const ViewRect area{0, 0, 1000, 600};
    const auto fitted = [](const WorldRect& scene, const ViewRect& map, const Margins& margins) {
        return screen_rect(fit(scene, map, margins), map, scene);
    };
    const Margins m10 = Margins::all(10);
    // A square scene in a wide area: the legend beside it, the picture as tall as the area allows.
    const WorldRect square{0, 0, 100, 100};
    const LegendPlace side = place_legend(square, area, 200, 300, m10);
    CHECK_FALSE(side.over);
    CHECK(!overlaps(side.legend, fitted(square, side.map, m10)));
    CHECK(side.legend.x >= side.map.x + side.map.w);
    // A wide strip: under it.
    const WorldRect strip{0, 0, 1000, 100};
    const LegendPlace under = place_legend(strip, area, 200, 300, m10);
    CHECK_FALSE(under.over);
    CHECK(under.legend.y >= under.map.y + under.map.h);
    CHECK(!overlaps(under.legend, fitted(strip, under.map, m10)));
    // A legend as big as the area: beside or under would shrink the picture too much: over it.
    const LegendPlace over = place_legend(square, area, 900, 550, m10);
    CHECK(over.over);
    CHECK(over.map.w == area.w);
    // A scene that reshapes (a 1D map's rows): always beside, the map keeping the rest.
    const LegendPlace reshaped = place_legend(strip, area, 200, 300, m10, true);
    CHECK_FALSE(reshaped.over);
    CHECK(reshaped.map.w == doctest::Approx(area.w - 210));
    // Margins as the rulers need them (wide right and below, narrow left and above): the legend
    // follows the right margin by the left one's gap, and the picture grows into what is saved.
    const Margins rulers{8, 20, 40, 60};
    const LegendPlace snug = place_legend(square, area, 200, 300, rulers);
    const ViewRect pic = fitted(square, snug.map, rulers);
    CHECK(pic.h == doctest::Approx(area.h - 80));  // as tall as the area less the top and bottom margins
    CHECK(pic.y == doctest::Approx(20));
    CHECK(snug.legend.x == doctest::Approx(pic.x + pic.w + 40 + 8));
}

TEST_CASE("the legend is wrapped narrower only where that gives the picture more than 2% and the legend still fits") {
    const Margins m = Margins::all(10);
    // A 2:1 scene in a 1280x560 area, bound by its width: a legend 200 wide instead of 290
    // gives the picture 90 more pixels of width (and height), so the narrower one is chosen.
    const WorldRect wide{0, 0, 32, 16};
    const ViewRect area{0, 0, 1280, 560};
    const LegendChoice narrow = best_legend_place(wide, area, {{290, 400}, {250, 450}, {200, 500}}, m);
    CHECK(narrow.index == 2);
    CHECK(narrow.place.legend.w == 200);
    // A square scene bound by the area's height gains nothing from a narrower legend: the widest.
    const WorldRect square{0, 0, 100, 100};
    CHECK(best_legend_place(square, area, {{290, 400}, {250, 450}, {200, 500}}, m).index == 0);
    // A narrower legend that grows taller than the area below its top is not taken.
    CHECK(best_legend_place(wide, area, {{290, 400}, {200, 560}}, m).index == 0);
    // Nothing fits: the first, as place_legend puts it.
    CHECK(best_legend_place(wide, area, {{290, 900}, {200, 990}}, m).index == 0);
}

TEST_CASE("ruler margins: room for the longest row number right, the column ruler below") {
    const auto line = make_layout(array_workload(&IncrementBody::kernel, 500), {{16, 1, 1}, {32, 1, 1}}, {2}, 16384);
    REQUIRE(line.value);
    const Margins few = ruler_margins(20, *line.value, map_labels(*line.value, ""));  // rows start at 0…448
    const auto big =
        make_layout(array_workload(&IncrementBody::kernel, 16777216), {{65536, 1, 1}, {256, 1, 1}}, {64}, 16384);
    REQUIRE(big.value);
    const Margins many = ruler_margins(20, *big.value, map_labels(*big.value, ""));  // …16776704: 8 digits
    CHECK(many.right > few.right + 20 * 0.8 * 0.62 * 4);
    CHECK(few.left < few.right);
    CHECK(few.top < few.bottom);
}

TEST_CASE("ruler ticks stand at 1, 2 or 5 times a power of ten, far enough apart to read") {
    CHECK(tick_step(100, 30) == 1);  // 100 pixels a cell: every index
    CHECK(tick_step(10, 30) == 5);
    CHECK(tick_step(1, 30) == 50);
    CHECK(tick_step(0.5, 30) == 100);
    CHECK(tick_step(0.01, 30) == 5000);
    for (double zoom : {0.003, 0.7, 3.0, 41.0})
        for (double px : {12.0, 40.0}) {
            const uint64_t step = tick_step(zoom, px);
            CHECK(double(step) * zoom >= px);     // labels never closer than asked
            CHECK(double(step) * zoom < px * 5);  // nor needlessly sparse
        }
}

TEST_CASE("the picture names its arrays: C, A and B with their shapes for the tutorial's matmul, a[n] for increment") {
    const Workload mm = matmul_workload(&MatmulBody::kernel, 200, 200, 200);
    Workload seed = mm;
    seed.a_rows = 300;
    seed.b_cols = 300;
    const auto layout = make_layout(seed, {{16, 16, 1}, {32, 32, 1}}, {1}, 16384);
    REQUIRE(layout.value);
    const MapLabels l = map_labels(*layout.value, "");
    REQUIRE(l.arrays.size() == 3);
    CHECK(l.arrays[0].text == "C 200\u00d7200");
    CHECK(l.arrays[1].text == "A 300\u00d7200");
    CHECK(l.arrays[2].text == "B 200\u00d7300");
    CHECK(l.arrays[1].box.x1 < 0);  // A left of C, B above it
    CHECK(l.arrays[2].box.y1 < 0);
    CHECK(l.axis_note.find("x runs down the rows of C") != std::string::npos);
    const auto xcol =
        make_layout(matmul_workload(&MatmulXColBody::kernel, 64, 64, 8), {{4, 4, 1}, {16, 16, 1}}, {1}, 16384);
    REQUIRE(xcol.value);
    CHECK(map_labels(*xcol.value, "").axis_note.find("x runs across the columns") != std::string::npos);

    const auto line = make_layout(array_workload(&IncrementBody::kernel, 500), {{16, 1, 1}, {32, 1, 1}}, {2}, 16384);
    REQUIRE(line.value);
    const MapLabels a = map_labels(*line.value, "");
    REQUIRE(a.arrays.size() == 1);
    CHECK(a.arrays[0].text == "a[500]");
    CHECK(a.axis_note.empty());
    CHECK(a.cols == 64);  // two blocks of 32 per row
    CHECK(a.rows == 8);
    CHECK(map_labels(*line.value, "bins").arrays[0].text == "bins[500]");
}

TEST_CASE("covered fraction: the picture's share of the window") {
    CHECK(covered_fraction({0, 0, 50, 100}, {0, 0, 100, 100}) == doctest::Approx(0.5));
    CHECK(covered_fraction({-50, 0, 100, 100}, {0, 0, 100, 100}) == doctest::Approx(0.5));  // clipped
    CHECK(covered_fraction({200, 200, 10, 10}, {0, 0, 100, 100}) == 0);
}

TEST_CASE("a 1D map's legend goes under it as a strip where the map's reshaped rows gain by it") {
    const WorldRect line{0, 0, 32, 16};  // 512 cells in rows of 32
    const Margins m = Margins::all(10);
    // The normal layout's centre, which a legend column would narrow: a strip under the map.
    const LegendPlace under = place_legend(line, {0, 0, 775, 555}, 228, 320, m, true, 110);
    CHECK(under.across);
    CHECK(under.map.w == 775);
    CHECK(under.legend.y >= under.map.y + under.map.h);
    CHECK(under.legend.y + under.legend.h <= 555);
    // Presentation's wide, short area: beside keeps the picture larger.
    const LegendPlace beside = place_legend(line, {0, 0, 1280, 550}, 211, 348, m, true, 110);
    CHECK_FALSE(beside.across);
    CHECK(beside.legend.x >= beside.map.x + beside.map.w);
    CHECK_FALSE(place_legend(line, {0, 0, 775, 555}, 228, 320, m, true).across);  // no strip offered
    // Rows doubled or halved to the best fit: 512 cells in 400x400 take 32x16 (or 16x32) at 12.5 px.
    CHECK(reshaped_area(line, 420, 420, m) == doctest::Approx(512 * 12.5 * 12.5));
    CHECK(reshaped_area(line, 20, 20, m) == 0);  // no room inside the margins
}
