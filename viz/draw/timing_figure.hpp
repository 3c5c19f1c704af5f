// Drawing of timings, shared by the window's Timing panel and `threadmap render --timing`:
// bars of stages on a common time axis, and the sweep's log-log chart with its crossover.
// Plain data in, ImDrawList out; every label carries its figure's origin.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "kernels/timing/sweep.hpp"
#include "viz/color/theme.hpp"

struct ImDrawList;
struct ImFont;

namespace threadmap {

struct TimingBar {
    std::string label;                                     // "GPU, copies every call (modeled)"
    std::vector<std::pair<std::string, double>> segments;  // stage name, seconds
};

// Bars from (x, y), `width` wide, on one axis from 0 to `axis_seconds`; returns the height.
float draw_timing_bars(ImDrawList* list, ImFont* font, float font_size, float x, float y, float width,
                       const std::vector<TimingBar>& bars, double axis_seconds,
                       const Theme& theme = theme_of(ThemeName::Dark));

// The sweep chart in the rectangle (x, y, width, height): CPU, GPU with copies, GPU resident,
// log-log, the crossover as a vertical line, a legend naming each series' origin.
void draw_sweep_chart(ImDrawList* list, ImFont* font, float font_size, float x, float y, float width, float height,
                      const SweepResult& sweep, const Theme& theme = theme_of(ThemeName::Dark));

std::string seconds_text(double seconds);  // "12.3 us", "4.56 ms"

// A whole timing figure into the bound width × height framebuffer (`render --timing`):
// caption lines, the bars, and the sweep chart with its sentence when there is one. Needs
// an ImGui context with the OpenGL3 backend (HeadlessImGui).
void draw_timing_figure(int width, int height, float font_px, const std::vector<std::string>& caption,
                        const std::vector<TimingBar>& bars, double axis_seconds, const SweepResult* sweep,
                        const Theme& theme = theme_of(ThemeName::Dark));

}  // namespace threadmap
