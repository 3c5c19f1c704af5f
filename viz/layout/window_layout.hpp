// Where things go on screen, as pure functions of sizes (no ImGui, no GL), shared by the window
// and `threadmap render`: the window's regions (the picture first: the side columns never take
// the map's share, whatever the UI scale), and the legend's place in the map's own margin.
#pragma once

#include <cstddef>
#include <vector>

#include "viz/layout/view_transform.hpp"

namespace threadmap {

struct WindowLayoutSpec {
    double width = 1600, height = 900;           // the window's content area, window pixels
    double scale = 1;                            // the UI scale
    bool presentation = false;                   // no side columns: a launch bar and the picture
    double left_width = 300, right_width = 320;  // the side columns at scale 1 (the settings')
    double top_height = 0;                       // the launch bar (presentation), as measured
    double status_height = 0;                    // the status bar, as measured
    double splitter = 6;                         // each splitter's width at scale 1
};

struct WindowRegions {
    ViewRect left, right;  // empty (w = 0) in presentation mode
    ViewRect top;          // the launch bar: presentation mode only
    ViewRect centre;       // the views (the map, the other tabs)
    ViewRect status;
};

// The width the centre always keeps in the normal layout: side columns wider than the rest (a
// raised UI scale, a wide setting) shrink together, their text wrapping. 62% of the window, and
// on a window as narrow as a projector's (1280 px) 850 px where that leaves the columns a third:
// there the picture needs the pixels more than the columns' text does.
inline constexpr double kMinCentreShare = 0.62;
inline constexpr double kProjectorCentreWidth = 850;
double min_centre_width(double window_width);

WindowRegions window_regions(const WindowLayoutSpec& spec);

// Where the legend goes beside a scene fitted into `area`: right of the fitted scene, or under
// it, whichever leaves the picture larger (and the legend fits), unless that would shrink the
// picture by more than two fifths: then over the area's top-right corner. `map` is the
// rectangle to fit the scene into (with `margins`); `legend` is the legend's, a left margin's
// width from the map.
struct LegendPlace {
    ViewRect map, legend;
    bool over = false;    // drawn over the picture (on a background of its own)
    bool across = false;  // a strip under the picture, its swatches side by side
};
// `reshapes`: the scene takes the shape it is given (a 1D map's rows follow the view): the
// legend then goes right of it, or under it as a strip `strip_h` tall across the area (0: no
// strip), whichever leaves the reshaped picture larger; the map keeps the rest of the area.
LegendPlace place_legend(const WorldRect& scene, const ViewRect& area, double legend_w, double legend_h,
                         const Margins& margins, bool reshapes = false, double strip_h = 0);

// One legend wrapped at several widths (its sizes, widest first): the place among them that
// leaves the picture largest with the legend inside the area, the widest unless a narrower one
// gains the picture more than 2% (text wrapped narrower for nothing reads worse). `index` is the
// size chosen.
struct LegendChoice {
    size_t index = 0;
    LegendPlace place;
};
struct LegendSize {
    double w = 0, h = 0;
};
LegendChoice best_legend_place(const WorldRect& scene, const ViewRect& area, const std::vector<LegendSize>& sizes,
                               const Margins& margins, bool reshapes = false, double strip_h = 0);

// The screen area a reshaping scene's cells take fitted in a w×h rectangle less its margins,
// its rows doubled or halved (whole warps, as a 1D map's) to the best fit.
double reshaped_area(const WorldRect& scene, double w, double h, const Margins& margins);

// The fraction of `window` (its area) that `picture` covers: what the layout guarantees.
double covered_fraction(const ViewRect& picture, const ViewRect& window);

// The screen rectangle of `world` under view `v` in `r` (clipped to r).
ViewRect screen_rect(const View& v, const ViewRect& r, const WorldRect& world);

}  // namespace threadmap
