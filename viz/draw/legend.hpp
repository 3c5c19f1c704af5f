// Colour modes by name, and the legend of each: what a colour on the map means. The legend
// is data (for the window's panel) and a drawing on an ImDrawList (for figures and exports).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "viz/color/color_mode.hpp"
#include "viz/color/colorizer.hpp"
#include "kernels/core/launch_config.hpp"
#include "viz/color/theme.hpp"

struct ImDrawList;
struct ImFont;
struct ImVec2;

namespace threadmap {

// What a swatch stands for, where the picture may have none of it (its legend then leaves it
// out: picture_legend).
enum class LegendCategory { Always, Untouched, Multi, Race, Hazard, Uninitialized };

struct LegendSwatch {
    Rgba8 color;
    std::string label;
    bool ghost = false;  // drawn faded and hatched, as idle threads are on the map
    LegendCategory category = LegendCategory::Always;
};

// A figure's place on the ramp (RampMark::at, 0 at its low end and 1 at its high), named over it:
// the mean sectors per request of the mapped array and what would do, where the cells' colours
// alone hardly tell 4 from 5 (neighbouring teals).
struct RampMark {
    float at = 0;
    std::string label;
};

struct Legend {
    std::string lead;  // a paragraph above the title, wrapped (a lesson's point; may be empty)
    std::string title;
    std::string note;  // a figure or caveat under the title, wrapped (may be empty)
    std::vector<LegendSwatch> swatches;
    bool ramp = false;  // a continuous scale from ramp_low to ramp_high
    std::string ramp_low, ramp_high;
    std::vector<RampMark> marks;  // over the ramp, each label on the first row it does not overlap
    // The first `examples` swatches are a repeating cycle's first colours (blockIdx, warp, SM),
    // of which a legend short of room lists fewer (with_examples).
    size_t examples = 0;
};

Legend make_legend(const ColorContext& color);

// The legend listing only the first `keep` (at least 1) of its example swatches, its note saying
// so: at a raised UI scale the blockIdx legend's ten swatches made it taller than the map's area,
// and it went over a third of the picture.
Legend with_examples(const Legend& legend, size_t keep);

// The size the legend takes drawn at `font_size`: as wide as its widest line (at most
// `max_width`, its note wrapped there), as tall as draw_legend makes it. `across`: a strip as
// wide as `max_width`, its swatches flowing in as many columns as fit (under a picture).
ImVec2 legend_size(const Legend& legend, ImFont* font, float font_size, float max_width, bool across = false);

// Draws the legend with its top-left at (x, y) within `width` pixels (`across`: as
// legend_size's strip); returns its height.
float draw_legend(ImDrawList* list, const Legend& legend, ImFont* font, float font_size, float x, float y, float width,
                  const Theme& theme = theme_of(ThemeName::Dark), bool across = false);

}  // namespace threadmap
