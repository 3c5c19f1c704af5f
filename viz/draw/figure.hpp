// A figure: the map fitted into a frame, a caption of the launch above it and the legend
// beside it. `threadmap render` and the window's "map only" export draw the same figure.
#pragma once

#include <functional>
#include <string>

#include "viz/draw/cell_grid_renderer.hpp"
#include "viz/draw/legend.hpp"

namespace threadmap {

struct FigureSpec {
    const MapLayout* layout = nullptr;
    Legend legend;
    std::string caption;  // first line: the launch; more lines after '\n'
    std::string array;    // the mapped array's name, as the picture labels it (empty: C or a)
    ThemeName theme = ThemeName::Dark;
    bool show_legend = true;
    int width = 1920, height = 1080;
    float font_px = 20;
    // A second map drawn right of the first (a lesson's comparison kernel), from its own renderer;
    // with `compare` the two share the map's area half and half (set it before asking for the
    // map's area: a 1D map's rows follow its shape).
    bool compare = false;
    const MapLayout* compare_layout = nullptr;
    const CellGridRenderer* compare_renderer = nullptr;
    std::string compare_array;
    // The colours the two maps paint their cells (LabelStyle::cell_color; empty: unknown).
    std::function<Rgba8(uint32_t x, uint32_t y)> cell_color, compare_cell_color;
};

// Where the map goes in the figure (the caption above it, the legend right of it; with a
// comparison, the left half of that); its shape sets a 1D map's rows.
ViewRect figure_map_area(const FigureSpec& spec);
// The comparison map's place: the right half (empty without one).
ViewRect figure_compare_area(const FigureSpec& spec);

// The view the figure draws its map with: fitted into figure_map_area, leaving room for its
// rulers and labels.
View figure_view(const FigureSpec& spec);

// Draws into the bound framebuffer (width×height). The renderer must hold the layout's
// colours; an ImGui context with the OpenGL3 backend must be current.
void draw_figure(const CellGridRenderer& renderer, const FigureSpec& spec);

// "increment · 500 elements · gridDim (16,1,1) · blockDim (32,1,1) · colour: blockIdx". A model
// kernel's map names its array instead ("histogram-racy · bins [16] · …").
std::string launch_caption(const std::string& kernel, const std::string& array, const MapLayout& layout,
                           ColorMode mode);

}  // namespace threadmap
