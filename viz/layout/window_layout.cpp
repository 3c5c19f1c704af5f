// See window_layout.hpp.
#include "viz/layout/window_layout.hpp"

#include <algorithm>
#include <cmath>

namespace threadmap {

double min_centre_width(double window_width) {
    return std::max(window_width * kMinCentreShare, std::min(kProjectorCentreWidth, window_width * 2 / 3));
}

WindowRegions window_regions(const WindowLayoutSpec& s) {
    WindowRegions r;
    const double body_top = s.presentation ? s.top_height : 0;
    const double body_h = std::max(s.height - body_top - s.status_height, 1.0);
    r.status = {0, s.height - s.status_height, s.width, s.status_height};
    if (s.presentation) {
        r.top = {0, 0, s.width, s.top_height};
        r.centre = {0, body_top, s.width, body_h};
        r.left = {0, body_top, 0, body_h};
        r.right = {s.width, body_top, 0, body_h};
        return r;
    }
    const double splitters = 2 * s.splitter * s.scale;
    double left = s.left_width * s.scale, right = s.right_width * s.scale;
    const double sides = std::max(s.width - min_centre_width(s.width) - splitters, 2.0);
    if (left + right > sides) {  // both shrink, in proportion: the picture keeps its share
        const double k = sides / (left + right);
        left *= k;
        right *= k;
    }
    const double centre_w = std::max(s.width - left - right - splitters, 1.0);
    r.left = {0, 0, left, body_h};
    r.centre = {left + splitters / 2, 0, centre_w, body_h};
    r.right = {s.width - right, 0, right, body_h};
    return r;
}

namespace {

// The pixels per cell at which `scene` fits in a w×h rectangle less its margins.
double fitted_zoom(const WorldRect& scene, double w, double h, const Margins& m) {
    const double sw = std::max(scene.x1 - scene.x0, 1e-9), sh = std::max(scene.y1 - scene.y0, 1e-9);
    return std::max(std::min((w - m.across()) / sw, (h - m.down()) / sh), 0.0);
}

}  // namespace

double reshaped_area(const WorldRect& scene, double w, double h, const Margins& m) {
    const double cols = std::max(scene.x1 - scene.x0, 1.0), cells = cols * std::max(scene.y1 - scene.y0, 1.0);
    double best = 0;
    for (int k = -8; k <= 8; ++k) {
        const double row = std::ldexp(cols, k);
        if (row < 1 || row > cells * 2) continue;
        const double zoom = std::max(std::min((w - m.across()) / row, (h - m.down()) / std::ceil(cells / row)), 0.0);
        best = std::max(best, cells * zoom * zoom);
    }
    return best;
}

LegendPlace place_legend(const WorldRect& scene, const ViewRect& area, double legend_w, double legend_h,
                         const Margins& margins, bool reshapes, double strip_h) {
    const double sw = scene.x1 - scene.x0, sh = scene.y1 - scene.y0;
    const double gap = margins.left;  // the right margin holds the rulers: the legend follows them
    const double margin = margins.top;
    if (reshapes && legend_w + gap < area.w / 2) {
        LegendPlace p;
        const ViewRect beside{area.x, area.y, area.w - legend_w - gap, area.h};
        const ViewRect under{area.x, area.y, area.w, area.h - strip_h - gap};
        if (strip_h > 0 && under.h > area.h / 2 &&
            reshaped_area(scene, under.w, under.h, margins) > reshaped_area(scene, beside.w, beside.h, margins)) {
            p.map = under;
            p.legend = {area.x + margins.left, area.y + under.h + gap, area.w - margins.across(), strip_h};
            p.across = true;
            return p;
        }
        p.map = beside;
        p.legend = {area.x + p.map.w + gap, area.y + margin, legend_w, legend_h};
        return p;
    }
    // Beside: the map keeps the area less the legend's column; the legend goes right of the
    // scene as fitted there (its free width shared on both sides of the scene).
    const double zoom_right =
        legend_h + margin <= area.h ? fitted_zoom(scene, area.w - legend_w - gap, area.h, margins) : 0;
    const double zoom_below = legend_w <= area.w ? fitted_zoom(scene, area.w, area.h - legend_h - gap, margins) : 0;
    const double zoom_over = fitted_zoom(scene, area.w, area.h, margins);
    LegendPlace p;
    // A legend in the margin unless that costs the picture more than two fifths of its size;
    // only then does it go over a corner of it.
    if (std::max(zoom_right, zoom_below) >= 0.6 * zoom_over) {
        if (zoom_right >= zoom_below) {
            const double used = sw * zoom_right + margins.across() + gap + legend_w;  // scene, its margins, legend
            const double left = area.x + std::max((area.w - used) / 2, 0.0);
            p.map = {left, area.y, sw * zoom_right + margins.across(), area.h};
            p.legend = {left + p.map.w + gap, area.y + margin, legend_w, legend_h};
        } else {
            const double used = sh * zoom_below + margins.down() + gap + legend_h;
            const double top = area.y + std::max((area.h - used) / 2, 0.0);
            p.map = {area.x, top, area.w, sh * zoom_below + margins.down()};
            p.legend = {area.x + margins.left, top + p.map.h + gap, legend_w, legend_h};
        }
        return p;
    }
    p.map = area;
    p.legend = {area.x + area.w - legend_w - margins.right, area.y + margin, legend_w, legend_h};
    p.over = true;
    return p;
}

namespace {

// The screen area the scene shows in a placement's map rectangle.
double picture_area(const WorldRect& scene, const LegendPlace& place, const Margins& margins, bool reshapes) {
    if (reshapes) return reshaped_area(scene, place.map.w, place.map.h, margins);
    const double zoom = fitted_zoom(scene, place.map.w, place.map.h, margins);
    const double hidden = place.over ? place.legend.w * place.legend.h : 0;  // a legend over it hides some
    return (scene.x1 - scene.x0) * (scene.y1 - scene.y0) * zoom * zoom - hidden;
}

}  // namespace

LegendChoice best_legend_place(const WorldRect& scene, const ViewRect& area, const std::vector<LegendSize>& sizes,
                               const Margins& margins, bool reshapes, double strip_h) {
    LegendChoice best;
    double best_area = -1;
    for (size_t i = 0; i < sizes.size(); ++i) {
        const LegendPlace place = place_legend(scene, area, sizes[i].w, sizes[i].h, margins, reshapes, strip_h);
        // A legend taller than the area below its top is cut: the widest is kept only if none fits.
        const bool fits = place.legend.y + place.legend.h <= area.y + area.h + 0.5;
        const double picture = fits ? picture_area(scene, place, margins, reshapes) : 0;
        if (i == 0 || picture > best_area * 1.02) {
            best = {i, place};
            best_area = picture;
        }
    }
    return best;
}

double covered_fraction(const ViewRect& picture, const ViewRect& window) {
    const double x0 = std::max(picture.x, window.x), y0 = std::max(picture.y, window.y);
    const double x1 = std::min(picture.x + picture.w, window.x + window.w);
    const double y1 = std::min(picture.y + picture.h, window.y + window.h);
    if (x1 <= x0 || y1 <= y0 || window.w <= 0 || window.h <= 0) return 0;
    return (x1 - x0) * (y1 - y0) / (window.w * window.h);
}

ViewRect screen_rect(const View& v, const ViewRect& r, const WorldRect& world) {
    const glm::dvec2 a = world_to_screen(v, r, {world.x0, world.y0});
    const glm::dvec2 b = world_to_screen(v, r, {world.x1, world.y1});
    const double x0 = std::clamp(a.x, r.x, r.x + r.w), x1 = std::clamp(b.x, r.x, r.x + r.w);
    const double y0 = std::clamp(a.y, r.y, r.y + r.h), y1 = std::clamp(b.y, r.y, r.y + r.h);
    return {x0, y0, x1 - x0, y1 - y0};
}

}  // namespace threadmap
