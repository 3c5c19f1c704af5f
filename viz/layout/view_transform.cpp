// View maths; see view_transform.hpp.
#include "viz/layout/view_transform.hpp"

#include <algorithm>
#include <cmath>
#include <glm/gtc/matrix_transform.hpp>

namespace threadmap {

glm::dvec2 screen_to_world(const View& v, const ViewRect& r, glm::dvec2 s) {
    return v.center + (s - glm::dvec2(r.x + r.w / 2, r.y + r.h / 2)) / v.zoom;
}

glm::dvec2 world_to_screen(const View& v, const ViewRect& r, glm::dvec2 w) {
    return glm::dvec2(r.x + r.w / 2, r.y + r.h / 2) + (w - v.center) * v.zoom;
}

View zoom_at(const View& v, const ViewRect& r, glm::dvec2 cursor, double factor) {
    const glm::dvec2 anchor = screen_to_world(v, r, cursor);
    View out = v;
    out.zoom = std::clamp(v.zoom * factor, kMinZoom, kMaxZoom);
    // Keep `anchor` under the cursor: center = anchor - (cursor - viewport centre) / zoom.
    out.center = anchor - (cursor - glm::dvec2(r.x + r.w / 2, r.y + r.h / 2)) / out.zoom;
    return out;
}

View pan_by(const View& v, glm::dvec2 delta) {
    View out = v;
    out.center -= delta / v.zoom;
    return out;
}

View fit(const WorldRect& w, const ViewRect& r, const Margins& m) {
    View v;
    const double ww = std::max(w.x1 - w.x0, 1e-9), wh = std::max(w.y1 - w.y0, 1e-9);
    const double aw = std::max(r.w - m.across(), 1.0), ah = std::max(r.h - m.down(), 1.0);
    v.zoom = std::clamp(std::min(aw / ww, ah / wh), kMinZoom, kMaxZoom);
    // The world's centre at the centre of what the margins leave (r's centre shifted by half
    // the difference of opposite margins).
    const glm::dvec2 shift{(m.left - m.right) / 2, (m.top - m.bottom) / 2};
    v.center = glm::dvec2{(w.x0 + w.x1) / 2, (w.y0 + w.y1) / 2} - shift / v.zoom;
    return v;
}

std::optional<glm::ivec2> cell_at(const View& v, const ViewRect& r, glm::dvec2 s, int width, int height) {
    const glm::dvec2 w = screen_to_world(v, r, s);
    const double cx = std::floor(w.x), cy = std::floor(w.y);
    if (cx < 0 || cy < 0 || cx >= width || cy >= height) return std::nullopt;
    return glm::ivec2(int(cx), int(cy));
}

glm::mat4 projection(const View& v, const ViewRect& r) {
    const double half_w = r.w / 2 / v.zoom, half_h = r.h / 2 / v.zoom;
    // top maps to +1 in clip space: y grows downward in the world, as on screen.
    return glm::ortho(float(v.center.x - half_w), float(v.center.x + half_w), float(v.center.y + half_h),
                      float(v.center.y - half_h), -1.0f, 1.0f);
}

}  // namespace threadmap
