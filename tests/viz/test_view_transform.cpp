// View maths: the cell under the cursor at any zoom and pan, zoom about the cursor, fit.
#include <doctest/doctest.h>

#include "viz/layout/view_transform.hpp"

using namespace threadmap;

TEST_CASE("the cell under the cursor - at any zoom and pan") {
    const ViewRect r{100, 50, 800, 600};
    View v;
    v.center = {10, 5};
    v.zoom = 20;  // 20 px per cell; the viewport centre (500, 350) is world (10, 5)
    CHECK(cell_at(v, r, {500, 350}, 100, 100) == glm::ivec2(10, 5));
    CHECK(cell_at(v, r, {499, 349}, 100, 100) == glm::ivec2(9, 4));
    CHECK(cell_at(v, r, {519.9, 369.9}, 100, 100) == glm::ivec2(10, 5));
    CHECK(cell_at(v, r, {520, 370}, 100, 100) == glm::ivec2(11, 6));
    CHECK_FALSE(cell_at(v, r, {100, 50}, 100, 100).has_value());  // world (-10, -10)
    const View panned = pan_by(v, {40, -20});                     // content moves right and up
    CHECK(cell_at(panned, r, {540, 330}, 100, 100) == glm::ivec2(10, 5));
    for (double zoom : {0.05, 0.5, 1.0, 3.0, 77.0, 500.0}) {
        View z = v;
        z.zoom = zoom;
        const glm::dvec2 s = world_to_screen(z, r, {12.25, 7.75});
        CHECK(cell_at(z, r, s, 100, 100) == glm::ivec2(12, 7));
        const glm::dvec2 back = screen_to_world(z, r, s);
        CHECK(back.x == doctest::Approx(12.25));
        CHECK(back.y == doctest::Approx(7.75));
    }
}

TEST_CASE("zooming keeps the point under the cursor in place") {
    const ViewRect r{0, 0, 1000, 800};
    View v;
    v.center = {50, 40};
    v.zoom = 4;
    const glm::dvec2 cursor{730, 122};
    const glm::dvec2 before = screen_to_world(v, r, cursor);
    for (double f : {1.25, 0.8, 10.0, 0.01}) {
        const View z = zoom_at(v, r, cursor, f);
        const glm::dvec2 after = screen_to_world(z, r, cursor);
        CHECK(after.x == doctest::Approx(before.x));
        CHECK(after.y == doctest::Approx(before.y));
    }
    CHECK(zoom_at(v, r, cursor, 1e9).zoom == kMaxZoom);
    CHECK(zoom_at(v, r, cursor, 1e-9).zoom == kMinZoom);
}

TEST_CASE("fit shows the whole world inside the viewport") {
    const ViewRect r{10, 20, 640, 480};
    const WorldRect w{-30, -30, 4096, 4096};
    const View v = fit(w, r, Margins::all(12));
    const glm::dvec2 a = world_to_screen(v, r, {w.x0, w.y0}), b = world_to_screen(v, r, {w.x1, w.y1});
    CHECK(a.x >= r.x + 11.9);
    CHECK(a.y >= r.y + 11.9);
    CHECK(b.x <= r.x + r.w - 11.9);
    CHECK(b.y <= r.y + r.h - 11.9);
    // Margins of their own on each side: the world centred in what they leave.
    const Margins m{5, 30, 60, 90};
    const View u = fit(w, r, m);
    const glm::dvec2 c = world_to_screen(u, r, {w.x0, w.y0}), d = world_to_screen(u, r, {w.x1, w.y1});
    CHECK(c.x >= r.x + 5 - 1e-6);
    CHECK(c.y >= r.y + 30 - 1e-6);
    CHECK(d.x <= r.x + r.w - 60 + 1e-6);
    CHECK(d.y <= r.y + r.h - 90 + 1e-6);
    CHECK((c.y - (r.y + 30)) == doctest::Approx((r.y + r.h - 90) - d.y));  // centred in the rest
    CHECK(std::max(d.x - c.x, d.y - c.y) == doctest::Approx(std::min(r.w - 65, r.h - 120)));
    // A degenerate viewport (a window resized to nothing) still gives a usable view.
    const View tiny = fit(w, {0, 0, 0, 0});
    CHECK(tiny.zoom >= kMinZoom);
}
