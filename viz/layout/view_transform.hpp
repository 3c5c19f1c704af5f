// Pan and zoom of the map: world coordinates are cells (x across, y down, cell (i, j) covers
// [j, j+1)×[i, i+1)); screen coordinates are pixels from the top-left of the viewport.
#pragma once

#include <glm/glm.hpp>
#include <optional>

namespace threadmap {

struct ViewRect {  // an area of the screen, in pixels, top-left origin
    double x = 0, y = 0, w = 1, h = 1;
};

// Whether two screen areas share any pixel (touching edges do not).
inline bool overlaps(const ViewRect& a, const ViewRect& b) {
    return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

struct WorldRect {  // an area of the world, in cells
    double x0 = 0, y0 = 0, x1 = 1, y1 = 1;
};

// Pixels kept free on each side of a fitted picture, for what is drawn around it (its names
// above, its rulers right and below).
struct Margins {
    double left = 12, top = 12, right = 12, bottom = 12;
    static Margins all(double m) { return {m, m, m, m}; }
    double across() const { return left + right; }
    double down() const { return top + bottom; }
};

struct View {
    glm::dvec2 center{0.5, 0.5};  // world point at the viewport's centre
    double zoom = 1;              // pixels per cell
};

inline constexpr double kMinZoom = 1.0 / 64;  // a 4096-cell side fits in 64 pixels
inline constexpr double kMaxZoom = 512;

glm::dvec2 screen_to_world(const View& v, const ViewRect& r, glm::dvec2 screen);
glm::dvec2 world_to_screen(const View& v, const ViewRect& r, glm::dvec2 world);

// Multiplies the zoom by factor, keeping the world point under `cursor` where it is.
View zoom_at(const View& v, const ViewRect& r, glm::dvec2 cursor, double factor);
View pan_by(const View& v, glm::dvec2 screen_delta);
// The view that shows all of `world` inside r less its margins, centred in what they leave.
View fit(const WorldRect& world, const ViewRect& r, const Margins& margins = {});

// The cell (column, row) under a screen point, if inside [0,width)×[0,height).
std::optional<glm::ivec2> cell_at(const View& v, const ViewRect& r, glm::dvec2 screen, int width, int height);

// World → clip space for the shader, for a viewport of r's size (y down on screen).
glm::mat4 projection(const View& v, const ViewRect& r);

}  // namespace threadmap
